/**
 * The approval hand-off protocol: how an adapter gives a call's Ask to its framework's own approval
 * flow (the AI SDK's `tool-approval-request`, the Agents SDK's interruptions, a LangGraph interrupt)
 * instead of waiting for an approver inside the call. The call that asks ends as `pending`; the
 * framework's continuation makes a second call that carries the framework's answer. The runner owns
 * these types (`approvals.ts` settles them); the flows only carry a hand-off from the adapter to the
 * phase (`CallSpec.handoff`). What users see of it: docs/adapters.md, "Approvals (Ask) and Replace,
 * per framework"; the whole path: docs/architecture.md, "One Ask, from a hook to each framework".
 * @internal
 */
import type { SpanContext } from '@opentelemetry/api';
import type { ApprovalRequest, ApprovalResponse } from '../hook.js';

/** How an adapter hands a call's Ask to its framework (`CallSpec.handoff`, then `PhaseRequest.handoff`). */
export interface ApprovalHandoff {
  /**
   * The framework's approval id (the AI SDK's `approvalId`, a tool call id), recorded as
   * `toolhooks.approval.id` instead of a random one.
   */
  readonly id?: string | undefined;
  /**
   * The call that asks: when before_tool's effective decision waits for approval, nobody is waited
   * for. The approval span and the call end as `pending`, neither the tool nor after_tool runs, this
   * is called (through the guard) with what the framework needs to ask, and the flow returns the
   * Ask's denial value, which the adapter does not pass on.
   */
  readonly onPending?: ((request: HandoffRequest) => void) | undefined;
  /**
   * The continuation: the framework's answer. The approver is not consulted; when the phase asks
   * again this response settles it, on a `toolhooks.approval` span with the hand-off's id. The call's
   * span links to `askedIn` (the span that asked, when known). When the hooks do not ask this time,
   * the answer is not used and the call runs as they decide.
   */
  readonly answer?: ApprovalAnswer | undefined;
  /**
   * For a framework that suspends by throwing (a LangGraph `interrupt()` called from the adapter's
   * `approver`): an error the approver throws that this recognises is not an approver failure. The
   * approval and the call end as `pending`, and the flow rethrows the error to the framework.
   * The same holds for an error the tool's executor throws (an `interrupt()` inside the tool): the
   * call ends as `pending` without on_error or after_tool, and the error is rethrown.
   */
  readonly isSuspension?: ((error: unknown) => boolean) | undefined;
}

/** The framework's answer to an approval, given to the continuation call. */
interface ApprovalAnswer {
  readonly response: ApprovalResponse;
  /** The `execute_tool` span of the call that asked, when this process asked. */
  readonly askedIn?: SpanContext | undefined;
}

/**
 * What the asking call gives its adapter to ask its framework (`ApprovalHandoff.onPending`): the
 * approver's {@link ApprovalRequest} without what only a waiting approver needs (the signal, the
 * redacted arguments, the call id), plus what the continuation needs. `toolName` and `args` are what
 * the effective decision would run (a Redirect's target); `id` is the hand-off's, else one made for
 * the approval; `reason` and `hook` are the first asking hook's.
 */
export interface HandoffRequest extends Pick<ApprovalRequest, 'id' | 'toolName' | 'args' | 'reason' | 'hook'> {
  /** The Ask's `deniedResult`; undefined when it gave none. */
  readonly deniedResult: unknown;
  /** The asking call's `execute_tool` span (for the continuation's link); undefined when it does not record. */
  readonly spanContext: SpanContext | undefined;
}
