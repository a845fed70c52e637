import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import type { HookContext, HookDecision, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { CONTINUE, HookAbortError, HookRunner, abort, redirect, skip } from '../../../src/index.js';
import {
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_DECISIONS_SHADOWED,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_TYPE,
  ATTR_FAILURE_MODE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_INDEX,
  ATTR_HOOK_NAME,
  ATTR_HOOKS_INVOKED,
  ATTR_PHASE,
  ATTR_REDIRECT_ARG_KEYS,
  ATTR_REDIRECT_NEW_TOOL,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_ON_ERROR,
} from '../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';
import { useDiagRecorder } from '../../support/diag.js';
import { before } from '../../support/hooks.js';

const tracing = useTestTracing();
useDiagRecorder(); // what the runner reports through diag is kept, not printed

const runner = tracing.runner;

const onlySpan = (name: string) => tracing.onlySpan(name);

describe('HookRunner improvements over Orqest', () => {
  it('honours sync hooks (Orqest drops sync decisions)', async () => {
    const r = runner([{ name: 'sync', beforeTool: () => skip('sync!') }]);
    expect(await r.runBefore('t', {}, undefined)).toEqual(skip('sync!'));
  });

  it('honours async hooks', async () => {
    const r = runner([{ name: 'async', beforeTool: async () => redirect({ newTool: 'other' }) }]);
    expect(await r.runBefore('t', {}, undefined)).toEqual(redirect({ newTool: 'other' }));
  });

  it('times out a hook that never settles, aborts its signal, and goes on', async () => {
    let seen: AbortSignal | undefined;
    const r = runner([
      {
        name: 'stuck',
        beforeTool: (_t, _a, _s, ctx) => {
          seen = ctx.signal;
          return new Promise<void>(() => undefined);
        },
      },
    ], { timeoutMs: 20 });
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
    expect(seen?.aborted).toBe(true);
    const [error] = eventsOf(onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_ERROR);
    expect(error?.attributes).toMatchObject({
      [ATTR_HOOK_ERROR_KIND]: 'timeout',
      [ATTR_EXCEPTION_TYPE]: 'HookTimeoutError',
      [ATTR_EXCEPTION_MESSAGE]: 'timed out after 20 ms',
    });
  });

  it('a hook timeoutMs overrides the runner timeout', async () => {
    const r = runner(
      [{ name: 'slow', timeoutMs: 10, beforeTool: () => new Promise<HookDecision>((ok) => setTimeout(() => ok(abort('late')), 200)) }],
      { timeoutMs: 60_000 },
    );
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
  });

  it('timeoutMs 0 means no timeout', async () => {
    const r = runner([{ name: 'slowish', beforeTool: () => new Promise<HookDecision>((ok) => setTimeout(() => ok(skip('done')), 30)) }], {
      timeoutMs: 0,
    });
    expect(await r.runBefore('t', {}, undefined)).toEqual(skip('done'));
  });

  it('fail-closed turns a crash into HookAbortError with the cause', async () => {
    const boom = new Error('policy service down');
    const later = vi.fn();
    const r = runner([
      { name: 'gate', failureMode: 'closed', beforeTool: async () => Promise.reject(boom) },
      before('later', later),
    ]);
    const error = (await r.runBefore('t', {}, undefined).catch((e: unknown) => e)) as HookAbortError;
    expect(error).toBeInstanceOf(HookAbortError);
    expect(error.reason).toBe('hook gate failed: policy service down');
    expect(error.sourceHook).toBe('gate');
    expect(error.cause).toBe(boom);
    expect(later).not.toHaveBeenCalled();
    const span = onlySpan(SPAN_BEFORE_TOOL);
    expect(span.attributes[ATTR_DECISION]).toBe('abort');
    expect(eventsOf(span, EVENT_HOOK_ERROR)[0]?.attributes[ATTR_FAILURE_MODE]).toBe('closed');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('runner-wide fail-closed turns a timeout into an Abort', async () => {
    const r = runner([before('stuck', () => new Promise<void>(() => undefined))], { timeoutMs: 10, failureMode: 'closed' });
    await expect(r.runBefore('t', {}, undefined)).rejects.toMatchObject({
      reason: 'hook stuck failed: timed out after 10 ms',
    });
  });

  it('a hook failureMode open overrides a closed runner', async () => {
    const r = runner(
      [{ name: 'lenient', failureMode: 'open', beforeTool: () => Promise.reject(new Error('x')) }],
      { failureMode: 'closed' },
    );
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
  });

  it('records thrown non-Error values with typeof and string form', async () => {
    const r = runner([
      before('str', () => {
        throw 'plain string';
      }),
      before('num', () => Promise.reject(42)),
      before('undef', () => Promise.reject(undefined)),
    ]);
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
    const errors = eventsOf(onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_ERROR).map((e) => [
      e.attributes[ATTR_EXCEPTION_TYPE],
      e.attributes[ATTR_EXCEPTION_MESSAGE],
    ]);
    expect(errors).toEqual([
      ['string', 'plain string'],
      ['number', '42'],
      ['undefined', 'undefined'],
    ]);
  });

  it('applies tools matchers: array, RegExp (even global) and predicate', async () => {
    const seen: string[] = [];
    const hook = (name: string, tools: NonNullable<ToolHook['tools']>): ToolHook => ({
      name,
      tools,
      beforeTool: (tool) => void seen.push(`${name}:${tool}`),
    });
    const r = runner([
      hook('list', ['read_file']),
      hook('regex', /^mcp__fs__/g),
      hook('pred', (tool) => tool.endsWith('_file')),
    ]);
    for (const tool of ['read_file', 'mcp__fs__read', 'mcp__fs__write', 'shell']) await r.runBefore(tool, {}, undefined);
    expect(seen).toEqual(['list:read_file', 'pred:read_file', 'regex:mcp__fs__read', 'regex:mcp__fs__write']);
  });

  it('treats a matcher that throws as a failing hook (so a fail-closed gate aborts)', async () => {
    const r = runner([
      {
        name: 'gate',
        failureMode: 'closed',
        tools: () => {
          throw new Error('bad matcher');
        },
        beforeTool: () => undefined,
      },
    ]);
    await expect(r.runBefore('t', {}, undefined)).rejects.toMatchObject({ reason: 'hook gate failed: bad matcher' });
  });

  it('rejects a Redirect to a tool the caller does not know, so a later decision can win', async () => {
    const r = runner([before('bad', () => redirect({ newTool: 'nowhere' })), before('good', () => redirect({ newTool: 'sandbox' }))]);
    const decision = await r.runBefore('shell', {}, undefined, { knownTools: ['shell', 'sandbox'] });
    expect(decision).toEqual(redirect({ newTool: 'sandbox' }));
    const span = onlySpan(SPAN_BEFORE_TOOL);
    const [error] = eventsOf(span, EVENT_HOOK_ERROR);
    expect(error?.attributes[ATTR_HOOK_ERROR_KIND]).toBe('invalid_redirect_target');
    expect(error?.attributes[ATTR_EXCEPTION_MESSAGE]).toBe('redirect to unknown tool "nowhere"');
    expect(span.attributes[ATTR_DECISION_HOOK]).toBe('good');
  });

  it('passes a HookContext with phase, attempt, callId and a signal', async () => {
    let ctx: HookContext | undefined;
    const r = runner([{ name: 'c', onError: (_t, _a, _e, _s, c) => void (ctx = c) }]);
    await r.runError('t', {}, new Error('x'), undefined, { attempt: 2, callId: 'call_9' });
    expect(ctx?.phase).toBe('on_error');
    expect(ctx?.attempt).toBe(2);
    expect(ctx?.callId).toBe('call_9');
    expect(ctx?.signal).toBeInstanceOf(AbortSignal);
    expect(ctx?.signal.aborted).toBe(false);
  });

  it("aborts hooks' signals when the caller's signal aborts", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const r = runner([{ name: 's', beforeTool: (_t, _a, _s, c) => void (signal = c.signal) }]);
    await r.runBefore('t', {}, undefined, { signal: controller.signal });
    controller.abort();
    expect(signal?.aborted).toBe(true);
  });

  it('calls hook methods with the hook as this', async () => {
    class Counter implements ToolHook {
      calls = 0;
      beforeTool(): void {
        this.calls += 1;
      }
    }
    const counter = new Counter();
    await runner([counter]).runBefore('t', {}, undefined);
    expect(counter.calls).toBe(1);
  });

  it('never mutates the args or state it is given', async () => {
    const args = Object.freeze({ q: 'x', nested: Object.freeze({ a: 1 }) });
    const state = Object.freeze({ step: 1 });
    const r = runner([before('a', () => redirect({ newArgs: { q: 'y' } })), before('b', () => skip('s'))]);
    await expect(r.runBefore('t', args, state)).resolves.toMatchObject({ kind: 'redirect' });
    await expect(r.runAfter('t', args, 'res', state, 1)).resolves.toBe(CONTINUE);
  });
});

describe('HookRunner telemetry', () => {
  it('records one phase span with the contract attributes and one decision event per invoked hook', async () => {
    const r = runner([
      before('first', () => CONTINUE),
      before('router', () => redirect({ newArgs: { path: '/tmp', mode: 'r' }, newTool: 'sandbox', reason: 'untrusted' })),
      before('cache', () => skip('hit', 'stub')),
    ]);
    await r.runBefore('read_file', { path: '/etc/passwd' }, undefined);
    const span = onlySpan(SPAN_BEFORE_TOOL);
    expect(span.attributes).toEqual({
      [ATTR_GEN_AI_TOOL_NAME]: 'read_file',
      [ATTR_PHASE]: 'before_tool',
      [ATTR_DECISION]: 'redirect',
      [ATTR_DECISION_HOOK]: 'router',
      [ATTR_HOOKS_INVOKED]: 3,
      [ATTR_DECISIONS_SHADOWED]: 1,
      [ATTR_HOOK_ERRORS]: 0,
    });
    const decisions = eventsOf(span, EVENT_HOOK_DECISION);
    expect(decisions.map((d) => d.attributes[ATTR_HOOK_NAME])).toEqual(['first', 'router', 'cache']);
    expect(decisions.map((d) => d.attributes[ATTR_HOOK_INDEX])).toEqual([0, 1, 2]);
    const routed = decisions[1]!.attributes;
    expect(routed).toMatchObject({
      [ATTR_DECISION]: 'redirect',
      [ATTR_DECISION_REASON]: 'untrusted',
      [ATTR_REDIRECT_NEW_TOOL]: 'sandbox',
      [ATTR_REDIRECT_ARG_KEYS]: ['path', 'mode'],
    });
    expect(typeof routed[ATTR_HOOK_DURATION_MS]).toBe('number');
    expect(decisions[0]!.attributes[ATTR_DECISION_REASON]).toBeUndefined();
    expect(eventsOf(span, EVENT_HOOK_DECISION_SHADOWED)).toEqual([
      {
        name: EVENT_HOOK_DECISION_SHADOWED,
        attributes: {
          [ATTR_HOOK_NAME]: 'cache',
          [ATTR_DECISION]: 'skip',
          [ATTR_DECISION_REASON]: 'hit',
          [ATTR_DECISION_WINNER]: 'router',
        },
      },
    ]);
  });

  it('never records argument values by default', async () => {
    const r = runner([before('router', () => redirect({ newArgs: { password: 'hunter2', q: 'secret-query' } }))]);
    await r.runBefore('t', { token: 'abc123' }, undefined);
    const serialized = JSON.stringify(tracing.spans().map((s) => [s.attributes, s.events]));
    expect(serialized).not.toContain('hunter2');
    expect(serialized).not.toContain('secret-query');
    expect(serialized).not.toContain('abc123');
  });

  it('records no span for a phase in which no hook is invoked', async () => {
    const r = runner([{ name: 'x', tools: ['other'], beforeTool: () => abort('x') }]);
    await r.runBefore('t', {}, undefined);
    await r.runAfter('t', {}, 1, undefined, 1);
    await r.runError('t', {}, new Error(), undefined);
    expect(tracing.spans()).toHaveLength(0);
  });

  it('names the spans of each phase', async () => {
    const hook: ToolHook = { name: 'all', beforeTool: () => undefined, afterTool: () => undefined, onError: () => undefined };
    const r = runner([hook]);
    await r.runBefore('t', {}, undefined);
    await r.runAfter('t', {}, 1, undefined, 1);
    await r.runError('t', {}, new Error(), undefined);
    expect(tracing.spans().map((s) => [s.name, s.attributes[ATTR_PHASE]])).toEqual([
      [SPAN_BEFORE_TOOL, 'before_tool'],
      [SPAN_AFTER_TOOL, 'after_tool'],
      [SPAN_ON_ERROR, 'on_error'],
    ]);
  });

  it('makes the phase span a child of the active span, and the parent of spans hooks create', async () => {
    const r = runner([
      {
        name: 'tracing-hook',
        beforeTool: async () => {
          await new Promise((ok) => setTimeout(ok, 1));
          tracing.tracer.startSpan('inside-hook').end();
        },
      },
    ]);
    const parent = tracing.tracer.startSpan('agent-step');
    await context.with(trace.setSpan(context.active(), parent), () => r.runBefore('t', {}, undefined));
    parent.end();
    const phase = onlySpan(SPAN_BEFORE_TOOL);
    const inner = onlySpan('inside-hook');
    expect(phase.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(inner.parentSpanContext?.spanId).toBe(phase.spanContext().spanId);
  });

  it('uses the global tracer when none is given, and registers nothing globally', async () => {
    const before = trace.getTracerProvider();
    const r = new HookRunner([{ name: 'x', beforeTool: () => skip('y') }]);
    expect(await r.runBefore('t', {}, undefined)).toEqual(skip('y'));
    expect(trace.getTracerProvider()).toBe(before);
    expect(tracing.spans()).toHaveLength(0); // the test provider is not global
  });

  it('survives a tracer that throws everywhere', async () => {
    const throwing = {
      startSpan: () => {
        throw new Error('tracer broken');
      },
      startActiveSpan: () => {
        throw new Error('tracer broken');
      },
    };
    const r = new HookRunner({ hooks: [before('g', () => abort('stop')), before('h', () => skip('x'))], tracer: throwing });
    await expect(r.runBefore('t', {}, undefined)).rejects.toBeInstanceOf(HookAbortError);
    const r2 = new HookRunner({ hooks: [before('h', () => skip('x'))], tracer: throwing });
    expect(await r2.runBefore('t', {}, undefined)).toEqual(skip('x'));
  });

  it('survives spans whose methods throw', async () => {
    const brokenSpan = new Proxy(
      {},
      {
        get: (_target, prop) => {
          if (prop === 'isRecording') return () => true;
          return () => {
            throw new Error(`span.${String(prop)} broken`);
          };
        },
      },
    );
    const tracer = { startSpan: () => brokenSpan, startActiveSpan: () => undefined } as unknown as ConstructorParameters<
      typeof HookRunner
    >[0] extends infer O
      ? O extends { tracer?: infer T }
        ? T
        : never
      : never;
    const r = new HookRunner({ hooks: [before('h', () => skip('x')), before('i', () => skip('y'))], tracer });
    expect(await r.runBefore('t', {}, undefined)).toEqual(skip('x'));
  });
});

describe('HookRunner observers (onEvent)', () => {
  it('delivers every phase outcome to every observer, whatever its place in the chain', async () => {
    const events: ToolHookEvent[] = [];
    const observer: ToolHook = { name: 'observer', onEvent: (e) => void events.push(e) };
    const r = runner([
      before('crashy', () => {
        throw new TypeError('bad');
      }),
      before('gate', () => abort('denied')),
      observer,
    ]);
    await r.runBefore('shell', {}, undefined, { callId: 'c1' }).catch(() => undefined);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({
      type: 'phase',
      phase: 'before_tool',
      toolName: 'shell',
      decision: 'abort',
      winner: 'gate',
      callId: 'c1',
      hooks: [
        { hook: 'crashy', decision: 'error' },
        { hook: 'gate', decision: 'abort', reason: 'denied' },
      ],
      shadowed: [],
    });
    expect(event.type === 'phase' && event.errors[0]?.kind).toBe('threw');
    expect(event.type === 'phase' && event.errors[0]?.error).toBeInstanceOf(TypeError);
  });

  it('swallows an observer that throws and records it on the phase span', async () => {
    const seen: string[] = [];
    const r = runner([
      before('cache', () => skip('hit')),
      {
        name: 'bad-observer',
        onEvent: () => {
          throw new Error('observer broke');
        },
      },
      { name: 'good-observer', onEvent: (e) => void seen.push(e.type) },
    ]);
    expect(await r.runBefore('t', {}, undefined)).toEqual(skip('hit'));
    expect(seen).toEqual(['phase']);
    const errors = eventsOf(onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_ERROR);
    expect(errors[0]?.attributes).toMatchObject({ [ATTR_HOOK_NAME]: 'bad-observer', [ATTR_HOOK_ERROR_KIND]: 'threw' });
  });

  it('calls observers inside the phase span context', async () => {
    let active: string | undefined;
    const r = runner([before('a', () => undefined), { name: 'obs', onEvent: () => void (active = trace.getActiveSpan()?.spanContext().spanId) }]);
    await r.runBefore('t', {}, undefined);
    expect(active).toBe(onlySpan(SPAN_BEFORE_TOOL).spanContext().spanId);
  });
});

describe('HookRunner misuse', () => {
  it('rejects a constructor argument that is neither hooks nor options', () => {
    expect(() => new HookRunner('x' as unknown as ToolHook[])).toThrow(/HookRunner takes an array of hooks or an options object/);
  });

  it('rejects a non-function hook method, naming hook and method', () => {
    expect(() => new HookRunner([{ name: 'h', beforeTool: 'nope' } as unknown as ToolHook])).toThrow(
      /hook "h" \(index 0\): beforeTool must be a function, got string/,
    );
  });

  it('rejects a negative or non-finite timeout', () => {
    expect(() => new HookRunner({ timeoutMs: -1 })).toThrow(RangeError);
    expect(() => new HookRunner({ timeoutMs: Number.NaN })).toThrow(/timeoutMs must be a number of milliseconds from 0/);
    expect(() => new HookRunner([{ timeoutMs: -5, beforeTool: () => undefined } as ToolHook])).toThrow(/hook "hook#0" \(index 0\): timeoutMs/);
  });

  it('rejects an unknown failure mode and a bad matcher', () => {
    expect(() => new HookRunner({ failureMode: 'maybe' as 'open' })).toThrow(/failureMode must be 'open' or 'closed'/);
    expect(() => new HookRunner([{ tools: 'shell' as unknown as string[], beforeTool: () => undefined }])).toThrow(/tools must be an array of names, a RegExp or a predicate/);
  });

  it('rejects a tool name that is not a non-empty string, and args that are not an object', async () => {
    const r = runner([before('a', () => undefined)]);
    await expect(r.runBefore('', {}, undefined)).rejects.toThrow(/runBefore: toolName must be a non-empty string, got an empty string/);
    await expect(r.runAfter(7 as unknown as string, {}, 1, undefined, 1)).rejects.toThrow(/runAfter: toolName .* got number/);
    await expect(r.runError('t', [] as unknown as Record<string, unknown>, 1, undefined)).rejects.toThrow(
      /runError: args must be a plain object/,
    );
  });

  it('names hooks by name, else constructor name, else hook#index', async () => {
    class PolicyHook implements ToolHook {
      beforeTool(): HookDecision {
        return skip('x');
      }
    }
    const r = runner([{ beforeTool: () => undefined }, new PolicyHook()]);
    await r.runBefore('t', {}, undefined);
    const names = eventsOf(onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_DECISION).map((e) => e.attributes[ATTR_HOOK_NAME]);
    expect(names).toEqual(['hook#0', 'PolicyHook']);
  });

  it('exposes the hooks as a frozen copy', () => {
    const hooks: ToolHook[] = [{ name: 'a', onEvent: () => undefined }];
    const r = new HookRunner(hooks);
    hooks.push({ name: 'b', onEvent: () => undefined });
    expect(r.hooks).toHaveLength(1);
    expect(Object.isFrozen(r.hooks)).toBe(true);
  });
});
