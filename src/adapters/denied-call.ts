/**
 * A call whose approval ended without the tool and without a pass of its hooks, recorded as `denied`:
 * a call the app rejected through a framework that tells only the call id (the Agents SDK's
 * `toolErrorFormatter`), or a continuation refused because its call is not the one that was asked
 * about. No hook runs for it (its hooks ran when it asked, or the call differs from what they
 * judged), so the record is the call's `execute_tool` span and tool event.
 * @internal
 */
import type { SpanContext } from '@opentelemetry/api';
import type { ToolArgs } from '../hook.js';
import type { RunnerCore } from '../runner/core.js';
import { ToolCall } from '../flows/tool-call.js';
import { ATTR_APPROVAL_OUTCOME } from '../telemetry/semconv.js';
import type { Resolution } from './approval-ledger.js';

/** A denied call: its tool, the call id, its approval id, and how its approval resolved here. */
interface DeniedCall {
  readonly toolName: string;
  readonly callId: string | undefined;
  /** The approval id recorded (`toolhooks.approval.id`); the call id when the framework has no other. */
  readonly approvalId: string;
  /** The arguments of the call as the framework holds them; `{}` when it does not say. */
  readonly args?: ToolArgs | undefined;
  /** How the approval resolved here: the asking span (for the link) and its tally, when this process asked. */
  readonly resolution: Resolution;
}

/**
 * Records a denied call: an `execute_tool` span with outcome `denied`, `toolhooks.approval.outcome`
 * `denied`, `toolhooks.approval.id` and a link to the asking span; a `denied` tool event. It carries
 * what its asking pass tallied when this process asked (`toolhooks.gated`: an Ask takes effect only
 * from an enforce-mode hook), and no `gated` otherwise: a call no phase ran for is never counted as
 * ungated.
 */
export function recordDeniedCall(core: RunnerCore, denied: DeniedCall): Promise<void> {
  const askedIn: SpanContext | undefined = denied.resolution.kind === 'asked' ? denied.resolution.askedIn : undefined;
  const call = new ToolCall({
    core,
    toolName: denied.toolName,
    callId: denied.callId,
    args: denied.args ?? {},
    state: undefined,
    attributes: { [ATTR_APPROVAL_OUTCOME]: 'denied' },
    handoff: { id: denied.approvalId, answer: { response: { approved: false }, askedIn } },
    tallied: { gated: denied.resolution.kind === 'asked' ? true : undefined },
  });
  return call.within(endAsDenied, undefined);
}

async function endAsDenied(_arg: undefined, call: ToolCall<unknown>): Promise<void> {
  call.outcome = 'denied';
  call.returned(undefined);
}
