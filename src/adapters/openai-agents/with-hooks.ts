/**
 * withHooks: an OpenAI Agents SDK agent's function tools whose `invoke` runs through the hooks, so
 * decisions take effect inside `run()` / `Runner.run()` and every call gets its `execute_tool` span.
 */
import { typeName } from '../../internal/describe.js';
import { isPlainObject } from '../../decisions.js';
import type { ToolArgs } from '../../hook.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { RunnerCore } from '../../runner/core.js';
import type { Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { CallLimits } from '../shared.js';
import { copyWith, redirectTargetsAmong, readLimits, requireOptionsObject, requireRunner } from '../shared.js';
import { recordRejectedCall } from '../rejected-call.js';
import { ERROR_TYPE } from '../../telemetry/error-type.js';

/**
 * Options of {@link withHooks}.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'ops', tools: withHooks([shell, search], runner, { state: { userId }, maxRetries: 2 }) });
 * ```
 */
export interface WithHooksOptions<S = unknown> {
  /** Agent state passed to every hook. */
  state?: S;
  /** How many times an on_error Redirect may retry a tool. Default 1. */
  maxRetries?: number;
  /** How many times an after_tool Redirect may re-execute a tool. Default 1. */
  maxReexecutions?: number;
}

/** The versions whose function tools this adapter knows (their shape is checked when wrapping). */
export const SUPPORTED_AGENTS_RANGE = '@openai/agents >=0.20.0 <0.21';

type Invoke = (runContext: unknown, input: string, details?: unknown) => Promise<unknown>;

/** A function tool of the array, with the object it belongs to. */
interface FunctionToolParts {
  readonly tool: object;
  readonly name: string;
  readonly invoke: Invoke;
  readonly description: string | undefined;
}

interface Settings<S> {
  readonly core: RunnerCore<S>;
  readonly state: S | undefined;
  readonly limits: CallLimits;
  readonly tools: ReadonlyMap<string, FunctionToolParts>;
}

/**
 * Wraps an Agent's tools (the `tools` array of `new Agent({ … })`) so that each function tool's
 * `invoke` runs through the hooks, with the tool's `name` as the tool name, the model's arguments
 * (parsed from their JSON) as the args and the call's `callId` as `gen_ai.tool.call.id`:
 * - before_tool Skip: the tool does not run; the stub is the tool output the model reads;
 * - Redirect: `newArgs` are merged into the arguments (sent to the tool as JSON, validated by the
 *   tool's own schema); `newTool` runs another function tool of the same array;
 * - Abort: `invoke` rejects with the {@link HookAbortError}; the SDK ends the run: `run()` rejects
 *   with its `ToolCallError`, whose `error` is the HookAbortError;
 * - afterTool Redirect re-executes; onError sees what `invoke` throws — with the SDK's default error
 *   function a failing tool already answers the model with the SDK's error text, so onError hooks see
 *   only tools built with `errorFunction: null`.
 * Arguments that are not JSON are recorded as a `failed` call (no hook runs) and handed to the
 * tool's own `invoke`, so the model reads the SDK's own error. Hosted and other non-function tools,
 * and every other property of a function tool (schema, `needsApproval`, guardrails, `isEnabled`…),
 * are kept as they are.
 *
 * @example
 * ```ts
 * import { Agent, run, tool } from '@openai/agents';
 * import { HookRunner, abort } from 'toolhooks';
 * import { withHooks } from 'toolhooks/openai-agents';
 *
 * const runner = new HookRunner([{ name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (/rm -rf/.test(String(args.cmd)) ? abort('destructive') : undefined) }]);
 * const agent = new Agent({ name: 'ops', instructions: '…', tools: withHooks([shell], runner) });
 * const result = await run(agent, 'clean up /tmp');
 * ```
 */
export function withHooks<T extends readonly unknown[], S = unknown>(tools: T, runner: HookRunner<S>, options?: WithHooksOptions<S>): T {
  const where = 'withHooks';
  if (!Array.isArray(tools)) {
    throw new TypeError(`${where}: tools must be an Agent's array of tools (${SUPPORTED_AGENTS_RANGE}), got ${typeName(tools)}`);
  }
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'maxRetries', 'maxReexecutions']);
  const parts = (tools as readonly unknown[]).map((tool, index) => functionToolParts(tool, index, where));
  const byName = new Map<string, FunctionToolParts>();
  for (const part of parts) if (part !== undefined) byName.set(part.name, part);
  const settings: Settings<S> = { core, state: raw.state as S | undefined, limits: readLimits(raw, where), tools: byName };
  return (tools as readonly unknown[]).map((tool, index) => {
    const part = parts[index];
    return part === undefined ? tool : copyWith(part.tool, 'invoke', hookedInvoke(part, settings));
  }) as unknown as T;
}

/** A function tool's parts; undefined for other tools; a TypeError for a shape this SDK line does not have. */
function functionToolParts(tool: unknown, index: number, where: string): FunctionToolParts | undefined {
  if (tool === null || typeof tool !== 'object') {
    throw new TypeError(`${where}: tools[${index}] must be a tool object, got ${typeName(tool)}`);
  }
  const { type, name, invoke, needsApproval, description } = tool as Record<string, unknown>;
  if (type !== 'function') {
    if (typeof type === 'string') return undefined; // hosted, computer, shell…: the SDK runs them itself
    throw new TypeError(`${where}: tools[${index}] is not a tool of ${SUPPORTED_AGENTS_RANGE} (no type), got ${typeName(tool)}`);
  }
  if (typeof name !== 'string' || typeof invoke !== 'function' || typeof needsApproval !== 'function') {
    throw new TypeError(
      `${where}: tools[${index}] is a function tool of another version of the Agents SDK (toolhooks/openai-agents needs name, invoke(runContext, input, details) and needsApproval, as in ${SUPPORTED_AGENTS_RANGE})`,
    );
  }
  return { tool, name, invoke: invoke as Invoke, description: typeof description === 'string' ? description : undefined };
}

function hookedInvoke<S>(parts: FunctionToolParts, settings: Settings<S>): Invoke {
  return async (runContext, input, details) => {
    const callId = callIdOf(details);
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      await recordRejectedCall(settings.core, { toolName: parts.name, callId, input }, error);
      return parts.invoke.call(parts.tool, runContext, input, details);
    }
    const watched = watchParsing(details);
    const wrapped = !isPlainObject(parsed);
    const args: ToolArgs = isPlainObject(parsed) ? parsed : { input: parsed };
    const executorOf =
      (target: FunctionToolParts): Executor =>
      async (callArgs) => {
        watched.parsed = false;
        // Unchanged arguments go as the model sent them: the SDK reuses the input it already parsed.
        const sent = callArgs === args ? input : JSON.stringify(wrapped ? callArgs.input : callArgs);
        const output = await target.invoke.call(target.tool, runContext, sent, details);
        // The tool's schema refused the input: the output is the SDK's error text for the model.
        if (watched.known && !watched.parsed) throw new RejectedInputError(target.name, output);
        return output;
      };
    try {
      return await runCall(parts, settings, args, callId, details, executorOf);
    } catch (error) {
      if (error instanceof RejectedInputError) return error.output;
      throw error;
    }
  };
}

/** Runs one call through the hooks; `executorOf` invokes a tool of the array with the call's arguments. */
function runCall<S>(
  parts: FunctionToolParts,
  settings: Settings<S>,
  args: ToolArgs,
  callId: string | undefined,
  details: unknown,
  executorOf: (target: FunctionToolParts) => Executor,
): Promise<unknown> {
  return runToolCall<S>({
    core: settings.core,
    toolName: parts.name,
    args,
    state: settings.state as S,
    execute: executorOf(parts),
    ...redirectTargetsAmong(settings.tools, executorOf),
    callId,
    toolDescription: parts.description,
    signal: signalOf(details),
    ...settings.limits,
  });
}

/**
 * The tool's schema refused the (possibly redirected) input: the call is `failed` with this type, and
 * the model reads the SDK's own error text (`output`) as it would without hooks. Its message names
 * the tool only: the SDK's text may quote the input.
 */
class RejectedInputError extends Error {
  /** The SDK's own name for the failure (its `InvalidToolInputError`). @internal */
  readonly [ERROR_TYPE] = 'InvalidToolInputError';

  constructor(
    toolName: string,
    readonly output: unknown,
  ) {
    super(`the input of "${toolName}" does not match its parameters schema`);
    this.name = 'RejectedInputError';
  }
}

/** The SDK's callback, called with the parsed input just before the tool's `execute` runs. */
const PARSED_INPUT_CALLBACK = 'openai.agents.functionToolParsedInputCallback';

/**
 * The invocation details with the SDK's parsed-input callback observed, so the adapter can tell a
 * tool that ran from input its schema refused. `known` is false when the details carry no such
 * callback (another runner, another SDK version): then nothing is told apart.
 */
function watchParsing(details: unknown): { known: boolean; parsed: boolean } {
  const watched = { known: false, parsed: false };
  if (details === null || typeof details !== 'object') return watched;
  const key = Object.getOwnPropertySymbols(details).find((symbol) => symbol.description === PARSED_INPUT_CALLBACK);
  const callback: unknown = key === undefined ? undefined : (details as Record<symbol, unknown>)[key];
  if (key === undefined || typeof callback !== 'function') return watched;
  // The details are the SDK's per-invocation object (its WeakMaps key on it, so it is not copied).
  (details as Record<symbol, unknown>)[key] = (value: unknown) => {
    watched.parsed = true;
    return (callback as (value: unknown) => unknown)(value);
  };
  watched.known = true;
  return watched;
}

function callIdOf(details: unknown): string | undefined {
  const toolCall = details !== null && typeof details === 'object' ? (details as { toolCall?: unknown }).toolCall : undefined;
  const callId = toolCall !== null && typeof toolCall === 'object' ? (toolCall as { callId?: unknown }).callId : undefined;
  return typeof callId === 'string' ? callId : undefined;
}

function signalOf(details: unknown): AbortSignal | undefined {
  const signal = details !== null && typeof details === 'object' ? (details as { signal?: unknown }).signal : undefined;
  return signal instanceof AbortSignal ? signal : undefined;
}
