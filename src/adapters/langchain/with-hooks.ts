/**
 * withHooks: LangChain tools whose `invoke` runs through executeTool, for code that calls tools
 * without `createAgent` (LangGraph's ToolNode, direct `tool.invoke`).
 */
import { typeName } from '../../internal/describe.js';
import { isPlainObject } from '../../decisions.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { ToolArgs } from '../../hook.js';
import type { AdapterSettings } from '../settings.js';
import { readLimits, requireOptionsObject, requireRunner } from '../settings.js';
import { LANGGRAPH_SUSPENDS, runHookedCall, toToolMessage } from './call.js';
import { describeTool, nameOf } from './tools.js';
import type { LangChainWithHooksOptions } from './types.js';

type Invoke = (input: unknown, config?: unknown) => Promise<unknown>;

/** What every call through the wrapped tools shares (no approvals: an Ask goes to the runner's approver). */
interface Settings<S> extends Pick<AdapterSettings<S, never>, 'core' | 'state' | 'limits'> {
  /** The original tools by name: the redirect targets. */
  readonly originals: ReadonlyMap<string, { readonly tool: object; readonly invoke: Invoke }>;
}

/**
 * Wraps LangChain tools (`tool()`, StructuredTool, DynamicStructuredTool, DynamicTool) so that each
 * `invoke` runs through the hooks, with the tool's name, the call id of a ToolCall input and the
 * tool's description. Decisions act as with {@link toolhooksMiddleware}; a `newTool` Redirect runs
 * another tool of the same array. Given a ToolCall (what ToolNode passes), a hooked tool returns a
 * ToolMessage (a stub becomes its content, a string as it is, anything else as JSON); given plain
 * args, it returns what the tool returns, or the stub itself. An Abort rejects `invoke` with the
 * {@link HookAbortError}.
 *
 * Each tool is a new object whose prototype is the original tool: name, description, schema and
 * every other property read through to it; the originals are not modified.
 *
 * @example
 * ```ts
 * import { ToolNode } from '@langchain/langgraph/prebuilt';
 * import { withHooks } from 'toolhooks/langchain';
 *
 * const tools = withHooks([search, readFile], runner);
 * const toolNode = new ToolNode(tools);
 * const text = await tools[0].invoke({ q: 'otel' }); // direct calls are hooked too
 * ```
 */
export function withHooks<const T extends readonly object[], S = unknown>(tools: T, runner: HookRunner<S>, options?: LangChainWithHooksOptions<S>): T {
  const where = 'withHooks';
  if (!Array.isArray(tools)) throw new TypeError(`${where}: tools must be an array of LangChain tools, got ${typeName(tools)}`);
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'maxRetries', 'maxReexecutions']);
  const originals = new Map<string, { tool: object; invoke: Invoke }>();
  (tools as readonly unknown[]).forEach((tool, index) => {
    const name = nameOf(tool, `${where}: tools[${index}]`);
    const invoke = (tool as { invoke?: unknown }).invoke;
    if (typeof invoke !== 'function') throw new TypeError(`${where}: tools[${index}].invoke must be a function, got ${typeName(invoke)}`);
    originals.set(name, { tool: tool as object, invoke: invoke as Invoke });
  });
  const settings: Settings<S> = {
    core,
    state: raw.state as S | undefined,
    limits: readLimits(raw, where),
    originals,
  };
  return tools.map((tool: object) => {
    const name = (tool as { name: string }).name;
    const hooked = Object.create(tool) as object;
    Object.defineProperty(hooked, 'invoke', {
      value: (input: unknown, config?: unknown) => invokeHooked(name, tool, input, config, settings),
      enumerable: false,
      writable: true,
      configurable: true,
    });
    return hooked;
  }) as unknown as T;
}

interface ToolCallInput {
  readonly id?: unknown;
  readonly name: string;
  readonly args: ToolArgs;
  readonly type: 'tool_call';
}

function isToolCallInput(input: unknown): input is ToolCallInput {
  return isPlainObject(input) && input.type === 'tool_call' && typeof input.name === 'string' && isPlainObject(input.args);
}

async function invokeHooked<S>(name: string, tool: object, input: unknown, config: unknown, settings: Settings<S>): Promise<unknown> {
  const toolCall = isToolCallInput(input) ? input : undefined;
  // Hooks always see an object: a DynamicTool's string input reaches them as `{ input }`.
  const wrapped = toolCall === undefined && !isPlainObject(input);
  const args: ToolArgs = toolCall !== undefined ? toolCall.args : wrapped ? { input } : (input as ToolArgs);
  const { signal, configCallId } = readConfig(config);
  const callId = typeof toolCall?.id === 'string' ? toolCall.id : configCallId;
  const run = (toolName: string, callArgs: ToolArgs): Promise<unknown> => {
    const target = settings.originals.get(toolName);
    if (target === undefined) return Promise.reject(new Error(`withHooks: no tool named ${JSON.stringify(toolName)} in the wrapped tools`));
    const callInput = toolCall !== undefined ? { ...toolCall, name: toolName, args: callArgs } : wrapped ? callArgs.input : callArgs;
    return target.invoke.call(target.tool, callInput, config);
  };
  const result = await runHookedCall<S>({
    core: settings.core,
    toolName: name,
    args,
    state: settings.state,
    callId,
    description: describeTool(tool),
    signal,
    limits: settings.limits,
    redirectTargetNames: () => settings.originals.keys(),
    run,
    approval: LANGGRAPH_SUSPENDS,
  });
  return toolCall === undefined ? result : toToolMessage(result, callId ?? '', name);
}

/** The RunnableConfig fields the adapter uses, read defensively. */
function readConfig(config: unknown): { signal?: AbortSignal; configCallId?: string } {
  if (config === null || typeof config !== 'object') return {};
  const { signal, toolCall } = config as { signal?: unknown; toolCall?: { id?: unknown } };
  const id = toolCall !== null && typeof toolCall === 'object' ? toolCall.id : undefined;
  return {
    ...(signal instanceof AbortSignal ? { signal } : {}),
    ...(typeof id === 'string' ? { configCallId: id } : {}),
  };
}
