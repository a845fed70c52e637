/**
 * The one place the LangChain adapter runs a tool call (through the path executeTool takes), and the conversions
 * between what LangChain's tools produce (ToolMessage, Command, raw values) and what hooks see.
 * @internal
 */
import { ToolMessage } from '@langchain/core/messages';
import type { Approver, ToolArgs } from '../../hook.js';
import type { Executor } from '../../flows/execute-tool.js';
import type { RunnerCore } from '../../runner/core.js';
import { isPlainObject } from '../../decisions.js';
import type { ApprovalHandoff } from '../../runner/handoff.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { CallLimits } from '../settings.js';
import { redirectTargetsSharing } from '../redirect-targets.js';
import { toText } from '../json-text.js';
import { isGraphInterrupt } from './approvals.js';

/** Runs one tool of the agent (the requested one or a redirect target) with the given args. */
type RunTool = (toolName: string, args: ToolArgs, attempt: number) => Promise<unknown>;

/** Everything one hooked LangChain tool call needs. */
interface LangChainCall<S> {
  readonly core: RunnerCore<S>;
  readonly toolName: string;
  readonly args: ToolArgs;
  readonly state: S | undefined;
  readonly callId: string | undefined;
  readonly description: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly limits: CallLimits;
  /** Names of the other tools a Redirect's `newTool` may name; read when a hook redirects. */
  readonly redirectTargetNames: () => Iterable<string>;
  readonly run: RunTool;
  /** The middleware's way to ask (a LangGraph interrupt; absent: the runner's approver) and the hand-off. */
  readonly approval: { readonly approver?: Approver | undefined; readonly handoff: ApprovalHandoff };
}

/**
 * Runs a call through the tool-call path; the only place this adapter does. Hooks see the
 * content of a ToolMessage the tool produced (what the model reads) as the result; what the call
 * returns is mapped back to that message when it stands.
 */
export async function runHookedCall<S>(call: LangChainCall<S>): Promise<unknown> {
  let last: { readonly message: ToolMessage } | undefined;
  const executor: Executor = async (args, ctx) => {
    const output = await call.run(ctx.toolName, args, ctx.attempt);
    if (ToolMessage.isInstance(output)) {
      last = { message: output };
      return output.content;
    }
    last = undefined;
    return output;
  };
  const result = await runToolCall<S>({
    core: call.core,
    toolName: call.toolName,
    args: call.args,
    state: call.state as S,
    execute: executor,
    ...redirectTargetsSharing(call.toolName, call.redirectTargetNames, executor),
    callId: call.callId,
    toolDescription: call.description,
    signal: call.signal,
    ...call.limits,
    ...call.approval,
  });
  return last !== undefined && Object.is(result, last.message.content) ? last.message : result;
}

/**
 * The hand-off of a call whose Ask the runner's approver decides: only LangGraph's suspensions (an
 * `interrupt()` in the tool, or in the approver), which end the call as `pending` and reach LangGraph.
 */
export const LANGGRAPH_SUSPENDS: { readonly handoff: ApprovalHandoff } = Object.freeze({ handoff: Object.freeze({ isSuspension: isGraphInterrupt }) });

/**
 * A ToolMessage for a result hooks produced (a stub, a replacement, a denial): a string as is,
 * anything else as JSON. `status: 'error'` marks a call that did not run (a denied approval).
 */
export function toToolMessage(result: unknown, toolCallId: string, toolName: string, status?: 'error'): unknown {
  if (ToolMessage.isInstance(result) || isCommand(result)) return result;
  return new ToolMessage({ content: toText(result), tool_call_id: toolCallId, name: toolName, ...(status === undefined ? {} : { status }) });
}

/** LangGraph's Command (a tool's state update), recognised without loading LangGraph. */
function isCommand(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !isPlainObject(value) && (value as { lg_name?: unknown }).lg_name === 'Command';
}
