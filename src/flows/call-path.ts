/**
 * How a call's decisions take effect, where that differs between the two paths a call can take
 * through the decision loop (`decide`, decision-loop.ts): the plain path (`executeTool`, `CompoundTool`,
 * `runPlan` and every adapter: plain-path.ts) and a retry policy's (`runWithRetry`: retry-policy.ts).
 * Also the two ways a call answers that both paths share.
 * @internal
 */
import type { HookDecision, Redirect, Skip } from '../decisions.js';
import type { ToolArgs } from '../hook.js';
import type { CallPlan } from './execute-tool.js';
import type { ToolCall } from './tool-call.js';

/**
 * The steps of the decision loop that a path decides for itself. The loop asks its path at each of
 * them; what it does between them (run the phases, run the tool, end the call) is the same for both.
 */
export interface CallPath {
  /** When after_tool's duration of the attempt about to run is measured from (read only when after_tool hooks exist). */
  clockStart(): number;
  /** What a Skip's stub (before_tool's, or a denied approval's result) becomes as the call's answer. */
  stub(decision: Skip): unknown;
  /** A before_tool Redirect (or an approval's effective one) takes effect: what the tool runs with from now on. */
  redirect<S>(call: ToolCall<S>, args: ToolArgs, decision: Redirect): ToolArgs;
  /** An approver's edits take effect (they are not a Redirect): what the tool runs with from now on. */
  edit<S>(call: ToolCall<S>, args: ToolArgs, edits: Readonly<ToolArgs>): ToolArgs;
  /**
   * After a failed attempt and its on_error `decision`: the arguments of the next attempt, its tally
   * counted; undefined when no attempt follows (then {@link settle} answers).
   */
  again<S>(plan: CallPlan<S>, call: ToolCall<S>, args: ToolArgs, decision: HookDecision, error: unknown, attempt: number): ToolArgs | undefined;
  /** The call's answer when no attempt follows a failure: a Skip's stub, a retry policy's exhaustion — or `error`, thrown. */
  settle<S>(call: ToolCall<S>, args: ToolArgs, decision: HookDecision, error: unknown, started: number, attempt: number): unknown;
  /** What an after_tool Replace's result becomes as the call's answer. */
  replaced(result: unknown): unknown;
}

/** Ends the call with `value`, or with after_tool's Replace result when `after` is one; returns the answer. */
export function answer<S>(call: ToolCall<S>, path: CallPath, after: HookDecision, value: unknown): unknown {
  if (after.kind !== 'replace') return call.returned(value);
  call.replaced = true;
  return call.returned(path.replaced(after.result));
}

/**
 * Runs after_tool with `value` (a Skip's stub, a denial's result, a retry policy's exhaustion) and
 * ends the call with it, or with a Replace's result. `started` 0: no duration to report.
 */
export async function answerAfter<S>(call: ToolCall<S>, path: CallPath, args: ToolArgs, value: unknown, started: number, attempt: number): Promise<unknown> {
  let after = call.after(args, value, started === 0 ? 0 : performance.now() - started, attempt);
  if (after instanceof Promise) after = await after;
  return answer(call, path, after, value);
}
