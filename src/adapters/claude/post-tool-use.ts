/**
 * PostToolUse / PostToolUseFailure / PostToolBatch: how a call ends. A call PreToolUse let through
 * settles with the SDK's report (after_tool / on_error run; a Replace becomes `updatedToolOutput`). A
 * call whose Ask went to the SDK's permission prompt (`approvals: 'ask'`) is continued here, now that
 * the outcome is known: PostToolUse / PostToolUseFailure mean it was approved and ran, a PostToolBatch
 * listing it without either means it was denied.
 * @internal
 */
import { isPlainObject } from '../../decisions.js';
import { HookAbortError } from '../../errors.js';
import type { ApprovalResponse, ToolArgs } from '../../hook.js';
import { warnVisibly } from '../../telemetry/warn-once.js';
import { toText } from '../json-text.js';
import { askedInOf, goesOn } from '../approval-ledger.js';
import type { AskedCall } from './asked.js';
import type { Settings } from './call.js';
import { callTool, idOf, sameJson, stop } from './call.js';
import { ClaudeToolError } from './tool-error.js';
import type { ClaudeHookInput, ClaudeHookOutput } from './types.js';

/** PostToolUse: the tool ran and `input.tool_response` is its output. */
export function afterTool<S>(input: ClaudeHookInput, toolUseID: string | undefined, settings: Settings<S>): Promise<ClaudeHookOutput> {
  const id = idOf(input, toolUseID) ?? '';
  const response = input.tool_response;
  const asked = settings.asked.take(id);
  const done = asked === undefined ? settings.pending.succeed(id, response) : continueAsked(settings, id, asked, { approved: approvedAs(asked, input.tool_input), output: () => response });
  return ended(done, (result) => (result === response ? {} : replaced(settings, asked?.toolName ?? input.tool_name ?? 'unknown', result, response)));
}

/** PostToolUseFailure: the tool ran and failed (or was interrupted). */
export function afterFailure<S>(input: ClaudeHookInput, toolUseID: string | undefined, settings: Settings<S>): Promise<ClaudeHookOutput> {
  const id = idOf(input, toolUseID) ?? '';
  const failure = input.is_interrupt === true ? 'interrupted' : 'failed';
  const message = input.error ?? 'the tool failed';
  const asked = settings.asked.take(id);
  const done =
    asked === undefined
      ? settings.pending.fail(id, failure, message)
      : continueAsked(settings, id, asked, {
          approved: approvedAs(asked, input.tool_input),
          output: () => {
            throw new ClaudeToolError(message, failure, asked.toolName);
          },
        });
  // A result after a failure means an onError Skip recovered it: its stub reaches the model as context.
  return ended(done, (result) => ({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: toText(result) } }));
}

/**
 * PostToolBatch: every call of the batch has resolved. A call listed here that had no PostToolUse /
 * PostToolUseFailure did not run: the SDK's permission flow denied it after PreToolUse (the user
 * said no, or no one could be asked); `tool_response` is the denial text the model read.
 */
export async function batchEnded<S>(input: ClaudeHookInput, settings: Settings<S>): Promise<ClaudeHookOutput> {
  const ends: Promise<ClaudeHookOutput>[] = [];
  for (const entry of input.tool_calls ?? []) {
    const id = idOf(entry, undefined);
    if (id === undefined) continue;
    const text = toText(entry.tool_response ?? 'permission denied');
    const asked = settings.asked.take(id);
    const done = asked === undefined ? settings.pending.fail(id, 'permission_denied', `the SDK did not run the tool: ${text}`) : continueAsked(settings, id, asked, { approved: { approved: false, reason: text } });
    ends.push(ended(done, () => ({})));
  }
  const outputs = await Promise.all(ends);
  return outputs.find((output) => output.continue === false) ?? {};
}

/**
 * The continuation of a call that asked through the SDK's prompt, now that the SDK says how it ended:
 * its hooks run again and the SDK's answer settles their Ask (on a `toolhooks.approval` span with
 * the tool_use_id, linked to the asking span). Approved, the executor gives what the tool did.
 */
function continueAsked<S>(settings: Settings<S>, id: string, asked: AskedCall, outcome: { approved: ApprovalResponse; output?: () => unknown }): Promise<unknown> | undefined {
  if (settings.approvals.kind !== 'ask') return undefined;
  // The SDK's own prompt answers the call it asked about: no digest to compare.
  const resolution = settings.approvals.ledger.resolve(id, undefined);
  if (!goesOn(resolution)) return undefined; // already resolved here: warned, nothing runs or is recorded again
  const output = outcome.output ?? (() => undefined);
  return callTool(settings, { ...asked, id }, () => output(), { id, answer: { response: outcome.approved, askedIn: askedInOf(resolution) } });
}

/** The approval of a call the SDK ran: with the input it ran with as edits when the prompt changed it. */
function approvedAs(asked: AskedCall, ran: unknown): ApprovalResponse {
  const args: ToolArgs = asked.wrapped || !isPlainObject(ran) ? { input: ran } : ran;
  return sameJson(args, asked.args) ? { approved: true } : { approved: true, args };
}

/** What a Post hook answers once the call's last phase has run: an Abort stops the agent. */
async function ended(done: Promise<unknown> | undefined, output: (result: unknown) => ClaudeHookOutput): Promise<ClaudeHookOutput> {
  if (done === undefined) return {}; // a call this adapter did not see start: nothing to record
  try {
    return output(await done);
  } catch (error) {
    return error instanceof HookAbortError ? stop(error, {}) : {};
  }
}

/**
 * An after_tool Replace: the output the model reads instead (`updatedToolOutput`). An MCP tool's
 * replacement is read as text (a string as is, anything else as JSON); the SDK keeps a built-in
 * tool's own output when the replacement is not shaped like it, which is warned once per tool.
 */
function replaced<S>(settings: Settings<S>, toolName: string, result: unknown, response: unknown): ClaudeHookOutput {
  if (!toolName.startsWith('mcp__') && !sameShape(result, response) && !settings.misshapen.has(toolName)) {
    settings.misshapen.add(toolName);
    warnVisibly(
      `toolhooks: claudeAgentHooks: a Replace for the built-in tool ${toolName} is not shaped like its output (tool_response); the Claude Agent SDK keeps the tool's own output then — replace the fields of tool_response instead`,
      'TOOLHOOKS_CLAUDE_REPLACE_SHAPE',
    );
  }
  return { hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: result } };
}

/** Whether `result` has every top-level field of `response` (a built-in tool's output object). */
function sameShape(result: unknown, response: unknown): boolean {
  if (!isPlainObject(response)) return typeof result === typeof response;
  return isPlainObject(result) && Object.keys(response).every((key) => key in result);
}
