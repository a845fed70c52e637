/**
 * The HookContext a hook is given: its signal is made only when read, and an abort reaches it whether
 * the hook reads the signal before or after the phase aborts it, combined with the caller's signal.
 */
import { describe, expect, it } from 'vitest';
import { InvocationContext } from '../../../src/runner/context.js';

describe('InvocationContext', () => {
  it('carries phase, attempt and callId, and has no callId key when none was given', () => {
    const ctx = new InvocationContext('before_tool', 2, 'call_1', undefined);
    expect([ctx.phase, ctx.attempt, ctx.callId]).toEqual(['before_tool', 2, 'call_1']);
    expect('callId' in new InvocationContext('after_tool', 1, undefined, undefined)).toBe(false);
  });

  it('gives the same signal on every read', () => {
    const ctx = new InvocationContext('before_tool', 1, undefined, undefined);
    expect(ctx.signal).toBe(ctx.signal);
    expect(ctx.signal.aborted).toBe(false);
  });

  it('aborts a signal read before the abort, with the reason', () => {
    const ctx = new InvocationContext('before_tool', 1, undefined, undefined);
    const signal = ctx.signal;
    const reason = new Error('timed out');
    ctx.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
  });

  it('gives an already aborted signal when it is first read after the abort', () => {
    const ctx = new InvocationContext('on_error', 1, undefined, undefined);
    const reason = new Error('timed out');
    ctx.abort(reason);
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe(reason);
  });

  it("follows the caller's signal as well as its own abort", () => {
    const caller = new AbortController();
    const ctx = new InvocationContext('before_tool', 1, undefined, caller.signal);
    expect(ctx.signal.aborted).toBe(false);
    caller.abort(new Error('caller gave up'));
    expect(ctx.signal.aborted).toBe(true);
    const own = new InvocationContext('before_tool', 1, undefined, new AbortController().signal);
    own.abort('late');
    expect(own.signal.aborted).toBe(true);
    expect(own.signal.reason).toBe('late');
  });
});
