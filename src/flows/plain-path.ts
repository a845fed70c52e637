/**
 * The plain path through the decision loop (`executeTool`, `CompoundTool`, `runPlan` and every
 * adapter): a Redirect changes the tool and its arguments, an on_error Redirect retries up to the
 * plan's `maxRetries`, an on_error Skip answers with its stub, and a failure no hook settles is thrown.
 * What each decision does: docs/flows.md.
 * @internal
 */
import type { HookDecision, Redirect, Skip } from '../decisions.js';
import { mergeArgs } from '../decisions.js';
import type { ToolArgs } from '../hook.js';
import type { CallPath } from './call-path.js';
import type { CallPlan } from './execute-tool.js';
import type { ToolCall } from './tool-call.js';

/** The plain path: one for every call, it holds nothing of any. */
export const PLAIN_PATH: CallPath = {
  clockStart: () => performance.now(),
  stub: (decision: Skip) => decision.stubResult,
  redirect: applyRedirect,
  edit<S>(call: ToolCall<S>, args: ToolArgs, edits: Readonly<ToolArgs>): ToolArgs {
    const merged = mergeArgs(args, edits);
    call.runsWith(merged);
    return merged;
  },
  again<S>(plan: CallPlan<S>, call: ToolCall<S>, args: ToolArgs, decision: HookDecision): ToolArgs | undefined {
    if (decision.kind !== 'redirect' || call.retries >= plan.maxRetries) return undefined;
    call.retries += 1;
    call.outcome = 'recovered';
    return applyRedirect(call, args, decision);
  },
  settle<S>(call: ToolCall<S>, _args: ToolArgs, decision: HookDecision, error: unknown): unknown {
    if (decision.kind !== 'skip') throw error;
    call.outcome = 'recovered';
    return call.returned(decision.stubResult);
  },
  replaced: (result: unknown) => result,
};

/**
 * The arguments a Redirect runs the tool with (and its tool, when it names one); the call's error
 * text is scrubbed of them from now on. Also an after_tool Redirect's re-execution, on either path.
 */
export function applyRedirect<S>(call: ToolCall<S>, args: ToolArgs, decision: Redirect): ToolArgs {
  call.redirected = true;
  if (decision.newTool !== undefined) call.effectiveToolName = decision.newTool;
  if (decision.newArgs === undefined) return args;
  const merged = mergeArgs(args, decision.newArgs);
  call.runsWith(merged);
  return merged;
}
