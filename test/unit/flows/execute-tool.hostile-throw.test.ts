/**
 * Whatever a tool throws goes through onError, and the caller gets that very value: even a Proxy whose
 * traps throw (`getPrototypeOf`, so `instanceof` would throw, and `get`).
 */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { HookRunner, executeTool, runWithRetry, skip } from '../../../src/index.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();

function hostile(): object {
  return new Proxy(
    {},
    {
      getPrototypeOf() {
        throw new Error('getPrototypeOf trap');
      },
      get() {
        throw new Error('get trap');
      },
      has() {
        throw new Error('has trap');
      },
      ownKeys() {
        throw new Error('ownKeys trap');
      },
      getOwnPropertyDescriptor() {
        throw new Error('getOwnPropertyDescriptor trap');
      },
    },
  );
}

describe('a tool that throws a Proxy whose traps throw', () => {
  it.each([
    ['no SDK', undefined],
    ['with the SDK', tracing.tracer],
  ])('goes through onError, and the caller gets the very value thrown (%s)', async (_label, tracer) => {
    const thrown = hostile();
    const seen: unknown[] = [];
    const watcher: ToolHook = { name: 'watcher', onError: (_tool, _args, error) => void seen.push(error) };
    const hooks = new HookRunner(tracer === undefined ? [watcher] : { hooks: [watcher], tracer });
    const outcome = await executeTool({
      hooks,
      toolName: 'shell',
      args: {},
      execute: () => {
        throw thrown;
      },
    }).then(
      () => ({ rejected: false, value: undefined as unknown }),
      (value: unknown) => ({ rejected: true, value }),
    );
    expect(outcome.rejected).toBe(true);
    expect(outcome.value === thrown).toBe(true);
    expect(seen.length).toBe(1);
    expect(seen[0] === thrown).toBe(true);
  });

  it('an onError Skip recovers from it', async () => {
    const hooks = new HookRunner([{ onError: () => skip('recovered', 'stub') }]);
    await expect(executeTool({ hooks, toolName: 'shell', args: {}, execute: () => Promise.reject(hostile()) })).resolves.toBe('stub');
  });

  it('runWithRetry too', async () => {
    const thrown = hostile();
    const seen: unknown[] = [];
    const hooks = new HookRunner([{ onError: (_tool, _args, error) => void seen.push(error) }]);
    const outcome = await runWithRetry(
      () => {
        throw thrown;
      },
      { hooks, toolName: 'sql', args: {}, note: 'n', maxAttempts: 1 },
    ).then(
      (value: unknown) => ({ rejected: false, value }),
      (value: unknown) => ({ rejected: true, value }),
    );
    expect(seen.length === 1 && seen[0] === thrown).toBe(true);
    // runWithRetry ends an exhausted call with its failure text, or rethrows: never another error.
    expect(outcome.rejected && outcome.value !== thrown).toBe(false);
  });
});
