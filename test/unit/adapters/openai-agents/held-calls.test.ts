/**
 * Held calls (`approvals: 'framework'`): a call whose before_tool phase ran in `needsApproval` has its
 * executor's work done by the SDK's invoke that follows, and ends `failed` with a NotInvokedError when
 * none comes (the run stopped) instead of keeping its span open — at once when one of the tool's input
 * guardrails rejected it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { PendingApproval } from '../../../../src/flows/handoff.js';
import { GuardrailRejectedError, HeldCalls, NotInvokedError } from '../../../../src/adapters/openai-agents/held-calls.js';

const invocation = { runContext: {}, input: '{"n":1}', details: {} };

describe('HeldCalls', () => {
  it('answers false once the executor asks for its work, and does that work in the invocation', async () => {
    const held = new HeldCalls(() => undefined, 1000);
    const goesOn = held.hold('shell', 'c1', async (_handoff, perform) => {
      const first = await perform(async (arrived) => `ran with ${arrived.input}`);
      const again = await perform(async () => 'ran again');
      return [first, again];
    });
    await expect(goesOn).resolves.toBe(false);
    await expect(held.take('c1', invocation)).resolves.toEqual(['ran with {"n":1}', 'ran again']);
    expect(held.take('c1', invocation)).toBeUndefined();
  });

  it('answers true when the hooks asked: nothing is held for an invoke', async () => {
    const asked = vi.fn();
    const held = new HeldCalls(asked, 1000);
    const pending = { id: 'c2' } as PendingApproval;
    await expect(held.hold('shell', 'c2', async (handoff) => void handoff.onPending?.(pending))).resolves.toBe(true);
    expect(asked).toHaveBeenCalledWith(pending);
    expect(held.take('c2', invocation)).toBeUndefined();
  });

  it('a call settled before its invocation (a Skip) returns its result to that invocation', async () => {
    const held = new HeldCalls(() => undefined, 1000);
    await expect(held.hold('shell', 'c4', async () => 'stub')).resolves.toBe(false);
    await expect(held.take('c4', invocation)).resolves.toBe('stub');
  });

  it('a call the SDK never invokes fails with NotInvokedError after the wait and is forgotten', async () => {
    const held = new HeldCalls(() => undefined, 20);
    let flow: Promise<unknown> | undefined;
    await held.hold('shell', 'c3', (_handoff, perform) => (flow = perform(async () => 'never')));
    await expect(flow).rejects.toThrow(NotInvokedError);
    await expect(flow).rejects.toThrow(/did not invoke "shell" for call c3 within 20 ms/);
    expect(held.take('c3', invocation)).toBeUndefined();
  });

  it('a call released (its input guardrail rejected it) fails at once with that error, also for work asked later, and is forgotten', async () => {
    const held = new HeldCalls(() => undefined, 60_000);
    let first: Promise<unknown> | undefined;
    let perform: ((work: () => Promise<unknown>) => Promise<unknown>) | undefined;
    await held.hold('deploy', 'c5', (_handoff, p) => ((perform = p), (first = p(async () => 'never'))));
    const rejected = new GuardrailRejectedError('deploy', 'c5', 'no-prod', 'rejectContent');
    held.release('c5', rejected);
    await expect(first).rejects.toBe(rejected);
    await expect(perform?.(async () => 'later')).rejects.toBe(rejected);
    expect(held.take('c5', invocation)).toBeUndefined();
    held.release('unknown', rejected); // nothing held: nothing happens
  });
});
