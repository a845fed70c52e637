import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import type { Executor, HookDecision, ToolEvent, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, executeTool, redirect, skip } from '../../../src/index.js';
import {
  ATTR_ATTEMPT,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_HOOK_ERROR_KIND,
  ATTR_OUTCOME,
  ATTR_REDIRECTED,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  ATTR_TOOL_EFFECTIVE_NAME,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_ON_ERROR,
} from '../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

const runner = (hooks: ToolHook[]): HookRunner => tracing.runner(hooks);

function rootSpan(): ReadableSpan {
  const roots = tracing.spans().filter((s) => s.name.startsWith('execute_tool '));
  expect(roots).toHaveLength(1);
  return roots[0]!;
}

function childrenOf(span: ReadableSpan): string[] {
  return tracing.childNames(span);
}

describe('executeTool: before_tool decisions', () => {
  it('runs the tool and returns its result when every hook continues', async () => {
    const execute = vi.fn((args: Record<string, unknown>) => `listed ${String(args.dir)}`);
    const result = await executeTool({ hooks: runner([{ name: 'noop', beforeTool: () => undefined }]), toolName: 'ls', args: { dir: '/tmp' }, execute });
    expect(result).toBe('listed /tmp');
    expect(execute).toHaveBeenCalledWith({ dir: '/tmp' }, { toolName: 'ls', attempt: 1 });
    const root = rootSpan();
    expect(root.name).toBe('execute_tool ls');
    expect(root.attributes).toMatchObject({
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: 'ls',
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_OUTCOME]: 'completed',
      [ATTR_REDIRECTED]: false,
      [ATTR_RETRIES]: 0,
      [ATTR_REEXECUTIONS]: 0,
    });
    expect(root.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(root.status.code).toBe(SpanStatusCode.UNSET);
    expect(childrenOf(root)).toEqual([SPAN_BEFORE_TOOL, SPAN_EXECUTE]);
  });

  it('Skip returns the stub, never runs the executor, and afterTool still fires', async () => {
    const execute = vi.fn();
    const afterTool = vi.fn();
    const hooks = runner([{ name: 'cache', beforeTool: () => skip('cache hit', { cached: true }), afterTool }]);
    const result = await executeTool({ hooks, toolName: 'search', args: { q: 'x' }, execute });
    expect(result).toEqual({ cached: true });
    expect(execute).not.toHaveBeenCalled();
    expect(afterTool).toHaveBeenCalledWith('search', { q: 'x' }, { cached: true }, undefined, 0, expect.anything());
    expect(rootSpan().attributes[ATTR_OUTCOME]).toBe('skipped');
    expect(childrenOf(rootSpan())).toEqual([SPAN_BEFORE_TOOL, SPAN_AFTER_TOOL]);
  });

  it("an afterTool Abort after a Skip still raises", async () => {
    const hooks = runner([
      { name: 'cache', beforeTool: () => skip('hit', 'stub') },
      { name: 'audit', afterTool: () => abort('stub not allowed') },
    ]);
    await expect(executeTool({ hooks, toolName: 't', args: {}, execute: () => 1 })).rejects.toMatchObject({
      name: 'HookAbortError',
      reason: 'stub not allowed',
    });
    expect(rootSpan().attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('Redirect runs the tool with {...args, ...newArgs} and leaves the caller args alone', async () => {
    const execute = vi.fn((args: Record<string, unknown>) => args);
    const args = { path: '/etc/passwd', mode: 'r' };
    const hooks = runner([{ name: 'jail', beforeTool: () => redirect({ newArgs: { path: '/sandbox/passwd' }, reason: 'jail' }) }]);
    const result = await executeTool({ hooks, toolName: 'read', args, execute });
    expect(result).toEqual({ path: '/sandbox/passwd', mode: 'r' });
    expect(args).toEqual({ path: '/etc/passwd', mode: 'r' });
    expect(rootSpan().attributes).toMatchObject({ [ATTR_REDIRECTED]: true, [ATTR_OUTCOME]: 'completed' });
    expect(rootSpan().attributes[ATTR_TOOL_EFFECTIVE_NAME]).toBe('read');
  });

  it('Redirect with newTool runs the executor from the tools map', async () => {
    const shell = vi.fn(() => 'ran on host');
    const sandbox: Executor = vi.fn((args, ctx) => `sandboxed ${String(args.cmd)} via ${ctx.toolName}`);
    const hooks = runner([{ name: 'policy', beforeTool: () => redirect({ newTool: 'sandbox_shell', reason: 'untrusted' }) }]);
    const result = await executeTool({ hooks, toolName: 'shell', args: { cmd: 'curl x' }, execute: shell, tools: { sandbox_shell: sandbox } });
    expect(result).toBe('sandboxed curl x via sandbox_shell');
    expect(shell).not.toHaveBeenCalled();
    const root = rootSpan();
    expect(root.attributes[ATTR_TOOL_EFFECTIVE_NAME]).toBe('sandbox_shell');
    const execute = tracing.spansNamed(SPAN_EXECUTE)[0]!;
    expect(execute.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('sandbox_shell');
  });

  it('an unknown newTool is an invalid_redirect_target hook error and the original call proceeds', async () => {
    const execute = vi.fn(() => 'original');
    const hooks = runner([{ name: 'lost', beforeTool: () => redirect({ newTool: 'nope' }) }]);
    expect(await executeTool({ hooks, toolName: 'shell', args: {}, execute })).toBe('original');
    const before = tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!;
    expect(eventsOf(before, EVENT_HOOK_ERROR)[0]?.attributes[ATTR_HOOK_ERROR_KIND]).toBe('invalid_redirect_target');
    expect(rootSpan().attributes[ATTR_REDIRECTED]).toBe(false);
  });

  it('Abort raises HookAbortError and never runs the executor', async () => {
    const execute = vi.fn();
    const hooks = runner([{ name: 'gate', beforeTool: () => abort('rm -rf is not allowed') }]);
    const error = await executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm -rf /' }, execute }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookAbortError);
    expect(execute).not.toHaveBeenCalled();
    const root = rootSpan();
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'aborted', [ATTR_ERROR_TYPE]: 'HookAbortError' });
    expect(root.status).toEqual({ code: SpanStatusCode.ERROR, message: 'rm -rf is not allowed' });
  });
});

describe('executeTool: failures and on_error decisions', () => {
  const flaky = () => {
    let calls = 0;
    return vi.fn((args: Record<string, unknown>, _ctx?: unknown) => {
      calls += 1;
      if (calls === 1) throw new Error('ECONNRESET');
      return `ok with ${JSON.stringify(args)}`;
    });
  };

  it('Continue rethrows the original error object and marks the call failed', async () => {
    const boom = new RangeError('bad range');
    const hooks = runner([{ name: 'watch', onError: () => undefined }]);
    const error = await executeTool({ hooks, toolName: 't', args: {}, execute: () => Promise.reject(boom) }).catch((e: unknown) => e);
    expect(error).toBe(boom);
    const root = rootSpan();
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'RangeError' });
    expect(root.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad range' });
    expect(childrenOf(root)).toEqual([SPAN_EXECUTE, SPAN_ON_ERROR]);
    const executeSpan = tracing.spansNamed(SPAN_EXECUTE)[0]!;
    expect(executeSpan.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('records error.type _OTHER for a thrown non-Error', async () => {
    const hooks = runner([]);
    await expect(executeTool({ hooks, toolName: 't', args: {}, execute: () => Promise.reject('nope') })).rejects.toBe('nope');
    expect(rootSpan().attributes[ATTR_ERROR_TYPE]).toBe('_OTHER');
  });

  it('Redirect retries with the redirected args, at most maxRetries times', async () => {
    const execute = flaky();
    const hooks = runner([{ name: 'retry', onError: () => redirect({ newArgs: { timeout: 30 } }) }]);
    const result = await executeTool({ hooks, toolName: 'fetch', args: { url: 'u' }, execute });
    expect(result).toBe('ok with {"url":"u","timeout":30}');
    expect(execute).toHaveBeenCalledTimes(2);
    expect(execute.mock.calls[1]![1]).toEqual({ toolName: 'fetch', attempt: 2 });
    const root = rootSpan();
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'recovered', [ATTR_RETRIES]: 1 });
    expect(tracing.spansNamed(SPAN_EXECUTE).map((s) => s.attributes[ATTR_ATTEMPT])).toEqual([1, 2]);
  });

  it('stops retrying after maxRetries and rethrows the last error', async () => {
    let n = 0;
    const execute = vi.fn(() => {
      n += 1;
      throw new Error(`fail ${n}`);
    });
    const hooks = runner([{ name: 'retry', onError: () => redirect({ newArgs: { n: 1 } }) }]);
    await expect(executeTool({ hooks, toolName: 't', args: {}, execute, maxRetries: 2 })).rejects.toThrow('fail 3');
    expect(execute).toHaveBeenCalledTimes(3);
    expect(rootSpan().attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_RETRIES]: 2 });
  });

  it('Skip recovers with the stub', async () => {
    const hooks = runner([{ name: 'fallback', onError: () => skip('use cached', 'cached value') }]);
    expect(await executeTool({ hooks, toolName: 't', args: {}, execute: () => { throw new Error('down'); } })).toBe('cached value');
    expect(rootSpan().attributes[ATTR_OUTCOME]).toBe('recovered');
  });

  it('Abort raises HookAbortError whose cause is the tool error', async () => {
    const toolError = new Error('quota exceeded');
    const hooks = runner([{ name: 'breaker', onError: () => abort('circuit open') }]);
    const error = (await executeTool({ hooks, toolName: 't', args: {}, execute: () => { throw toolError; } }).catch((e: unknown) => e)) as HookAbortError;
    expect(error).toBeInstanceOf(HookAbortError);
    expect(error.reason).toBe('circuit open');
    expect(error.sourceHook).toBe('breaker');
    expect(error.cause).toBe(toolError);
    expect(rootSpan().attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('a HookAbortError thrown by the tool passes through untouched, without onError', async () => {
    const inner = new HookAbortError('nested abort', 'inner-hook');
    const onError = vi.fn();
    const hooks = runner([{ name: 'watch', onError }]);
    const error = await executeTool({ hooks, toolName: 't', args: {}, execute: () => { throw inner; } }).catch((e: unknown) => e);
    expect(error).toBe(inner);
    expect(onError).not.toHaveBeenCalled();
    expect(rootSpan().attributes[ATTR_OUTCOME]).toBe('aborted');
  });
});

describe('executeTool: after_tool decisions', () => {
  it('Redirect re-executes with merged args, at most maxReexecutions times', async () => {
    const execute = vi.fn((args: Record<string, unknown>) => `page ${String(args.page)}`);
    const afterTool = vi.fn((_t: string, args: Record<string, unknown>): HookDecision | undefined =>
      redirect({ newArgs: { page: Number(args.page) + 1 } }),
    );
    const hooks = runner([{ name: 'pager', afterTool }]);
    const result = await executeTool({ hooks, toolName: 'list', args: { page: 1 }, execute, maxReexecutions: 2 });
    expect(result).toBe('page 3');
    expect(execute).toHaveBeenCalledTimes(3);
    expect(afterTool).toHaveBeenCalledTimes(3); // the last decision is recorded and ignored
    const root = rootSpan();
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_REEXECUTIONS]: 2, [ATTR_REDIRECTED]: true });
    expect(childrenOf(root)).toEqual([SPAN_EXECUTE, SPAN_AFTER_TOOL, SPAN_EXECUTE, SPAN_AFTER_TOOL, SPAN_EXECUTE, SPAN_AFTER_TOOL]);
  });

  it('Redirect with newTool re-executes another tool', async () => {
    const hooks = runner([{ name: 'verify', afterTool: (tool) => (tool === 'fast' ? redirect({ newTool: 'accurate' }) : undefined) }]);
    const result = await executeTool({ hooks, toolName: 'fast', args: {}, execute: () => 'rough', tools: { accurate: () => 'precise' } });
    expect(result).toBe('precise');
    expect(rootSpan().attributes[ATTR_TOOL_EFFECTIVE_NAME]).toBe('accurate');
  });

  it('passes the tool duration to afterTool', async () => {
    let duration = -1;
    const hooks = runner([{ name: 'timer', afterTool: (_t, _a, _r, _s, d) => void (duration = d) }]);
    await executeTool({ hooks, toolName: 't', args: {}, execute: () => new Promise((ok) => setTimeout(() => ok(1), 20)) });
    expect(duration).toBeGreaterThanOrEqual(15);
  });
});

describe('executeTool: span tree', () => {
  it('records gen_ai.tool.call.id when a callId is given, and nests the tool spans under toolhooks.execute', async () => {
    const hooks = runner([{ name: 'noop', beforeTool: () => undefined }]);
    await executeTool({
      hooks,
      toolName: 'search',
      args: {},
      callId: 'call_42',
      execute: async () => {
        await new Promise((ok) => setTimeout(ok, 1));
        tracing.tracer.startSpan('http GET').end();
        return 1;
      },
    });
    const root = rootSpan();
    expect(root.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('call_42');
    const executeSpan = tracing.spansNamed(SPAN_EXECUTE)[0]!;
    const http = tracing.spansNamed('http GET')[0]!;
    expect(executeSpan.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
    expect(http.parentSpanContext?.spanId).toBe(executeSpan.spanContext().spanId);
  });

  it('keeps 200 concurrent calls with random delays in separate, complete trees', async () => {
    const delay = () => new Promise((ok) => setTimeout(ok, Math.floor(Math.random() * 10)));
    const hooks = runner([
      { name: 'slow-before', beforeTool: async () => { await delay(); } },
      { name: 'slow-after', afterTool: async () => { await delay(); } },
    ]);
    const calls = Array.from({ length: 200 }, (_, i) =>
      executeTool({
        hooks,
        toolName: `tool_${i}`,
        args: { i },
        execute: async (args) => {
          await delay();
          tracing.tracer.startSpan(`inner_${String(args.i)}`).end();
          return args.i;
        },
      }),
    );
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    const spans = tracing.spans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    for (let i = 0; i < 200; i += 1) {
      const root = spans.find((s) => s.name === `execute_tool tool_${i}`)!;
      const traceId = root.spanContext().traceId;
      const tree = spans.filter((s) => s.spanContext().traceId === traceId);
      expect(tree.map((s) => s.name).sort()).toEqual(
        [`execute_tool tool_${i}`, SPAN_AFTER_TOOL, SPAN_BEFORE_TOOL, SPAN_EXECUTE, `inner_${i}`].sort(),
      );
      for (const span of tree) {
        if (span === root) continue;
        const parent = byId.get(span.parentSpanContext!.spanId)!;
        expect(parent.spanContext().traceId).toBe(traceId);
        expect(span.attributes[ATTR_GEN_AI_TOOL_NAME] ?? `tool_${i}`).toBe(`tool_${i}`);
      }
      const inner = tree.find((s) => s.name === `inner_${i}`)!;
      expect(byId.get(inner.parentSpanContext!.spanId)!.name).toBe(SPAN_EXECUTE);
    }
  });
});

describe('executeTool: observers', () => {
  it('delivers one tool event per call, with outcome, counts and error type', async () => {
    const events: ToolHookEvent[] = [];
    const hooks = runner([
      { name: 'gate', beforeTool: (tool) => (tool === 'danger' ? abort('no') : undefined) },
      { name: 'obs', onEvent: (e) => void events.push(e) },
    ]);
    await executeTool({ hooks, toolName: 'safe', args: {}, execute: () => 1, callId: 'c1' });
    await executeTool({ hooks, toolName: 'danger', args: {}, execute: () => 1 }).catch(() => undefined);
    const toolEvents = events.filter((e): e is ToolEvent => e.type === 'tool');
    expect(toolEvents).toHaveLength(2);
    expect(toolEvents[0]).toMatchObject({ toolName: 'safe', effectiveToolName: 'safe', outcome: 'completed', retries: 0, reexecutions: 0, callId: 'c1' });
    expect(toolEvents[0]!.errorType).toBeUndefined();
    expect(toolEvents[1]).toMatchObject({ toolName: 'danger', outcome: 'aborted', errorType: 'HookAbortError', reason: 'no' });
    expect(toolEvents[1]!.durationMs).toBeGreaterThanOrEqual(0);
  });
});

describe('executeTool: bad input', () => {
  const hooks = new HookRunner([]);
  const cases: [string, () => Promise<unknown>, RegExp][] = [
    ['empty tool name', () => executeTool({ hooks, toolName: '', args: {}, execute: () => 1 }), /executeTool: toolName must be a non-empty string/],
    ['args not an object', () => executeTool({ hooks, toolName: 't', args: 'x' as unknown as Record<string, unknown>, execute: () => 1 }), /executeTool: args must be a plain object/],
    ['args an array', () => executeTool({ hooks, toolName: 't', args: [] as unknown as Record<string, unknown>, execute: () => 1 }), /args must be a plain object/],
    ['executor not a function', () => executeTool({ hooks, toolName: 't', args: {}, execute: 'run' as unknown as Executor }), /executeTool: execute must be a function/],
    ['negative maxRetries', () => executeTool({ hooks, toolName: 't', args: {}, execute: () => 1, maxRetries: -1 }), /executeTool: maxRetries must be an integer >= 0/],
    ['fractional maxReexecutions', () => executeTool({ hooks, toolName: 't', args: {}, execute: () => 1, maxReexecutions: 1.5 }), /executeTool: maxReexecutions must be an integer >= 0/],
    ['hooks not a runner', () => executeTool({ hooks: {} as HookRunner, toolName: 't', args: {}, execute: () => 1 }), /executeTool: hooks must be a HookRunner/],
    ['a tools entry that is not a function', () => executeTool({ hooks, toolName: 't', args: {}, execute: () => 1, tools: { x: 1 as unknown as Executor } }), /tools\["x"\] must be a function/],
  ];
  for (const [name, call, message] of cases) {
    it(`rejects ${name} before any hook runs`, async () => {
      await expect(call()).rejects.toThrow(message);
    });
  }

  it('raises RangeError for counts and TypeError for the rest', async () => {
    await expect(executeTool({ hooks, toolName: 't', args: {}, execute: () => 1, maxRetries: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(executeTool({ hooks, toolName: '', args: {}, execute: () => 1 })).rejects.toBeInstanceOf(TypeError);
  });

  it('does not run hooks when the input is bad', async () => {
    const beforeTool = vi.fn();
    const guarded = new HookRunner([{ name: 'h', beforeTool }]);
    await executeTool({ hooks: guarded, toolName: 't', args: {}, execute: 1 as unknown as Executor }).catch(() => undefined);
    expect(beforeTool).not.toHaveBeenCalled();
  });

  it('reads each option once: a getter cannot pass its check with one value and run with another', async () => {
    const reads: Record<string, number> = {};
    const values: Record<string, unknown[]> = {
      toolName: ['search', ''],
      args: [{ q: 'checked' }, 'not arguments'],
      execute: [(args: Record<string, unknown>) => args.q, 'not a function'],
    };
    const options = { hooks } as Record<string, unknown>;
    for (const [key, answers] of Object.entries(values)) {
      Object.defineProperty(options, key, {
        enumerable: true,
        get: () => answers[Math.min((reads[key] = (reads[key] ?? 0) + 1) - 1, answers.length - 1)],
      });
    }
    await expect(executeTool(options as never)).resolves.toBe('checked');
    expect(reads).toEqual({ toolName: 1, args: 1, execute: 1 });
  });

  it('accepts every documented option and names an unknown one, with the nearest known name when one is near', async () => {
    const all = {
      hooks,
      toolName: 't',
      args: {},
      state: undefined,
      execute: () => 'ran',
      tools: {},
      callId: 'c',
      toolDescription: 'd',
      agentName: 'a',
      maxReexecutions: 1,
      maxRetries: 1,
      signal: new AbortController().signal,
    };
    await expect(executeTool(all)).resolves.toBe('ran');
    await expect(executeTool({ ...all, toolname: 't' } as never)).rejects.toThrow('executeTool: unknown option "toolname"; did you mean "toolName"?');
    await expect(executeTool({ ...all, maxRetry: 1 } as never)).rejects.toThrow(/executeTool: unknown option "maxRetry"; the options are hooks, toolName, .*, maxRetries, signal$/);
  });

  it('keeps __proto__ keys of newArgs as data without polluting prototypes', async () => {
    const hostile = JSON.parse('{"__proto__": {"isAdmin": true}, "q": "x"}') as Record<string, unknown>;
    const hooks2 = runner([{ name: 'r', beforeTool: () => redirect({ newArgs: hostile }) }]);
    const received = (await executeTool({ hooks: hooks2, toolName: 't', args: { a: 1 }, execute: (args) => args })) as Record<string, unknown>;
    expect(Object.getPrototypeOf(received)).toBe(Object.prototype);
    expect(received.isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(Object.keys(received)).toEqual(['a', '__proto__', 'q']);
  });
});
