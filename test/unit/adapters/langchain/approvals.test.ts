/** How the LangChain adapter reads a resume value (toolhooks' ApprovalResponse or LangChain's HITL decisions) and shapes its interrupt. */
import type { ToolCallRequest } from 'langchain';
import { describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../../../src/index.js';
import type { CallApproval } from '../../../../src/adapters/langchain/approvals.js';
import { interruptApproval, interruptValue, readResume } from '../../../../src/adapters/langchain/approvals.js';
import { ApprovalLedger } from '../../../../src/adapters/approval-ledger.js';

const args = { to: 'bob', amount: 500, memo: 'rent' };

describe('readResume', () => {
  it("passes toolhooks' ApprovalResponse on as it is", () => {
    expect(readResume({ approved: true, args: { amount: 90 } }, 'transfer', args)).toEqual({ approved: true, args: { amount: 90 } });
    expect(readResume({ approved: false, reason: 'no' }, 'transfer', args)).toEqual({ approved: false, reason: 'no' });
  });

  it("maps LangChain's HITL decisions: an edit's args are the args (keys left out are unset)", () => {
    expect(readResume({ decisions: [{ type: 'approve' }] }, 'transfer', args)).toEqual({ approved: true });
    expect(readResume({ decisions: [{ type: 'reject' }] }, 'transfer', args)).toEqual({ approved: false });
    expect(readResume({ decisions: [{ type: 'reject', message: 'later' }] }, 'transfer', args)).toEqual({ approved: false, reason: 'later' });
    const edited = readResume({ decisions: [{ type: 'edit', editedAction: { name: 'transfer', args: { to: 'bob', amount: 90 } } }] }, 'transfer', args);
    expect(edited).toEqual({ approved: true, args: { to: 'bob', amount: 90, memo: undefined } });
  });

  it('anything else is a TypeError naming both accepted shapes', () => {
    for (const [value, what] of [
      [undefined, 'undefined'],
      ['yes', 'the string "yes"'],
      [{ decisions: [{}, {}] }, '2 decisions'],
      [{ decisions: [{ type: 'approve_all' }] }, 'a decision of type the string "approve_all"'],
      [{ decisions: [{ type: 'reject', message: 7 }] }, 'whose message is the number 7'],
      [{ decisions: [{ type: 'edit', editedAction: { name: 'balance', args: {} } }] }, 'naming the tool the string "balance"'],
      [{ decisions: [{ type: 'edit' }] }, 'without editedAction.args'],
      [{ approved: true, args: [1] }, 'whose args are an array'],
    ] as const) {
      expect(() => readResume(value, 'transfer', args)).toThrow(TypeError);
      expect(() => readResume(value, 'transfer', args)).toThrow(what);
    }
    expect(() => readResume('yes', 'transfer', args)).toThrow(/\{ approved: true, args\? \}.*\{ decisions: \[\{ type: 'approve' \| 'edit' \| 'reject' \}\] \}/);
  });
});

describe('interruptValue', () => {
  it("is LangChain's HITL request for one action, with toolhooks' details", () => {
    const redactedArgs = '{"to":"bob","amount":500,"memo":"rent"}';
    const value = interruptValue({ id: 'c1', toolName: 'transfer', args, redactedArgs, reason: 'large', hook: 'gate', callId: 'c1', signal: new AbortController().signal });
    expect(value.actionRequests[0]).toMatchObject({ name: 'transfer', args });
    expect(value.actionRequests[0]?.description).toBe('large (gate)\n\nTool: transfer\nArgs: {"to":"bob","amount":500,"memo":"rent"}');
    expect(value.reviewConfigs).toEqual([{ actionName: 'transfer', allowedDecisions: ['approve', 'edit', 'reject'] }]);
    expect(value.toolhooks).toEqual({ approvalId: 'c1', toolCallId: 'c1', toolName: 'transfer', args, redactedArgs, reason: 'large', hook: 'gate' });
  });
});

describe('interruptApproval: a resumed call bound to the one asked about', () => {
  /** A GraphInterrupt as LangGraph's interrupt() throws it on the asking pass. */
  const suspension = Object.assign(new Error('interrupted'), { name: 'GraphInterrupt', is_bubble_up: true });
  const approval = (request: ApprovalRequest): ApprovalRequest => request;
  const requestOf = (toolName: string, callArgs: Record<string, unknown>, thread: string, interrupt: () => unknown) =>
    ({ toolCall: { id: 'call_0', name: toolName, args: callArgs }, runtime: { interrupt, configurable: { thread_id: thread } } }) as unknown as ToolCallRequest;
  const asking = (toolName: string, callArgs: Record<string, unknown>) => approval({ id: 'call_0', toolName, args: callArgs, redactedArgs: '{}', reason: 'r', hook: 'h', callId: 'call_0' } as ApprovalRequest);

  it('a resume whose call has other arguments or names another tool is refused: the model reads why, the tool does not run', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const ledger = new ApprovalLedger('toolhooksMiddleware');
    const ask = interruptApproval(requestOf('transfer', args, 't1', () => { throw suspension; }), ledger, {});
    expect(() => ask.approver(asking('transfer', args))).toThrow(suspension);
    for (const [toolName, callArgs] of [['transfer', { ...args, to: 'mallory' }], ['delete_account', args]] as const) {
      const call: CallApproval = {};
      const resumed = interruptApproval(requestOf(toolName, callArgs, 't1', () => ({ approved: true })), ledger, call);
      expect(await resumed.approver(asking(toolName, callArgs))).toEqual({ approved: false, reason: 'approval call_0 was given for another call (other arguments or another tool); the tool does not run' });
      expect(call.alreadyResolved).toBeDefined();
    }
    // Another thread's call_0 is its own approval; the asked call still resumes.
    const elsewhere = interruptApproval(requestOf('transfer', { ...args, to: 'mallory' }, 't2', () => ({ approved: true })), ledger, {});
    expect(await elsewhere.approver(asking('transfer', { ...args, to: 'mallory' }))).toEqual({ approved: true });
    const resumed = interruptApproval(requestOf('transfer', args, 't1', () => ({ approved: true })), ledger, {});
    expect(await resumed.approver(asking('transfer', args))).toEqual({ approved: true });
    vi.restoreAllMocks();
  });
});
