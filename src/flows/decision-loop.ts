/**
 * The decision loop of one call (`decide`): the one loop every flow and adapter runs a call through,
 * and its steps. What each decision does: docs/flows.md.
 * @internal
 */
import type { HookDecision, Skip } from '../decisions.js';
import { CONTINUE } from '../decisions.js';
import { HookAbortError } from '../errors.js';
import { isThenable } from '../internal/thenable.js';
import type { ToolArgs } from '../hook.js';
import type { CallPath } from './call-path.js';
import { answer, answerAfter } from './call-path.js';
import type { CallPlan, ExecutorContext } from './execute-tool.js';
import { applyRedirect, PLAIN_PATH } from './plain-path.js';
import { RetryPath } from './retry-policy.js';
import { endedAsPending, handedOff, handToFramework, suspendedInTool, suspends } from './suspension.js';
import type { ToolCall } from './tool-call.js';

/**
 * Runs one call, inside its `execute_tool` span, and ends it (`call.returned` / `call.threw`):
 * 1. before_tool decides about the requested call; an Abort throws.
 * 2. An Ask handed to the framework ends the call as `pending` ({@link handToFramework}).
 * 3. A Skip, or a denied approval, answers with its stub, which after_tool still sees ({@link skipTool}).
 * 4. The effective decision takes effect: a Redirect, an approver's edits ({@link applyBefore}).
 * 5. The tool runs ({@link startAttempt}).
 * 6. If it throws, on_error decides ({@link onFailure}): the path runs it again (back to 5) or settles
 *    the call (`CallPath.again` / `settle`); a framework's suspension ends the call as `pending`.
 * 7. after_tool decides about its result: a Replace answers instead, a Redirect re-executes the tool
 *    (back to 5, {@link reexecution}); else the result is the answer.
 *
 * The path (plain, or a retry policy's: `CallPath`) decides what 3, 4, 6 and 7 do with a decision.
 * The steps are synchronous and the loop's state is its locals, so a call costs one async frame
 * ({@link decideAsync}) and no object of its own beyond the call
 * (docs/decisions/2026-12-02-one-object-per-call.md) — and the commonest call not even that frame: on the
 * plain path, with no after_tool hooks, a before_tool of synchronous hooks (or of none) that neither
 * skips nor asks and a tool that returns its result settle here, with one resolved promise as the
 * answer. The first promise, a Skip, an Ask, a failure of the tool or an after_tool hook hands the call
 * to {@link decideAsync} at the step it reached. Never throws: a failure rejects.
 */
export function decide<S>(plan: CallPlan<S>, call: ToolCall<S>): Promise<unknown> {
  let before: HookDecision | Promise<HookDecision>;
  let args: ToolArgs;
  try {
    before = call.before(plan.args); // 1.
    if (before instanceof Promise || plan.retry !== undefined || before.kind === 'skip' || call.timesExecution || handedOff(call)) {
      return decideAsync(plan, call, before, undefined, false, undefined);
    }
    args = applyBefore(call, PLAIN_PATH, plan.args, before); // 4.
  } catch (error) {
    return Promise.reject(ended(call, error));
  }
  let result: unknown;
  try {
    result = startAttempt(plan, call, args, 1); // 5.
    if (isThenable(result)) return decideAsync(plan, call, before, args, false, result);
  } catch (error) {
    return decideAsync(plan, call, before, args, true, error);
  }
  try {
    call.endExecute();
    return Promise.resolve(answer(call, PLAIN_PATH, CONTINUE, result)); // 7: no after_tool hook, Continue.
  } catch (error) {
    return Promise.reject(ended(call, error));
  }
}

/**
 * The steps of {@link decide} from where it handed the call over: from step 1's decision (maybe still a
 * promise), or with the first attempt already started with `started` arguments — `value` what it
 * returned (a thenable) or, when `threw`, what it threw. Passed as parameters: no object per hand-over.
 */
async function decideAsync<S>(
  plan: CallPlan<S>,
  call: ToolCall<S>,
  decided: HookDecision | Promise<HookDecision>,
  started: ToolArgs | undefined,
  threw: boolean,
  value: unknown,
): Promise<unknown> {
  const path = plan.retry === undefined ? PLAIN_PATH : new RetryPath(plan.retry);
  try {
    let args: ToolArgs;
    let first = started !== undefined;
    if (started === undefined) {
      const before = decided instanceof Promise ? await decided : decided;
      if (handedOff(call)) return handToFramework(call, before); // 2.
      if (before.kind === 'skip') return await skipTool(call, path, plan.args, before); // 3.
      args = applyBefore(call, path, plan.args, before); // 4.
    } else args = started;
    // The duration is for after_tool hooks only: without any, the clock is not read.
    const timed = call.timesExecution;
    for (let attempt = 1; ; attempt += 1) {
      const began = timed ? path.clockStart() : 0;
      let result: unknown;
      try {
        // 5. A tool that returns its result (not a promise) is not awaited: no promise and no turn.
        if (!first) result = startAttempt(plan, call, args, attempt);
        else {
          first = false;
          if (threw) throw value;
          result = value;
        }
        if (isThenable(result)) result = await result;
        call.endExecute();
      } catch (error) {
        // 6.
        const decision = await onFailure(plan, call, args, error, attempt);
        const again = path.again(plan, call, args, decision, error, attempt);
        if (again === undefined) return await path.settle(call, args, decision, error, began, attempt);
        args = again;
        continue;
      }
      // 7.
      let after = call.after(args, result, timed ? performance.now() - began : 0, attempt);
      if (after instanceof Promise) after = await after;
      const again = reexecution(plan, call, args, after);
      if (again === undefined) return answer(call, path, after, result);
      args = again;
    }
  } catch (error) {
    throw ended(call, error);
  }
}

/** Ends a call that failed with `error` (unless it stopped for its framework, which ended it as pending); returns the error. */
function ended<S>(call: ToolCall<S>, error: unknown): unknown {
  if (!endedAsPending(call)) call.threw(error);
  return error;
}

/** Step 3: the stub of a before_tool Skip (or a denial) through after_tool, whose Abort still raises; nothing re-executes a tool that never ran. */
function skipTool<S>(call: ToolCall<S>, path: CallPath, args: ToolArgs, before: Skip): Promise<unknown> {
  call.outcome = call.approval === undefined ? 'skipped' : 'denied';
  return answerAfter(call, path, args, path.stub(before), 0, 1);
}

/**
 * Step 4: what before_tool decided takes effect — the approval's effective decision when one settled
 * (approved: an approver's edits are not a Redirect, they apply after it). Returns what the tool runs with.
 */
function applyBefore<S>(call: ToolCall<S>, path: CallPath, args: ToolArgs, before: HookDecision): ToolArgs {
  const approval = call.approval;
  const effective = approval === undefined ? before : approval.effective;
  const runWith = effective.kind === 'redirect' ? path.redirect(call, args, effective) : args;
  const edits = approval?.edits;
  return edits === undefined ? runWith : path.edit(call, runWith, edits);
}

/**
 * Step 5: starts attempt `attempt` of the tool the call runs now (a Redirect's, when it named one).
 * Returns what the executor returns, settled by the loop in its own frame: a call costs no promise of its own.
 */
function startAttempt<S>(plan: CallPlan<S>, call: ToolCall<S>, args: ToolArgs, attempt: number): unknown {
  const toolName = call.effectiveToolName;
  const executor = toolName === plan.toolName ? plan.execute : (plan.redirectExecutor(toolName) ?? plan.execute);
  return call.startExecute(toolName, attempt, executor, args, executorContext(toolName, attempt, plan.signal));
}

/**
 * Step 6: a failed attempt goes to on_error, whose decision this returns. A framework's suspension
 * (ended as pending) and a HookAbortError from the tool are thrown on, with no on_error.
 */
function onFailure<S>(plan: CallPlan<S>, call: ToolCall<S>, args: ToolArgs, error: unknown, attempt: number): Promise<HookDecision> {
  if (suspends(plan, error)) throw suspendedInTool(call, error);
  call.failExecute(error);
  if (error instanceof HookAbortError) throw error;
  return call.onError(args, error, attempt);
}

/** Step 7: after an after_tool Redirect, while re-executions are left, the arguments the tool runs with again; else undefined. */
function reexecution<S>(plan: CallPlan<S>, call: ToolCall<S>, args: ToolArgs, after: HookDecision): ToolArgs | undefined {
  if (after.kind !== 'redirect' || call.reexecutions >= plan.maxReexecutions) return undefined;
  call.reexecutions += 1;
  return applyRedirect(call, args, after);
}

function executorContext(toolName: string, attempt: number, signal: AbortSignal | undefined): ExecutorContext {
  return signal === undefined ? { toolName, attempt } : { toolName, attempt, signal };
}
