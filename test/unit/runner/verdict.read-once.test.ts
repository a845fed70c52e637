/**
 * A returned decision is read once: a `kind` (or any field) that reads differently the second time — a
 * getter, a Proxy — cannot crash the call, leave the phase span open, or turn a fail-closed gate's
 * decision into something else between its check and its use.
 */
import { describe, expect, it } from 'vitest';
import type { HookDecision, ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, executeTool } from '../../../src/index.js';
import { SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();

/** A decision whose `kind` answers `first` once and `then` at every later read. */
function flipping(first: string, then: string, fields: Record<string, unknown> = {}): HookDecision {
  let reads = 0;
  return {
    ...fields,
    get kind() {
      reads += 1;
      return reads === 1 ? first : then;
    },
  } as unknown as HookDecision;
}

/** A Proxy decision that counts the reads of each field. */
function counted(target: Record<string, unknown>): { decision: HookDecision; reads: Map<PropertyKey, number> } {
  const reads = new Map<PropertyKey, number>();
  const decision = new Proxy(target, {
    get(object, key, receiver) {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return Reflect.get(object, key, receiver) as unknown;
    },
  }) as unknown as HookDecision;
  return { decision, reads };
}

async function run(hook: ToolHook): Promise<unknown> {
  tracing.reset();
  const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [hook] });
  return executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 'ran' });
}

describe('a returned decision is read once', () => {
  it('a fail-open Skip whose kind changes after the first read is taken as the Skip it was', async () => {
    await expect(run({ beforeTool: () => flipping('skip', 'nonsense', { reason: 'cached', stubResult: 'stub' }) })).resolves.toBe('stub');
    expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(1);
  });

  it('junk first, a decision later: recorded as invalid, the call goes on, the phase span ends', async () => {
    await expect(run({ beforeTool: () => flipping('bogus', 'abort', { reason: 'x' }) })).resolves.toBe('ran');
    expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(1);
  });

  it("a fail-closed gate's Abort stays an Abort even when its kind reads continue afterwards", async () => {
    const gate: ToolHook = { name: 'gate', failureMode: 'closed', beforeTool: () => flipping('abort', 'continue', { reason: 'denied' }) };
    await expect(run(gate)).rejects.toBeInstanceOf(HookAbortError);
    expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(1);
  });

  it('a kind getter that throws on the second read does not reach the caller', async () => {
    let reads = 0;
    const decision = {
      reason: 'r',
      get kind() {
        reads += 1;
        if (reads > 1) throw new TypeError('second read');
        return 'abort';
      },
    } as unknown as HookDecision;
    await expect(run({ failureMode: 'closed', beforeTool: () => decision })).rejects.toThrow('r');
  });

  it('each field of a Proxy decision is read at most once', async () => {
    const { decision, reads } = counted({ kind: 'redirect', newArgs: { cmd: 'ls' }, reason: 'safer' });
    await run({ beforeTool: () => decision });
    for (const field of ['kind', 'newArgs', 'newTool', 'reason']) expect(reads.get(field) ?? 0, field).toBeLessThanOrEqual(1);
  });

  it('afterTool and onError decisions too', async () => {
    await expect(run({ afterTool: () => flipping('continue', 'nonsense') })).resolves.toBe('ran');
    tracing.reset();
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [{ onError: () => flipping('skip', 'nonsense', { reason: 'r', stubResult: 'recovered' }) }] });
    await expect(executeTool({ hooks, toolName: 'shell', args: {}, execute: () => Promise.reject(new Error('x')) })).resolves.toBe('recovered');
  });
});
