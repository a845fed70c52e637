/**
 * PreToolUse: runs the call's before_tool phase and answers the SDK once it has decided. With
 * `approvals: 'ask'` or a DeferredApprovals, an Ask is handed to the SDK (`ask` / `defer`) and the
 * call ends as pending; a deferred call's resumed PreToolUse carries the app's answer.
 * @internal
 */
import { HookAbortError } from '../../errors.js';
import type { Executor } from '../../flows/execute-tool.js';
import type { ApprovalHandoff, HandoffRequest } from '../../runner/handoff.js';
import type { Resolution } from '../approval-ledger.js';
import { alreadyResolved, askedInOf, callDigest, notAskedAbout } from '../approval-ledger.js';
import { recordDeniedCall } from '../denied-call.js';
import type { RunnerCore } from '../../runner/core.js';
import { toText } from '../json-text.js';
import type { ClaudeCall, Settings } from './call.js';
import { callTool, deny, preToolUse, readCall, sameJson, stop, toolInput } from './call.js';
import type { ClaudeHookInput, ClaudeHookOutput } from './types.js';

type Answer = (output: ClaudeHookOutput) => void;

/** What PreToolUse answers, once the before_tool phase has decided. */
export function beforeTool<S>(input: ClaudeHookInput, toolUseID: string | undefined, settings: Settings<S>): Promise<ClaudeHookOutput> {
  const call = readCall(input, toolUseID);
  const { approvals } = settings;
  const id = call.id;
  if (approvals.kind === 'defer' && id !== undefined) {
    const response = approvals.state.take(id);
    if (response !== undefined) {
      // The resumed query: the app's answer settles the Ask; the approval id is resolved once only, and
      // only for the call that was deferred (a resumed call with other input or another tool is refused).
      const resolution = approvals.state.ledger.resolve(id, callDigest(call.toolName, call.args));
      if (resolution.kind === 'resolved') return Promise.resolve(deny(alreadyResolved(id)));
      if (resolution.kind === 'differs') return refused(call, settings, id, resolution);
      return run(call, settings, () => ({ id, answer: { response, askedIn: askedInOf(resolution) } }), response.approved);
    }
  }
  if (approvals.kind === 'runner' || id === undefined) return run(call, settings, () => undefined, false);
  return run(call, settings, (answer) => ({ id, onPending: (pending) => handOff(call, settings, pending, answer) }), false);
}

/** Pass 1 of a handed-off Ask: the SDK asks (`ask`) or the query stops for the app (`defer`). */
function handOff<S>(call: ClaudeCall, settings: Settings<S>, pending: HandoffRequest, answer: Answer): void {
  const { approvals } = settings;
  if (pending.toolName !== call.toolName) {
    // A Redirect to another tool before the Ask: the SDK would ask about (and run) the requested one.
    answer(deny(redirectReason(call, pending.toolName, pending.args)));
    return;
  }
  if (approvals.kind === 'defer') {
    approvals.state.asked(pending, callDigest(call.toolName, call.args));
    answer(preToolUse('defer', pending.reason));
    return;
  }
  if (approvals.kind !== 'ask' || call.id === undefined) return;
  approvals.ledger.asked(pending.id, undefined, pending.spanContext);
  settings.asked.add(call.id, { toolName: call.toolName, args: call.args, wrapped: call.wrapped, sessionId: call.sessionId });
  // A Redirect's newArgs before the Ask: the SDK asks about (and runs) the input the hooks chose.
  answer(preToolUse('ask', pending.reason, sameJson(pending.args, call.args) ? undefined : toolInput(call, pending.args)));
}

/**
 * Runs the call; `approved`: the app approved it (a deferred call's answer), so a call that goes on
 * is allowed (`permissionDecision: 'allow'`) rather than left to the SDK's permission rules.
 */
function run<S>(call: ClaudeCall, settings: Settings<S>, handoff: (answer: Answer) => ApprovalHandoff | undefined, approved: boolean): Promise<ClaudeHookOutput> {
  const { toolName, id, args } = call;
  return new Promise<ClaudeHookOutput>((answer) => {
    // The executor may run before executeTool returns (synchronous before phase): read it lazily.
    const running: { done?: Promise<unknown> } = {};
    const execute: Executor = (callArgs, ctx) => {
      if (ctx.toolName !== toolName) {
        const reason = redirectReason(call, ctx.toolName, callArgs);
        answer(deny(reason));
        return reason;
      }
      if (id === undefined) {
        answer({});
        throw new TypeError(`${toolName}: the PreToolUse input has no tool_use_id, so its PostToolUse cannot be matched; recorded as failed`);
      }
      // Continue passes the SDK's input object through untouched; a Redirect (or an approval's edits) made a new one.
      const updated = callArgs === args ? undefined : toolInput(call, callArgs);
      answer(approved ? preToolUse('allow', undefined, updated) : updated === undefined ? {} : preToolUse(undefined, undefined, updated));
      return settings.pending.wait(id, toolName, call.sessionId, () => running.done);
    };
    running.done = callTool(settings, call, execute, handoff(answer));
    running.done.then(
      // Settled before the tool ran: a before_tool Skip or a denial (an answer already given is kept).
      (stub) => answer(deny(toText(stub))),
      (error: unknown) => answer(error instanceof HookAbortError ? stop(error, deny(error.reason)) : {}),
    );
  });
}

/** A resumed call that is not the one deferred: recorded as `denied` without running its hooks, and denied. */
async function refused<S>(call: ClaudeCall, settings: Settings<S>, id: string, resolution: Resolution): Promise<ClaudeHookOutput> {
  await recordDeniedCall(settings.core as RunnerCore, { toolName: call.toolName, callId: id, approvalId: id, args: call.args, resolution });
  return deny(notAskedAbout(id));
}

function redirectReason(call: ClaudeCall, target: string, args: ClaudeCall['args']): string {
  return `Do not use ${call.toolName} for this; use the tool ${target} instead${args === call.args ? '' : ` with input ${toText(toolInput(call, args))}`}.`;
}
