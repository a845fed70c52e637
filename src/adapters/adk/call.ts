/**
 * One ADK tool call, run by the plugin's `beforeToolCallback` through the tool-call path executeTool
 * takes (the only place this adapter does):
 * 1. the arguments are read once, into a plain snapshot that hooks and the tool both get;
 * 2. the call plan: the requested tool, the agent's other tools as Redirect targets, the hand-off of
 *    an Ask to ADK's confirmation (`approvals: 'framework'`);
 * 3. the executor runs a tool as ADK would: the agent's own `beforeToolCallback`s first (an answer
 *    stands for the tool's result), then `tool.runAsync` — a failure goes to the other plugins'
 *    `onToolErrorCallback`s, whose answer stands for the result as in ADK;
 * 4. what the call ended with becomes the response ADK gives the model, shaped as ADK shapes one.
 * @internal
 */
import { HookAbortError } from '../../errors.js';
import type { HandoffRequest } from '../../runner/handoff.js';
import type { Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { ToolArgs } from '../../hook.js';
import type { AdapterSettings } from '../settings.js';
import { argsSnapshot } from '../args-snapshot.js';
import { setCallPlan } from '../call-plan.js';
import type { AdkApprovals } from './approvals.js';
import { AWAITING_CONFIRMATION } from './approvals.js';
import type { AdkTool, AdkToolCallbackParams, AdkToolContext } from './types.js';

/** A function response as ADK gives it to the model. */
export type AdkResponse = Record<string, unknown>;

/** Runs one call through the hooks; never rejects: every ending is a response for the model. */
export async function runAdkCall<S>(settings: AdapterSettings<S, AdkApprovals>, params: AdkToolCallbackParams): Promise<AdkResponse> {
  const { tool, toolContext } = params;
  const args = argsSnapshot(params.toolArgs);
  const tools = toolsOf(tool, toolContext);
  const state: { pending?: HandoffRequest; refused?: string } = {};
  const handoff = settings.approvals?.handoff(tool.name, args, toolContext, state);
  const executorOf = (target: AdkTool): Executor => (callArgs) => runTool(target, callArgs, toolContext);
  const signal = toolContext.invocationContext?.abortSignal;
  const call = { toolName: tool.name, args, callId: toolContext.functionCallId, toolDescription: tool.description, handoff, signal: signal instanceof AbortSignal ? signal : undefined };
  try {
    const result = await runToolCall(setCallPlan(settings, tools, tool, executorOf, call));
    // The Ask went to ADK's confirmation: what the model reads while it waits, as ADK's own FunctionTool says it.
    if (state.pending !== undefined) return { error: AWAITING_CONFIRMATION };
    return responseOf(result);
  } catch (error) {
    if (error instanceof HookAbortError) {
      const by = error.sourceHook === undefined ? '' : ` by ${error.sourceHook}`;
      return { error: `This tool call was aborted${by}. Reason: ${error.reason}` };
    }
    // As ADK reports a tool's error to the model when no plugin recovered it.
    return { error: error instanceof Error ? error.message : error };
  }
}

/**
 * The agent's tools by name (Redirect targets), the requested one always among them: the tools of its
 * `tools` list, read as they are — a toolset's tools are not listed (that may ask a server, on every call).
 */
function toolsOf(tool: AdkTool, toolContext: AdkToolContext): Map<string, AdkTool> {
  const tools = new Map<string, AdkTool>();
  const listed = toolContext.invocationContext?.agent?.tools;
  if (Array.isArray(listed)) for (const entry of listed as unknown[]) if (isTool(entry)) tools.set(entry.name, entry);
  tools.set(tool.name, tool);
  return tools;
}

function isTool(value: unknown): value is AdkTool {
  return value !== null && typeof value === 'object' && typeof (value as AdkTool).name === 'string' && typeof (value as AdkTool).runAsync === 'function';
}

/** Runs `tool` as ADK's own function-call step would after the plugins' before callbacks. */
async function runTool(tool: AdkTool, args: ToolArgs, toolContext: AdkToolContext): Promise<unknown> {
  const invocation = toolContext.invocationContext;
  for (const callback of invocation?.agent?.canonicalBeforeToolCallbacks ?? []) {
    const answer: unknown = await callback({ tool, args, context: toolContext });
    if (answer !== undefined && answer !== null) return answer;
  }
  try {
    return await tool.runAsync({ args, toolContext });
  } catch (error) {
    const manager = invocation?.pluginManager;
    if (!(error instanceof Error) || manager === undefined) throw error;
    const recovered = await manager.runOnToolErrorCallback({ tool, toolArgs: args, toolContext, error });
    if (recovered === undefined || recovered === null) throw error;
    return recovered;
  }
}

/** A result as ADK shapes a function response: an object as it is, an array as `results`, anything else as `result`. */
function responseOf(value: unknown): AdkResponse {
  if (Array.isArray(value)) return { results: value };
  if (value !== null && typeof value === 'object') return value as AdkResponse;
  return { result: value };
}
