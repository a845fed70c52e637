/**
 * One Strands tool call, run inside the `stream()` of the tool the handler selected for it — where
 * Strands runs a tool, inside its own `execute_tool` span when its tracing records:
 * 1. the input is read once, into a plain snapshot that hooks and the tool both get;
 * 2. the call plan: the requested tool, the agent's other tools as Redirect targets (looked up in its
 *    tool registry when a hook names one), Strands' `execute_tool` span as the call's span, the Ask
 *    handed to a Strands interrupt (`approvals: 'framework'`);
 * 3. the executor runs a tool's own `stream()` and reads its result (an error result is the tool's error);
 * 4. what the call ended with becomes the `ToolResultBlock` the model reads: the tool's own when the
 *    hooks kept it.
 * @internal
 */
import { HookAbortError } from '../../errors.js';
import type { Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { ToolArgs } from '../../hook.js';
import { frameworkToolSpan } from '../framework-span.js';
import type { AdapterSettings } from '../settings.js';
import type { ToolsByName } from '../redirect-targets.js';
import { argsSnapshot } from '../args-snapshot.js';
import { setCallPlan } from '../call-plan.js';
import type { StrandsApprovals } from './approvals.js';
import { isResultBlock, resultBlock, valueOf } from './blocks.js';
import type { StrandsTool, StrandsToolContext, StrandsToolResultBlock } from './types.js';

/** What one call's tool runs returned, so the tool's own result block reaches the model when the hooks kept it. */
interface Kept {
  value?: unknown;
  block?: StrandsToolResultBlock;
  error?: unknown;
}

/**
 * Runs one call through the hooks; never rejects except with Strands' own interrupt (an Ask handed to
 * Strands, or the tool's): every other ending is a result for the model. `events` gets what the tools streamed.
 */
export async function runStrandsCall<S>(settings: AdapterSettings<S, StrandsApprovals>, tool: StrandsTool, toolContext: StrandsToolContext, events: unknown[]): Promise<StrandsToolResultBlock> {
  const { toolUse } = toolContext;
  const args = argsSnapshot(toolUse.input);
  const kept: Kept = {};
  const executorOf = (target: StrandsTool): Executor => (callArgs) => runTool(target, callArgs, toolContext, kept, events);
  const approval = settings.approvals?.forCall(toolContext);
  const call = {
    toolName: tool.name,
    args,
    callId: toolUse.toolUseId,
    toolDescription: tool.description,
    signal: toolContext.cancelSignal instanceof AbortSignal ? toolContext.cancelSignal : undefined,
    span: frameworkToolSpan(toolUse.name, toolUse.toolUseId),
    ...approval,
  };
  let result: unknown;
  try {
    result = await runToolCall(setCallPlan(settings, registryTools(tool, toolContext), tool, executorOf, call));
  } catch (error) {
    if (approval?.handoff.isSuspension(error) === true) throw error;
    if (kept.block !== undefined && error === kept.error) return kept.block;
    if (error instanceof HookAbortError) {
      const by = error.sourceHook === undefined ? '' : ` by ${error.sourceHook}`;
      return resultBlock(toolUse.toolUseId, 'error', `This tool call was aborted${by}. Reason: ${error.reason}`, error);
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    return resultBlock(toolUse.toolUseId, 'error', failure.message, failure);
  }
  if (kept.block !== undefined && 'value' in kept && Object.is(result, kept.value)) return kept.block;
  if (isResultBlock(result)) return result;
  return resultBlock(toolUse.toolUseId, 'success', result);
}

/** The agent's tools by name, the requested one among them: a Redirect names one, looked up then. */
function registryTools(tool: StrandsTool, toolContext: StrandsToolContext): ToolsByName<StrandsTool> {
  const registry = toolContext.agent?.toolRegistry;
  const get = (name: string): StrandsTool | undefined => (name === tool.name ? tool : registry?.get(name));
  return { get, has: (name) => get(name) !== undefined };
}

/**
 * Runs `tool` as Strands would (its `stream()` with the call's context and these arguments), drains
 * what it streams into `events`, and gives the hooks its result's value; an error result is thrown as the tool's error.
 */
async function runTool(tool: StrandsTool, args: ToolArgs, toolContext: StrandsToolContext, kept: Kept, events: unknown[]): Promise<unknown> {
  const context: StrandsToolContext = Object.assign(Object.create(Object.getPrototypeOf(toolContext) as object | null) as object, toolContext, {
    toolUse: { ...toolContext.toolUse, name: tool.name, input: args },
  }) as StrandsToolContext;
  const generator = tool.stream(context);
  let next = await generator.next();
  while (next.done !== true) {
    events.push(next.value);
    next = await generator.next();
  }
  const block = next.value;
  if (!isResultBlock(block)) throw new Error(`Tool '${tool.name}' did not return a result`);
  if (block.status === 'error') {
    const error = block.error ?? new Error(textOf(block));
    kept.block = block;
    kept.error = error;
    throw error;
  }
  const value = valueOf(block);
  kept.block = block;
  kept.value = value;
  delete kept.error;
  return value;
}

function textOf(block: StrandsToolResultBlock): string {
  return block.content.map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part.json ?? null))).join('\n');
}
