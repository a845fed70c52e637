/**
 * A call the app rejected through the SDK's approvals, recorded as `denied`: the SDK never invokes a
 * rejected tool (nor asks its `needsApproval` again), and tells only its `toolErrorFormatter` — which
 * gives the tool's name and the call id, not its arguments. So no hook runs for it (its hooks ran
 * when it asked), and the record is the call's `execute_tool` span and tool event.
 * @internal
 */
import type { SpanContext } from '@opentelemetry/api';
import type { RunnerCore } from '../../runner/core.js';
import { ToolCall } from '../../flows/tool-call.js';
import { ATTR_APPROVAL_OUTCOME } from '../../telemetry/semconv.js';

/** A rejected call: its tool, the call id (its approval id), and the span that asked, when this process asked. */
interface DeniedCall {
  readonly toolName: string;
  readonly callId: string;
  readonly askedIn: SpanContext | undefined;
}

/**
 * Records a rejected call: an `execute_tool` span with outcome `denied`, `toolhooks.approval.outcome`
 * `denied`, `toolhooks.approval.id` = the call id and a link to the asking span; a `denied` tool event.
 */
export function recordDeniedCall(core: RunnerCore, denied: DeniedCall): Promise<void> {
  const call = new ToolCall({
    core,
    toolName: denied.toolName,
    callId: denied.callId,
    args: {},
    state: undefined,
    attributes: { [ATTR_APPROVAL_OUTCOME]: 'denied' },
    handoff: { id: denied.callId, answer: { response: { approved: false }, askedIn: denied.askedIn } },
  });
  return call.within(endAsDenied, undefined);
}

async function endAsDenied(_arg: undefined, call: ToolCall<unknown>): Promise<void> {
  call.outcome = 'denied';
  call.returned(undefined);
}
