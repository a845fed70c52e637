/**
 * What the Claude adapter keeps for a handed-off Ask: a DeferredApprovals answer is used once and
 * bounded, `options.approvals` is read strictly, and the calls asking through the SDK's prompt are
 * dropped with their session.
 */
import { describe, expect, it } from 'vitest';
import { DeferredApprovals, deferredState, readClaudeApprovalMode } from '../../../../src/adapters/claude/approvals.js';
import { AskedCalls } from '../../../../src/adapters/claude/asked.js';
import type { HandoffRequest } from '../../../../src/runner/handoff.js';

const pending = (id: string): HandoffRequest => ({ id, toolName: 'Bash', args: { command: 'ls' }, reason: 'shell', hook: 'gate', deniedResult: undefined, spanContext: undefined });

describe('DeferredApprovals', () => {
  it('shows what a deferred call asked until its answer is taken, and takes an answer once', () => {
    const approvals = new DeferredApprovals();
    const state = deferredState(approvals);
    state.asked(pending('t-1'), undefined);
    expect(approvals.request('t-1')).toEqual({ id: 't-1', toolName: 'Bash', args: { command: 'ls' }, reason: 'shell', hook: 'gate' });
    expect(state.take('t-1')).toBeUndefined(); // not answered yet: the call waits (defers again)
    approvals.respond('t-1', { approved: false, reason: 'no' });
    approvals.respond('t-1', { approved: true }); // a later answer replaces an unused one
    expect(state.take('t-1')).toEqual({ approved: true });
    expect(state.take('t-1')).toBeUndefined();
    expect(approvals.request('t-1')).toBeUndefined();
  });

  it('remembers at most `capacity` ids: the oldest is dropped', () => {
    const approvals = new DeferredApprovals({ capacity: 2 });
    for (const id of ['a', 'b', 'c']) approvals.respond(id, { approved: true });
    const state = deferredState(approvals);
    expect([state.take('a'), state.take('b'), state.take('c')]).toEqual([undefined, { approved: true }, { approved: true }]);
  });

  it("reads options.approvals: 'runner' (the default), 'ask', a DeferredApprovals; anything else is a TypeError naming it", () => {
    expect(readClaudeApprovalMode(undefined, 'w').kind).toBe('runner');
    expect(readClaudeApprovalMode('runner', 'w').kind).toBe('runner');
    expect(readClaudeApprovalMode('ask', 'w').kind).toBe('ask');
    expect(readClaudeApprovalMode(new DeferredApprovals(), 'w').kind).toBe('defer');
    expect(() => readClaudeApprovalMode('defer', 'w')).toThrow(/w: options.approvals must be 'runner', 'ask' or a DeferredApprovals, got "defer"/);
    expect(() => readClaudeApprovalMode({}, 'w')).toThrow(TypeError);
  });
});

describe('AskedCalls', () => {
  it('gives each call back once and drops a session that ended', () => {
    const asked = new AskedCalls(2);
    const call = (sessionId: string) => ({ toolName: 'Bash', args: {}, wrapped: false, sessionId });
    asked.add('1', call('s1'));
    asked.add('2', call('s2'));
    asked.add('3', call('s2')); // over capacity: '1' is dropped
    expect(asked.take('1')).toBeUndefined();
    asked.endSession('s2');
    expect(asked.size).toBe(0);
    asked.add('4', call('s1'));
    expect(asked.take('4')?.sessionId).toBe('s1');
    expect(asked.take('4')).toBeUndefined();
  });
});
