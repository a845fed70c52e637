/**
 * Ask onto a LangGraph interrupt (`approvals: 'framework'`): builds what the app receives in
 * `result.__interrupt__`, reads what it resumes with (`Command({ resume })`; both types are public, in
 * types.ts), and gives the middleware each call's approver. LangGraph re-runs the tools node from its
 * start on resume, so every pass runs the hooks; the asking pass ends where `interrupt()` throws, the
 * resumed one gets the resume value from the same `interrupt()` call. How users see it: docs/adapters.md, "LangChain.js".
 * @internal
 */
import type { ToolCallRequest } from 'langchain';
import { isPlainObject } from '../../decisions.js';
import type { ApprovalRequest, ApprovalResponse, Approver, ToolArgs } from '../../hook.js';
import type { ApprovalHandoff } from '../../runner/handoff.js';
import type { ApprovalLedger } from '../approval-ledger.js';
import { alreadyResolved, approvalId, askedInOf, callDigest, callSpanContext, linkToAsker, notAskedAbout } from '../approval-ledger.js';
import type { ToolhooksApprovalInterrupt } from './types.js';

/** LangGraph's `interrupt()`, as the agent's runtime hands it to middleware (`request.runtime.interrupt`). */
type Interrupt = (value: unknown) => unknown;

/** What one call's approver learned; read by the middleware when the call is over. */
export interface CallApproval {
  /** The call ended in a LangGraph suspension (its Ask's interrupt, or the tool's own): it runs again on resume. */
  suspended?: boolean;
  /** The resume answered no (or could not be read): the model gets a ToolMessage with status `error`. */
  denied?: boolean;
  /**
   * The resume was for a call already resolved here, or this process asked about another call under
   * its id (other arguments, another tool): the model gets this text, the tool does not run.
   */
  alreadyResolved?: string;
  /**
   * Set once the resume resolved the approval: marks it asked again, for a tool that then interrupts
   * on its own — LangGraph re-runs the call with the same resume value when that tool is resumed.
   */
  rearm?: () => void;
}

/**
 * The approver and hand-off of one call whose Ask becomes a LangGraph interrupt: the hand-off's id is
 * the tool call id, and LangGraph's suspensions (this interrupt, or one the tool raises) are rethrown
 * as they are.
 */
export function interruptApproval(request: ToolCallRequest, ledger: ApprovalLedger, call: CallApproval): { readonly approver: Approver; readonly handoff: ApprovalHandoff } {
  const given = (request.runtime as { interrupt?: unknown } | undefined)?.interrupt;
  const interrupt: Interrupt =
    typeof given === 'function'
      ? (given as Interrupt)
      : () => {
          throw new TypeError("toolhooksMiddleware: approvals 'framework' needs LangGraph's interrupt() (request.runtime.interrupt), which this agent's runtime does not give");
        };
  // Kept under the thread and the tool call id, about the requested call: two threads whose models
  // number their calls alike ask and resume apart, and a resumed call that differs is refused.
  const threadId = (request.runtime as { configurable?: { thread_id?: unknown } } | undefined)?.configurable?.thread_id;
  const asked: AskedAbout = {
    key: approvalId(typeof threadId === 'string' ? threadId : undefined, request.toolCall.id ?? ''),
    about: callDigest(request.toolCall.name, request.toolCall.args),
  };
  return {
    approver: interruptApprover(interrupt, ledger, asked, call),
    handoff: { id: request.toolCall.id, isSuspension: isGraphInterrupt },
  };
}

/** A call's approval in the ledger: its key and the digest of the requested call. */
interface AskedAbout {
  readonly key: string;
  readonly about: string | undefined;
}

/**
 * The approver of one hooked call: asks through `interrupt()` (which throws on the asking pass and
 * returns the resume value on the resumed one) and reads the resume value.
 */
function interruptApprover(interrupt: Interrupt, ledger: ApprovalLedger, asked: AskedAbout, call: CallApproval): Approver {
  return (request) => {
    let resumed: unknown;
    try {
      resumed = interrupt(interruptValue(request));
    } catch (error) {
      // Anything else interrupt() throws (no checkpointer: "No checkpointer set") is an approver
      // failure: the approval ends as `error` and the call is denied.
      if (!isGraphInterrupt(error)) {
        call.denied = true;
        throw error;
      }
      ledger.asked(asked.key, asked.about, callSpanContext());
      throw error;
    }
    const resolution = ledger.resolve(asked.key, asked.about);
    if (resolution.kind === 'resolved' || resolution.kind === 'differs') {
      call.alreadyResolved = resolution.kind === 'resolved' ? alreadyResolved(request.id) : notAskedAbout(request.id);
      return { approved: false, reason: call.alreadyResolved };
    }
    const askedIn = askedInOf(resolution);
    if (askedIn !== undefined) linkToAsker(askedIn, request.id);
    call.rearm = () => ledger.asked(asked.key, asked.about, askedIn);
    try {
      const response = readResume(resumed, request.toolName, request.args);
      if (!response.approved) call.denied = true;
      return response;
    } catch (error) {
      call.denied = true;
      throw error;
    }
  };
}

/**
 * LangGraph's suspension: the GraphInterrupt `interrupt()` throws when it has no resume value yet
 * (recognised as LangGraph's own `isGraphInterrupt` does, by its bubble-up mark and name, without
 * loading LangGraph). Not a failure: a call it ends is `pending`, and it reaches LangGraph as it is.
 */
export function isGraphInterrupt(error: unknown): boolean {
  if (!(error instanceof Error) || (error as { is_bubble_up?: unknown }).is_bubble_up !== true) return false;
  return error.name === 'GraphInterrupt' || error.name === 'NodeInterrupt';
}

/** The interrupt value for an approval request. */
export function interruptValue(request: ApprovalRequest): ToolhooksApprovalInterrupt {
  const { id, toolName, args, redactedArgs, reason, hook } = request;
  return {
    actionRequests: [{ name: toolName, args, description: `${reason === '' ? 'Tool execution requires approval' : reason} (${hook})\n\nTool: ${toolName}\nArgs: ${redactedArgs}` }],
    reviewConfigs: [{ actionName: toolName, allowedDecisions: ['approve', 'edit', 'reject'] }],
    toolhooks: { approvalId: id, toolCallId: request.callId ?? id, toolName, args, redactedArgs, reason, hook },
  };
}

/**
 * A resume value as an {@link ApprovalResponse}; a TypeError naming the accepted shapes for anything
 * else (the approver throws it: the approval ends as `error` and the call is denied).
 */
export function readResume(value: unknown, toolName: string, args: ToolArgs): ApprovalResponse {
  if (isPlainObject(value) && typeof value.approved === 'boolean') {
    if (value.approved && value.args !== undefined && !isPlainObject(value.args)) throw resumeError(`an approval whose args are ${shown(value.args)}, not a plain object`);
    return value as unknown as ApprovalResponse;
  }
  if (isPlainObject(value) && Array.isArray(value.decisions)) {
    const decisions: unknown[] = value.decisions;
    if (decisions.length !== 1) throw resumeError(`${decisions.length} decisions (one approval asks for one)`);
    return readDecision(decisions[0], toolName, args);
  }
  throw resumeError(shown(value));
}

function readDecision(decision: unknown, toolName: string, args: ToolArgs): ApprovalResponse {
  if (!isPlainObject(decision)) throw resumeError(`a decision that is ${shown(decision)}`);
  switch (decision.type) {
    case 'approve':
      return { approved: true };
    case 'reject': {
      const message = decision.message;
      if (message !== undefined && typeof message !== 'string') throw resumeError(`a reject decision whose message is ${shown(message)}, not a string`);
      return message === undefined ? { approved: false } : { approved: false, reason: message };
    }
    case 'edit': {
      const edited = decision.editedAction;
      if (!isPlainObject(edited) || !isPlainObject(edited.args)) throw resumeError('an edit decision without editedAction.args');
      if (edited.name !== toolName) throw resumeError(`an edit decision naming the tool ${shown(edited.name)} (an approval can change the arguments of ${toolName}, not the tool)`);
      return { approved: true, args: replacing(args, edited.args) };
    }
    default:
      throw resumeError(`a decision of type ${shown(decision.type)}`);
  }
}

/**
 * An edit gives the arguments to run with, not changes to merge: a key it leaves out is set to
 * undefined, so the merged arguments are the edited ones.
 */
function replacing(args: ToolArgs, edited: ToolArgs): ToolArgs {
  const out: ToolArgs = {};
  for (const key of Object.keys(args)) if (!Object.hasOwn(edited, key)) out[key] = undefined;
  return Object.assign(out, edited);
}

function resumeError(what: string): TypeError {
  return new TypeError(
    `toolhooksMiddleware: the approval was resumed with ${what}; resume with { approved: true, args? } / { approved: false, reason? }, or LangChain's { decisions: [{ type: 'approve' | 'edit' | 'reject' }] } (the call is denied)`,
  );
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : String(value)}`;
}


