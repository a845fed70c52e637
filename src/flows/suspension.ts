/**
 * Where a call stops for its framework (an adapter's `CallSpec.handoff`): an Ask handed to the
 * framework's own approval flow, or the framework suspending the run from inside the tool (a LangGraph
 * `interrupt()`). Either way the call ends as `pending`, neither on_error nor after_tool runs, and the
 * framework's continuation is another call. What users see of it: docs/adapters.md.
 * @internal
 */
import type { HookDecision } from '../decisions.js';
import type { CallPlan } from './execute-tool.js';
import type { ToolCall } from './tool-call.js';

/** Whether before_tool handed the call's Ask to the framework (then the tool and after_tool run in its continuation). */
export function handedOff<S>(call: ToolCall<S>): boolean {
  return call.approval?.outcome === 'pending';
}

/**
 * Ends a call whose Ask went to the framework as `pending`: returns the Ask's denial value (which the
 * adapter does not pass on), or throws the framework's suspension when its approver raised one.
 */
export function handToFramework<S>(call: ToolCall<S>, before: HookDecision): unknown {
  call.outcome = 'pending';
  const value = call.returned(before.kind === 'skip' ? before.stubResult : undefined);
  const suspension = call.approval?.suspension;
  if (suspension === undefined) return value;
  throw suspension.error;
}

/** Whether what the executor threw is the framework's suspension (`handoff.isSuspension`); a predicate that throws says no. */
export function suspends<S>(plan: CallPlan<S>, error: unknown): boolean {
  const isSuspension = plan.handoff?.isSuspension;
  if (isSuspension === undefined) return false;
  try {
    return isSuspension(error) === true;
  } catch {
    return false;
  }
}

/**
 * Ends a call the framework suspended from inside its tool: not a failure, so no on_error; the call
 * ends as `pending` and the suspension is returned, for the loop to rethrow to the framework.
 */
export function suspendedInTool<S>(call: ToolCall<S>, error: unknown): unknown {
  call.endExecute();
  call.outcome = 'pending';
  call.returned(undefined);
  return error;
}

/** Whether the call already ended as `pending` (stopped for its framework): the loop then only rethrows what reached it. */
export function endedAsPending<S>(call: ToolCall<S>): boolean {
  return call.outcome === 'pending';
}
