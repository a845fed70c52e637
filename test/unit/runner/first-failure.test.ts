/**
 * The first swallowed failure of each hook is visible with no setup: a Node process warning with a
 * code, unless the app registered a diag logger (where every failure already goes).
 */
import { diag } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { HookRunner, executeTool } from '../../../src/index.js';
import { recordDiag } from '../../support/diag.js';

const CODE = 'TOOLHOOKS_HOOK_FAILED';

let warnings: Error[] = [];
const listen = (warning: Error): void => {
  warnings.push(warning);
};

/** Lets the process deliver the warnings emitted so far (emitWarning delivers on the next tick). */
const delivered = (): Promise<void> => new Promise((done) => setImmediate(done));

function ourWarnings(): (Error & { code?: string })[] {
  return warnings.filter((w) => (w as { code?: string }).code === CODE);
}

let names = 0;

/**
 * A hook that returns the string 'abort' (an easy slip for `return abort('...')`). Warnings are once per
 * hook name per process, so each test's hook gets a name of its own unless it passes one.
 */
function stringy(name = `stringy${(names += 1)}`): ToolHook {
  return { name, beforeTool: () => 'abort' as never };
}

async function call(runner: HookRunner, toolName = 'shell'): Promise<unknown> {
  return executeTool({ hooks: runner, toolName, args: {}, execute: () => 'ran' });
}

beforeEach(() => {
  diag.disable();
  warnings = [];
  process.on('warning', listen);
});

afterEach(() => {
  process.off('warning', listen);
  diag.disable();
});

describe('first swallowed failure of a hook', () => {
  it('is one process warning with a code and a message that reads as a sentence', async () => {
    const runner = new HookRunner([stringy('first-failure-sentence')]);
    await expect(call(runner)).resolves.toBe('ran');
    await delivered();
    const [warning, ...more] = ourWarnings();
    expect(more).toEqual([]);
    expect(warning?.name).toBe('ToolhooksWarning');
    expect(warning?.message).toContain(`hook "first-failure-sentence" returned the string "abort"; return abort('reason') instead`);
    expect(warning?.message).toMatch(/^toolhooks: hook "first-failure-sentence" failed in before_tool for tool "shell" \(/);
    expect(warning?.message).toMatch(/; treated as Continue$/);
    expect(warning?.message).not.toMatch(/returned expected/);
  });

  it('a second failure of the same hook emits none, even on another tool or another runner', async () => {
    const hook = stringy();
    const runner = new HookRunner([hook]);
    await call(runner);
    await delivered();
    expect(ourWarnings()).toHaveLength(1);
    await call(runner);
    await call(runner, 'other');
    await call(new HookRunner([hook]));
    await delivered();
    expect(ourWarnings()).toHaveLength(1);
  });

  it('a new hook object with the same name, in a runner per request, emits none', async () => {
    const name = stringy().name ?? '';
    for (let request = 0; request < 5; request += 1) await call(new HookRunner([stringy(name)]));
    await delivered();
    expect(ourWarnings()).toHaveLength(1);
  });

  it('two hooks with different names each warn once', async () => {
    await call(new HookRunner([stringy(), stringy()]));
    await delivered();
    expect(ourWarnings()).toHaveLength(2);
  });

  it('each failing hook warns once on its own', async () => {
    const thrower: ToolHook = {
      name: 'thrower',
      beforeTool() {
        throw new Error('boom');
      },
    };
    const runner = new HookRunner([stringy(), thrower]);
    await call(runner);
    await call(runner);
    await delivered();
    const messages = ourWarnings().map((w) => w.message);
    expect(messages).toHaveLength(2);
    expect(messages.some((m) => m.includes('hook "thrower"') && m.includes('boom'))).toBe(true);
  });

  it('a fail-closed hook says the call is aborted', async () => {
    const runner = new HookRunner([{ ...stringy(), failureMode: 'closed' }]);
    await expect(call(runner)).rejects.toThrow();
    await delivered();
    expect(ourWarnings()[0]?.message).toMatch(/failureMode is closed, so the call is aborted$/);
  });

  it('with a diag logger registered, no process warning (the logger gets it)', async () => {
    const recorder = recordDiag();
    recorder.start();
    try {
      await call(new HookRunner([stringy()]));
      await delivered();
      expect(ourWarnings()).toEqual([]);
      expect(recorder.messages.some((m) => m.includes(`returned the string "abort"; return abort('reason') instead`))).toBe(true);
    } finally {
      recorder.stop();
    }
  });

  it('a hook that does not fail emits nothing', async () => {
    await call(new HookRunner([{ name: 'fine', beforeTool: () => undefined }]));
    await delivered();
    expect(ourWarnings()).toEqual([]);
  });
});
