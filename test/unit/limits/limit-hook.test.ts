import { afterEach, describe, expect, it } from 'vitest';
import { HookAbortError, executeTool } from '../../../src/index.js';
import type { ToolArgs } from '../../../src/index.js';
import { limitHook, memoryLimitStore } from '../../../src/limits/index.js';
import type { LimitStore } from '../../../src/limits/index.js';
import { windowText } from '../../../src/limits/limit-hook.js';
import { MemoryStore } from '../../../src/limits/memory-store.js';
import { replayCopyOf } from '../../../src/internal/replay-copy.js';
import {
  ATTR_DECISION,
  ATTR_DECISION_REASON,
  ATTR_HOOK_NAME,
  ATTR_LIMIT_LIMIT,
  ATTR_LIMIT_USED,
  ATTR_LIMIT_WINDOW_MS,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_ERROR,
} from '../../../src/telemetry/semconv.js';
import { createTestTracing, eventsOf } from '../../support/tracing.js';

const tracing = createTestTracing();
afterEach(() => tracing.reset());

type Conversation = { conversationId: string };

function call(runner: ReturnType<typeof tracing.runner<Conversation>>, state: Conversation, toolName = 'send_email', result: unknown = 'sent'): Promise<unknown> {
  return executeTool({ hooks: runner, toolName, args: { to: 'a@example.com' }, state, execute: () => result });
}

function limitEvents(): Record<string, unknown>[] {
  return tracing
    .spansNamed('toolhooks.before_tool')
    .flatMap((span) => eventsOf(span, EVENT_HOOK_DECISION))
    .map((event) => event.attributes);
}

describe('limitHook: the count', () => {
  it('lets `limit` calls through per key, then aborts with the sentence naming the limit', async () => {
    const runner = tracing.runner<Conversation>([limitHook({ name: 'send_email', limit: 3, key: (_t, _a, s: Conversation) => s.conversationId })]);
    for (let i = 0; i < 3; i += 1) await expect(call(runner, { conversationId: 'c1' })).resolves.toBe('sent');
    const stopped = call(runner, { conversationId: 'c1' });
    await expect(stopped).rejects.toThrow(HookAbortError);
    await expect(stopped).rejects.toThrow('limit send_email: 3 reached');
    // another key has its own count
    await expect(call(runner, { conversationId: 'c2' })).resolves.toBe('sent');
  });

  it('counts per tool name by default and namespaces keys by hook name', async () => {
    const store = memoryLimitStore();
    const a = limitHook({ name: 'a', limit: 1, store });
    const b = limitHook({ name: 'b', limit: 1, store });
    const runner = tracing.runner<Conversation>([a, b]);
    await expect(call(runner, { conversationId: 'x' }, 'search')).resolves.toBe('sent');
    await expect(call(runner, { conversationId: 'x' }, 'browse')).resolves.toBe('sent');
    await expect(call(runner, { conversationId: 'x' }, 'search')).rejects.toThrow('limit a: 1 reached');
  });

  it('records used, limit and window_ms on its decision events, and never the key', async () => {
    const key = 'user-7f3a-secret-session';
    const runner = tracing.runner<Conversation>([limitHook({ name: 'rate', limit: 2, windowMs: 60_000, key: () => key })]);
    await call(runner, { conversationId: key });
    await call(runner, { conversationId: key });
    await expect(call(runner, { conversationId: key })).rejects.toThrow('limit rate: 2 per minute reached');
    const events = limitEvents();
    expect(events.map((e) => [e[ATTR_DECISION], e[ATTR_LIMIT_USED], e[ATTR_LIMIT_LIMIT], e[ATTR_LIMIT_WINDOW_MS]])).toEqual([
      ['continue', 1, 2, 60_000],
      ['continue', 2, 2, 60_000],
      ['abort', 2, 2, 60_000],
    ]);
    expect(JSON.stringify(tracing.spans().map((s) => [s.attributes, s.events, s.status]))).not.toContain(key);
  });

  it('leaves window_ms out for a lifetime limit', async () => {
    const runner = tracing.runner<Conversation>([limitHook({ limit: 5 })]);
    await call(runner, { conversationId: 'c' });
    expect(limitEvents()[0]).toMatchObject({ [ATTR_HOOK_NAME]: 'limit', [ATTR_LIMIT_USED]: 1, [ATTR_LIMIT_LIMIT]: 5 });
    expect(limitEvents()[0]).not.toHaveProperty(ATTR_LIMIT_WINDOW_MS);
  });

  it('slides its window: a call counts for windowMs, then no more', async () => {
    let now = 0;
    const store = new MemoryStore(100, () => now);
    const runner = tracing.runner<Conversation>([limitHook({ limit: 2, windowMs: 1000, store })]);
    await call(runner, { conversationId: 'c' });
    now = 500;
    await call(runner, { conversationId: 'c' });
    now = 999;
    await expect(call(runner, { conversationId: 'c' })).rejects.toThrow('limit limit: 2 per second reached');
    now = 1000; // the first call left the window
    await expect(call(runner, { conversationId: 'c' })).resolves.toBe('sent');
    await expect(call(runner, { conversationId: 'c' })).rejects.toThrow(HookAbortError);
  });

  it('charges cost units and stops a call whose cost would cross the limit', async () => {
    const runner = tracing.runner<Conversation>([limitHook({ name: 'spend', limit: 10, cost: (_t, args: ToolArgs) => Number(args['units']) })]);
    const spend = (units: number) => executeTool({ hooks: runner, toolName: 't', args: { units }, execute: () => 'ok' });
    await spend(6);
    await expect(spend(5)).rejects.toThrow('limit spend: 10 reached');
    await expect(spend(4)).resolves.toBe('ok');
    await expect(spend(0.5)).rejects.toThrow(HookAbortError);
  });
});

describe('limitHook: onExceeded', () => {
  it('skip: the tool does not run and the model reads the sentence as the stub', async () => {
    let ran = 0;
    const runner = tracing.runner([limitHook({ name: 'send_email', limit: 1, onExceeded: 'skip' })]);
    const run = () => executeTool({ hooks: runner, toolName: 'send_email', args: {}, execute: () => ++ran });
    await run();
    await expect(run()).resolves.toBe('limit send_email: 1 reached');
    expect(ran).toBe(1);
  });

  it('ask: a person may let the call through, and an approved call counts', async () => {
    let approve = true;
    const store = memoryLimitStore();
    const runner = tracing.runner([limitHook({ name: 'mail', limit: 1, onExceeded: 'ask', store })], {
      approver: () => (approve ? { approved: true } : { approved: false, reason: 'no' }),
    });
    const run = () => executeTool({ hooks: runner, toolName: 'send_email', args: {}, execute: () => 'sent' });
    await run();
    await expect(run()).resolves.toBe('sent'); // approved: taken
    approve = false;
    await expect(run()).resolves.toBe('Tool call denied: no'); // denied: nothing charged
    const asked = tracing.spansNamed('toolhooks.before_tool').flatMap((s) => eventsOf(s, EVENT_HOOK_DECISION)).map((e) => e.attributes);
    expect(asked.map((e) => [e[ATTR_DECISION], e[ATTR_LIMIT_USED]])).toEqual([
      ['continue', 1],
      ['ask', 1],
      ['ask', 2],
    ]);
    expect(asked[1]?.[ATTR_DECISION_REASON]).toBe('limit mail: 1 reached');
    expect(await store.take('4:mail:send_email', 0, 1, undefined)).toEqual({ allowed: false, used: 2 });
  });
});

describe('limitHook: costAfter', () => {
  it('charges what the call cost once it ran: the call that crosses runs, the next is stopped', async () => {
    const runner = tracing.runner([limitHook({ name: 'budget', limit: 5, costAfter: (_t, _a, result) => (result as { dollars: number }).dollars })]);
    const spend = (dollars: number) => executeTool({ hooks: runner, toolName: 'agent', args: {}, execute: () => ({ dollars }) });
    await spend(3);
    await expect(spend(4)).resolves.toEqual({ dollars: 4 }); // 3 < 5: runs, crosses to 7
    await expect(spend(1)).rejects.toThrow('limit budget: 5 reached');
    const after = tracing.spansNamed('toolhooks.after_tool').flatMap((s) => eventsOf(s, EVENT_HOOK_DECISION)).map((e) => e.attributes[ATTR_LIMIT_USED]);
    expect(after).toEqual([3, 7]);
  });

  it('stops the next call once the budget is exactly spent', async () => {
    const runner = tracing.runner([limitHook({ limit: 2, costAfter: () => 1 })]);
    const run = () => executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ok' });
    await run();
    await run();
    await expect(run()).rejects.toThrow(HookAbortError);
  });

  it('charges both cost and costAfter when both are given', async () => {
    const store = memoryLimitStore();
    const runner = tracing.runner([limitHook({ name: 'b', limit: 100, cost: () => 2, costAfter: () => 3, store })]);
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ok' });
    expect(await store.take('1:b:t', 0, 100, undefined)).toEqual({ allowed: true, used: 5 });
  });

  it('charges nothing after a call it skipped', async () => {
    const store = memoryLimitStore();
    const runner = tracing.runner([limitHook({ name: 'b', limit: 1, cost: () => 1, costAfter: () => 10, onExceeded: 'skip', store })]);
    const run = () => executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ok' });
    await run(); // 1 + 10 = 11
    await expect(run()).resolves.toBe('limit b: 1 reached');
    expect(await store.take('1:b:t', 0, 1, undefined)).toEqual({ allowed: false, used: 11 });
  });
});

describe('limitHook: audit mode', () => {
  it('counts nothing and records what it would have decided', async () => {
    const store = memoryLimitStore();
    const enforce = limitHook({ name: 'rate', limit: 1, store });
    const audit = limitHook({ name: 'rate', limit: 1, mode: 'audit', store });
    const runner = tracing.runner([audit, enforce]);
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ok' });
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ok' })).rejects.toThrow('limit rate: 1 reached');
    const events = limitEvents().filter((e) => e['toolhooks.hook.mode'] === 'audit');
    expect(events.map((e) => [e[ATTR_DECISION], e[ATTR_LIMIT_USED]])).toEqual([
      ['continue', 1],
      ['abort', 1],
    ]);
    expect(await store.take('4:rate:t', 0, 1, undefined)).toEqual({ allowed: false, used: 1 });
  });
});

describe('limitHook: bad input', () => {
  it.each([
    [{ limit: 0 }, 'limitHook: limit must be a finite number > 0, got 0'],
    [{ limit: -1 }, 'got -1'],
    [{ limit: Number.NaN }, 'got NaN'],
    [{ limit: '3' }, 'limit must be a finite number > 0'],
    [{ limit: 1, windowMs: -5 }, 'limitHook: windowMs must be a finite number > 0, got -5'],
    [{ limit: 1, key: 'user' }, 'limitHook: key must be a function'],
    [{ limit: 1, cost: 2 }, 'limitHook: cost must be a function'],
    [{ limit: 1, onExceeded: 'block' }, "limitHook: onExceeded must be 'abort' or 'skip' or 'ask'"],
    [{ limit: 1, store: {} }, 'limitHook: store must be a LimitStore'],
    [{ limit: 1, windwoMs: 5 }, 'did you mean "windowMs"?'],
    [{}, 'needs limit'],
    [{ limit: 1, name: '' }, 'name must be a non-empty string'],
  ])('rejects %j at construction with a TypeError', (options, message) => {
    expect(() => limitHook(options as never)).toThrow(TypeError);
    expect(() => limitHook(options as never)).toThrow(message);
  });

  it('rejects a non-object', () => {
    expect(() => limitHook(3 as never)).toThrow(TypeError);
  });

  it.each([
    ['a key that throws', { key: () => { throw new Error('no session'); } }, 'limit l: key threw: no session'],
    ['a key that returns a non-string', { key: () => 42 }, 'limit l: key must return a string, got 42'],
    ['a cost that is negative', { cost: () => -1 }, 'limit l: cost must return a finite number >= 0, got -1'],
    ['a cost that is not finite', { cost: () => Infinity }, 'got Infinity'],
    ['a cost that throws', { cost: () => { throw new Error('boom'); } }, 'limit l: cost threw: boom'],
  ])('%s is a hook error at call time: fail closed aborts naming it', async (_what, fns, message) => {
    let ran = false;
    const runner = tracing.runner([limitHook({ name: 'l', limit: 100, ...(fns as object) })]);
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => (ran = true) })).rejects.toThrow(message);
    expect(ran).toBe(false);
    const errors = tracing.spansNamed('toolhooks.before_tool').flatMap((s) => eventsOf(s, EVENT_HOOK_ERROR));
    expect(errors).toHaveLength(1);
  });

  it('fail open lets the call through when the key cannot be read', async () => {
    const runner = tracing.runner([limitHook({ limit: 1, failureMode: 'open', key: () => undefined as never })]);
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' })).resolves.toBe('ran');
  });

  it('a costAfter returning junk is a hook error after the tool ran', async () => {
    const runner = tracing.runner([limitHook({ name: 'l', limit: 5, costAfter: () => Number.NaN })]);
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' })).rejects.toThrow('limit l: costAfter must return a finite number >= 0, got NaN');
  });
});

describe('limitHook: custom stores', () => {
  const failing = (error: unknown): LimitStore => ({
    name: 'flaky',
    take: () => Promise.reject(error),
    charge: () => Promise.reject(error),
  });

  it('a store that fails is a hook error naming the store and the cause; fail closed aborts', async () => {
    const runner = tracing.runner([limitHook({ name: 'l', limit: 1, store: failing(new Error('ECONNREFUSED')) })]);
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' })).rejects.toThrow(
      'hook l failed: limit l: limit store flaky failed to take: ECONNREFUSED',
    );
  });

  it('a store that throws synchronously, or answers junk, is a hook error too', async () => {
    const throwing: LimitStore = { take: () => { throw new Error('sync'); }, charge: () => Promise.resolve(0) };
    const junk: LimitStore = { take: () => Promise.resolve({ allowed: 'yes' } as never), charge: () => Promise.resolve('x' as never) };
    const run = (store: LimitStore, extra: object = {}) =>
      executeTool({ hooks: tracing.runner([limitHook({ name: 'l', limit: 1, store, ...extra })]), toolName: 't', args: {}, execute: () => 'ran' });
    await expect(run(throwing)).rejects.toThrow('limit store store failed to take: sync');
    await expect(run(junk)).rejects.toThrow('limit store store answered take with');
    const charging: LimitStore = { name: 'c', take: () => Promise.resolve({ allowed: true, used: 0 }), charge: () => Promise.resolve('x' as never) };
    await expect(run(charging, { costAfter: () => 1 })).rejects.toThrow('limit store c answered charge with');
    const chargeFails: LimitStore = { name: 'c', take: () => Promise.resolve({ allowed: true, used: 0 }), charge: () => Promise.reject(new Error('down')) };
    await expect(run(chargeFails, { costAfter: () => 1 })).rejects.toThrow('limit store c failed to charge: down');
  });

  it('a store whose charge throws at once is a hook error naming it', async () => {
    const store: LimitStore = { name: 'c', take: () => Promise.resolve({ allowed: true, used: 0 }), charge: () => { throw new Error('sync charge'); } };
    const runner = tracing.runner([limitHook({ name: 'l', limit: 5, costAfter: () => 1, store })]);
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' })).rejects.toThrow('limit store c failed to charge: sync charge');
  });

  it('a working custom store is asked with the namespaced key and its answer decides', async () => {
    const seen: unknown[] = [];
    const store: LimitStore = {
      take: (key, cost, limit, windowMs) => {
        seen.push([key, cost, limit, windowMs]);
        return Promise.resolve({ allowed: seen.length < 2, used: seen.length });
      },
      charge: () => Promise.resolve(0),
    };
    const runner = tracing.runner([limitHook({ name: 'c', limit: 1, windowMs: 5000, key: () => 'k', store })]);
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' });
    await expect(executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' })).rejects.toThrow('limit c: 1 per 5 seconds reached');
    expect(seen[0]).toEqual(['1:c:k', 1, 1, 5000]);
  });
});

describe('limitHook: replay copy', () => {
  it('offers a copy with a fresh memory store on the given clock', async () => {
    const live = memoryLimitStore();
    const hook = limitHook({ name: 'r', limit: 1, windowMs: 1000, store: live });
    let now = 0;
    const copy = replayCopyOf(hook, () => now);
    expect(copy).toBeDefined();
    const runner = tracing.runner([copy as never]);
    const run = () => executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' });
    await run();
    await expect(run()).rejects.toThrow(HookAbortError);
    now = 1000;
    await expect(run()).resolves.toBe('ran');
    expect(live.size).toBe(0);
  });

  it('is undefined for other hooks', () => {
    expect(replayCopyOf({ beforeTool: () => undefined }, () => 0)).toBeUndefined();
    expect(replayCopyOf(null, () => 0)).toBeUndefined();
  });
});

describe('windowText', () => {
  it.each([
    [1000, 'second'],
    [60_000, 'minute'],
    [300_000, '5 minutes'],
    [3_600_000, 'hour'],
    [86_400_000, 'day'],
    [172_800_000, '2 days'],
    [1500, '1500 ms'],
    [90_000, '90 seconds'],
  ])('%d ms reads as %s', (ms, text) => {
    expect(windowText(ms)).toBe(text);
  });
});
