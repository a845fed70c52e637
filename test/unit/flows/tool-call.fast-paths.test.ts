/**
 * The shortcuts that make a call cheap must not change what a call does: phases of synchronous hooks
 * settle without promises, and a flow on the API's no-op tracer does not ask for phase spans.
 */
import type { Span, Tracer } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HookDecision, ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, executeTool, redirect, skip } from '../../../src/index.js';
import { SPAN_BEFORE_TOOL, SPAN_EXECUTE } from '../../../src/telemetry/semconv.js';

beforeAll(() => {
  trace.disable(); // the API's no-op tracer, as in a process without an SDK
});

/** A tracer that records the names it is asked for and hands out what `make` returns. */
function countingTracer(make: (name: string) => Span): { tracer: Tracer; names: string[] } {
  const names: string[] = [];
  const tracer = {
    startSpan: (name: string) => {
      names.push(name);
      return make(name);
    },
  } as unknown as Tracer;
  return { tracer, names };
}

const policy: ToolHook = { name: 'cap', beforeTool: (_tool, args) => ((args.limit as number) > 10 ? redirect({ newArgs: { limit: 10 } }) : undefined) };

describe('tracing fast path', () => {
  it('asks the API no-op tracer for the execute_tool span only, and the hooks still decide', async () => {
    const noop = trace.getTracer('test');
    const { tracer, names } = countingTracer((name) => noop.startSpan(name));
    const hooks = new HookRunner({ hooks: [policy], tracer });
    const result = await executeTool({ hooks, toolName: 'search', args: { limit: 50 }, execute: (args) => args.limit });
    expect(result).toBe(10);
    expect(names).toEqual(['execute_tool search']);
  });

  it('starts no phase or execute span under a tool span that is valid but sampled out (it would break the trace)', async () => {
    const unsampled = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 0 });
    const { tracer, names } = countingTracer(() => unsampled);
    const hooks = new HookRunner({ hooks: [policy], tracer });
    await executeTool({ hooks, toolName: 'search', args: { limit: 50 }, execute: (args) => args.limit });
    expect(names).toEqual(['execute_tool search']);
    expect(names).not.toContain(SPAN_BEFORE_TOOL);
    expect(names).not.toContain(SPAN_EXECUTE);
  });
});

describe('synchronous phases', () => {
  it('still answer the public API with a promise, and reject (never throw) on a synchronous Abort', () => {
    const hooks = new HookRunner([{ name: 'gate', beforeTool: () => abort('no') }]);
    const answer = hooks.runBefore('t', {}, undefined);
    expect(answer).toBeInstanceOf(Promise);
    return expect(answer).rejects.toBeInstanceOf(HookAbortError);
  });

  it('rejects a bad call instead of throwing', () => {
    const hooks = new HookRunner([{ beforeTool: () => undefined }]);
    const answer = hooks.runBefore('', {}, undefined);
    expect(answer).toBeInstanceOf(Promise);
    return expect(answer).rejects.toBeInstanceOf(TypeError);
  });

  it('keep hook order and aggregation when an asynchronous hook sits between synchronous ones', async () => {
    const order: string[] = [];
    const hook = (name: string, decide: () => HookDecision | undefined, async = false): ToolHook => ({
      name,
      beforeTool: () => {
        order.push(name);
        return async ? Promise.resolve().then(decide) : decide();
      },
    });
    const hooks = new HookRunner([
      hook('first', () => undefined),
      hook('slow', () => skip('cached', 1), true),
      hook('third', () => redirect({ newArgs: { x: 1 } })),
      hook('fourth', () => abort('stop')),
      hook('never', () => undefined),
    ]);
    await expect(hooks.runBefore('t', {}, undefined)).rejects.toMatchObject({ reason: 'stop', sourceHook: 'fourth' });
    expect(order).toEqual(['first', 'slow', 'third', 'fourth']);
    const observed: string[] = [];
    const second = new HookRunner([
      hook('a', () => undefined, true),
      hook('b', () => skip('b')),
      hook('c', () => skip('c'), true),
      { name: 'watch', onEvent: (event) => void observed.push(JSON.stringify(event.type === 'phase' ? [event.winner, event.shadowed.map((s) => s.hook)] : [])) },
    ]);
    expect(await second.runBefore('t', {}, undefined)).toMatchObject({ kind: 'skip', reason: 'b' });
    expect(observed).toEqual([JSON.stringify(['b', ['c']])]);
  });
});

describe('a call that settles synchronously (sync hooks that Continue or Redirect, a sync tool, no after_tool hook)', () => {
  const unsampled = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 0 };

  // That the dropped span is active for the tool (this file registers no context manager): tool-call.sampling.test.ts.
  it('answers with a promise, and the tool runs with the Redirect', async () => {
    const { tracer } = countingTracer(() => trace.wrapSpanContext(unsampled));
    const hooks = new HookRunner({ hooks: [policy, { name: 'look', beforeTool: () => undefined }], tracer });
    const answer = executeTool({ hooks, toolName: 'search', args: { limit: 50 }, execute: (args) => args.limit });
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toBe(10);
  });

  it('rejects (never throws) on a before_tool Abort, and a tool that throws synchronously still reaches on_error', async () => {
    const gate = new HookRunner([{ name: 'gate', beforeTool: () => abort('no') }]);
    const aborted = executeTool({ hooks: gate, toolName: 't', args: {}, execute: () => 1 });
    await expect(aborted).rejects.toBeInstanceOf(HookAbortError);
    const errors: string[] = [];
    const recover = new HookRunner([{ name: 'recover', onError: (_tool, _args, error) => (errors.push(String(error)), skip('recovered', 'stub')) }]);
    const result = await executeTool({
      hooks: recover,
      toolName: 't',
      args: {},
      execute: () => {
        throw new Error('sync failure');
      },
    });
    expect(result).toBe('stub');
    expect(errors).toEqual(['Error: sync failure']);
  });

  it('awaits a tool that returns a promise, and a rejection goes to on_error', async () => {
    const recover = new HookRunner([{ name: 'look', beforeTool: () => undefined }, { name: 'recover', onError: () => skip('recovered', 'stub') }]);
    expect(await executeTool({ hooks: recover, toolName: 't', args: {}, execute: () => Promise.resolve(7) })).toBe(7);
    expect(await executeTool({ hooks: recover, toolName: 't', args: {}, execute: () => Promise.reject(new Error('late')) })).toBe('stub');
  });
});

describe('a quiet phase (nothing records) started from inside a hook of another', () => {
  it('folds on its own state: neither phase sees the other’s request or decision', async () => {
    const inner = new HookRunner([{ name: 'inner-skip', beforeTool: (tool) => (tool === 'inner' ? skip('cached', 'inner stub') : undefined) }]);
    let nested: Promise<unknown> | undefined;
    const outer = new HookRunner([
      {
        name: 'calls-a-tool',
        beforeTool: () => {
          nested = executeTool({ hooks: inner, toolName: 'inner', args: { q: 1 }, execute: () => 'inner ran' });
        },
      },
      { name: 'cap', beforeTool: (tool, args) => (tool === 'outer' && (args.limit as number) > 10 ? redirect({ newArgs: { limit: 10 } }) : undefined) },
    ]);
    for (let round = 0; round < 3; round += 1) {
      expect(await executeTool({ hooks: outer, toolName: 'outer', args: { limit: 50 }, execute: (args) => args.limit })).toBe(10);
      expect(await nested).toBe('inner stub');
    }
  });
});
