/**
 * A call's before_tool phase run ahead of its call, for a framework that asks "does this call need
 * approval?" before it runs the tool (the AI SDK's `toolApproval`, the Agents SDK's `needsApproval`).
 * The phase runs once, there; the call that follows (`CallSpec.before`) uses its decision instead of
 * running the hooks a second time. The phase span is a child of what is active when it runs: the
 * framework's own `execute_tool` span, if it has one, starts only after its approval check.
 * @internal
 */
import { context } from '@opentelemetry/api';
import type { HookDecision } from '../decisions.js';
import type { CallTally } from '../runner/phase-request.js';
import { isDroppedSpanIn } from '../telemetry/span.js';
import type { CallSpec } from './call-spec.js';
import { CallPhaseRequest } from './call-spec.js';

/** A before_tool phase already run for a call: its decision (or the Abort it raised) and what it tallied. */
export type HeldBefore =
  | { readonly decision: HookDecision; readonly tally: Readonly<CallTally> }
  | { readonly error: unknown; readonly tally: Readonly<CallTally> };

/** Runs `spec`'s before_tool phase now (handoff included), outside any call span. Never rejects: an Abort is held. */
export async function runBeforeAhead<S>(spec: CallSpec<S>): Promise<HeldBefore> {
  const request = new CallPhaseRequest(spec as CallSpec<unknown>);
  request.traced = !isDroppedSpanIn(context.active());
  try {
    const decided = spec.core.run(request);
    const decision = decided instanceof Promise ? await decided : decided;
    return { decision, tally: tallyOf(request) };
  } catch (error) {
    return { error, tally: tallyOf(request) };
  }
}

/** What the phase tallied, apart from the request it ran with. */
function tallyOf(request: CallPhaseRequest): CallTally {
  return { hookErrors: request.hookErrors, gated: request.gated, approval: request.approval };
}

/** Whether the held phase handed its Ask to the framework (the call waits for the framework's approval). */
export function isPendingBefore(held: HeldBefore): boolean {
  return held.tally.approval?.outcome === 'pending';
}
