/**
 * Held calls (`approvals: 'framework'`): a call whose before_tool phase ran in `needsApproval` has its
 * executor's work done by the SDK's invoke that follows, and ends `failed` with a NotInvokedError when
 * none comes (the run stopped) instead of keeping its span open — at once when one of the tool's input
 * guardrails rejected it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { HandoffRequest } from '../../../../src/runner/handoff.js';
import { GuardrailRejectedError, HeldCalls, NotInvokedError, heldKey } from '../../../../src/adapters/openai-agents/held-calls.js';

const invocation = { runContext: {}, input: '{"n":1}', details: {} };
/** The key of call `id` with the invocation's arguments, as needsApproval (parsed) and invoke (a string) compute it. */
const key = (id: string): string => heldKey(invocation.runContext, id, { n: 1 }) as string;

describe('HeldCalls', () => {
  it('answers false once the executor asks for its work, and does that work in the invocation', async () => {
    const held = new HeldCalls(() => undefined, 1000);
    const goesOn = held.hold('shell', 'c1', key('c1'), async (_handoff, perform) => {
      const first = await perform(async (arrived) => `ran with ${arrived.input}`);
      const again = await perform(async () => 'ran again');
      return [first, again];
    });
    await expect(goesOn).resolves.toBe(false);
    await expect(held.take(key('c1'), invocation)).resolves.toEqual(['ran with {"n":1}', 'ran again']);
    expect(held.take(key('c1'), invocation)).toBeUndefined();
  });

  it('answers true when the hooks asked: nothing is held for an invoke', async () => {
    const asked = vi.fn();
    const held = new HeldCalls(asked, 1000);
    const pending = { id: 'c2' } as HandoffRequest;
    await expect(held.hold('shell', 'c2', key('c2'), async (handoff) => void handoff.onPending?.(pending))).resolves.toBe(true);
    expect(asked).toHaveBeenCalledWith(pending, undefined);
    expect(held.take(key('c2'), invocation)).toBeUndefined();
  });

  it('a call settled before its invocation (a Skip) returns its result to that invocation', async () => {
    const held = new HeldCalls(() => undefined, 1000);
    await expect(held.hold('shell', 'c4', key('c4'), async () => 'stub')).resolves.toBe(false);
    await expect(held.take(key('c4'), invocation)).resolves.toBe('stub');
  });

  it('a call the SDK never invokes fails with NotInvokedError after the wait and is forgotten', async () => {
    const held = new HeldCalls(() => undefined, 20);
    let flow: Promise<unknown> | undefined;
    await held.hold('shell', 'c3', key('c3'), (_handoff, perform) => (flow = perform(async () => 'never')));
    await expect(flow).rejects.toThrow(NotInvokedError);
    await expect(flow).rejects.toThrow(/did not invoke "shell" for call c3 within 20 ms/);
    expect(held.take(key('c3'), invocation)).toBeUndefined();
  });

  it('a call released (its input guardrail rejected it) fails at once with that error, also for work asked later, and is forgotten', async () => {
    const held = new HeldCalls(() => undefined, 60_000);
    let first: Promise<unknown> | undefined;
    let perform: ((work: () => Promise<unknown>) => Promise<unknown>) | undefined;
    await held.hold('deploy', 'c5', key('c5'), (_handoff, p) => ((perform = p), (first = p(async () => 'never'))));
    const rejected = new GuardrailRejectedError('deploy', 'c5', 'no-prod', 'rejectContent');
    held.release(key('c5'), rejected);
    await expect(first).rejects.toBe(rejected);
    await expect(perform?.(async () => 'later')).rejects.toBe(rejected);
    expect(held.take(key('c5'), invocation)).toBeUndefined();
    held.release(key('unknown'), rejected); // nothing held: nothing happens
  });

  it('two runs whose models number their calls alike hold them apart: each invocation takes the call with its own arguments', async () => {
    const held = new HeldCalls(() => undefined, 1000);
    const run = {};
    await held.hold('weather', 'call_0', heldKey(run, 'call_0', { city: 'Oslo' }) as string, async () => 'Oslo held');
    await held.hold('weather', 'call_0', heldKey(run, 'call_0', '{"city":"Paris"}') as string, async () => 'Paris held');
    // invoke passes the arguments as the model's JSON string; needsApproval had them parsed.
    await expect(held.take(heldKey(run, 'call_0', '{"city":"Paris"}') as string, invocation)).resolves.toBe('Paris held');
    await expect(held.take(heldKey(run, 'call_0', '{"city":"Oslo"}') as string, invocation)).resolves.toBe('Oslo held');
    expect(heldKey(run, 'call_0', 'not json')).toBeUndefined();
  });

  it('two runs holding the same call id and arguments keep both calls: each invocation is served by its own run\'s flow', async () => {
    const held = new HeldCalls(() => undefined, 1000);
    const [runA, runB] = [{}, {}];
    const flows: Promise<unknown>[] = [];
    const start = (label: string) => (_handoff: unknown, perform: (work: (arrived: { input: string }) => Promise<unknown>) => Promise<unknown>) => {
      const flow = perform(async (arrived) => `${label} ran ${arrived.input}`);
      flows.push(flow);
      return flow;
    };
    await expect(held.hold('mail', 'call_0', heldKey(runA, 'call_0', { n: 1 }) as string, start('A'))).resolves.toBe(false);
    await expect(held.hold('mail', 'call_0', heldKey(runB, 'call_0', { n: 1 }) as string, start('B'))).resolves.toBe(false);
    // B's invocation first: it takes B's call, not A's.
    await expect(held.take(heldKey(runB, 'call_0', '{"n":1}') as string, { ...invocation, input: 'b' })).resolves.toBe('B ran b');
    await expect(held.take(heldKey(runA, 'call_0', '{"n":1}') as string, { ...invocation, input: 'a' })).resolves.toBe('A ran a');
    expect(held.take(heldKey(runA, 'call_0', '{"n":1}') as string, invocation)).toBeUndefined();
  });

  it('one key held twice queues: neither call is lost, and each ends', async () => {
    const held = new HeldCalls(() => undefined, 1000);
    await held.hold('mail', 'c6', key('c6'), async (_h, perform) => perform(async () => 'first'));
    await held.hold('mail', 'c6', key('c6'), async (_h, perform) => perform(async () => 'second'));
    await expect(held.take(key('c6'), invocation)).resolves.toBe('first');
    await expect(held.take(key('c6'), invocation)).resolves.toBe('second');
  });
});
