/**
 * withHooks: an AI SDK tool set whose tools run through executeTool, so hook decisions take effect
 * inside `generateText` / `streamText` and every call gets its `execute_tool` span.
 */
import { typeName } from '../../internal/describe.js';
import { isPlainObject } from '../../decisions.js';
import { HookAbortError } from '../../errors.js';
import type { ToolArgs } from '../../hook.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { RunnerCore } from '../../runner/core.js';
import type { CallLimits } from '../shared.js';
import { copyWith, mapToolRecord, redirectTargetsAmong, readLimits, requireOptionsObject, requireRunner } from '../shared.js';
import { frameworkToolSpan } from './framework-span.js';
import type { Sink } from './stream.js';
import { isAsyncGeneratorFunction, settle, streamCall } from './stream.js';

/**
 * Options of {@link withHooks}.
 *
 * @example
 * ```ts
 * const abortRun = new AbortController();
 * const hooked = withHooks(tools, runner, { state: { userId }, abortRun, maxRetries: 2 });
 * await generateText({ model, tools: hooked, abortSignal: abortRun.signal, prompt });
 * ```
 */
export interface WithHooksOptions<S = unknown> {
  /** Agent state passed to every hook. */
  state?: S;
  /**
   * Stops the whole run when a hook aborts a call: the adapter calls `abortRun.abort(error)` with the
   * {@link HookAbortError}. Pass `abortRun.signal` as the `abortSignal` of `generateText` /
   * `streamText`: `generateText` then rejects with the HookAbortError before its next step,
   * `streamText` ends its stream with an `abort` part and its promises (`text`, `steps`…) reject.
   * Without it an Abort only fails that one call and the model sees the reason as the tool's error.
   */
  abortRun?: AbortController;
  /** How many times an on_error Redirect may retry a tool. Default 1. */
  maxRetries?: number;
  /** How many times an after_tool Redirect may re-execute a tool. Default 1. */
  maxReexecutions?: number;
}

type ExecuteFunction = (input: unknown, options?: unknown) => unknown;

/** A tool of the set that has an `execute` function, with the object it belongs to. */
interface Runnable {
  readonly tool: object;
  readonly execute: ExecuteFunction;
  /** The tool's description, for `gen_ai.tool.description`. */
  readonly description: string | undefined;
}

interface Settings<S> {
  readonly core: RunnerCore<S>;
  readonly state: S | undefined;
  readonly abortRun: AbortController | undefined;
  readonly limits: CallLimits;
  readonly runnables: ReadonlyMap<string, Runnable>;
}

/**
 * Wraps an AI SDK tool set (the `tools` of `generateText` / `streamText`) so that every tool's
 * `execute` runs through {@link executeTool} with the set's key as the tool name and the model's
 * `toolCallId` as `gen_ai.tool.call.id`:
 * - before_tool Skip: the tool does not run; the stub is the tool result the model sees;
 * - Redirect: `newArgs` are merged into the input; `newTool` runs another tool of the same set;
 * - Abort: the call fails with {@link HookAbortError}, which the SDK reports to the model as a tool
 *   error (its message is the reason; for a fail-closed hook's failure only `hook <name> failed`, the
 *   details staying in the error's `cause` and in the trace); with `abortRun`, the whole run stops too;
 * - onError and afterTool act as in executeTool (retry, recover with a stub, re-execute).
 *
 * The result has the same keys and type as `tools`. Each tool with an `execute` function is copied
 * with every other property intact (description, inputSchema, toModelOutput, …); tools without one
 * (provider-executed or client-side tools) are returned as they are. An input that is not a plain
 * object (a tool whose inputSchema is a string, an array…) reaches hooks as `{ input: value }`, and
 * the tool receives `args.input` again, so a Redirect changes it with `newArgs: { input: … }`.
 * An `async function*` execute still streams: its yielded values pass through as preliminary results.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { HookRunner, skip } from 'toolhooks';
 * import { withHooks } from 'toolhooks/ai';
 *
 * const runner = new HookRunner([{ name: 'cache', beforeTool: (tool, args) => cache.has(args) ? skip('cached', cache.get(args)) : undefined }]);
 * const result = await generateText({ model, tools: withHooks({ weather, search }, runner), stopWhen: stepCountIs(5), prompt });
 * ```
 */
export function withHooks<T extends object, S = unknown>(tools: T, runner: HookRunner<S>, options?: WithHooksOptions<S>): T {
  const where = 'withHooks';
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(`${where}: tools must be an AI SDK tool set (an object of tools by name), got ${typeName(tools)}`);
  }
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'abortRun', 'maxRetries', 'maxReexecutions']);
  if (raw.abortRun !== undefined && !(raw.abortRun instanceof AbortController)) {
    throw new TypeError(`${where}: options.abortRun must be an AbortController, got ${typeName(raw.abortRun)}`);
  }
  const runnables = new Map<string, Runnable>();
  for (const [name, tool] of Object.entries(tools as Record<string, unknown>)) {
    if (tool === null || typeof tool !== 'object') {
      throw new TypeError(`${where}: tools[${JSON.stringify(name)}] must be a tool object, got ${typeName(tool)}`);
    }
    const { execute, inputSchema, parameters } = tool as { execute?: unknown; inputSchema?: unknown; parameters?: unknown };
    if (inputSchema === undefined && parameters !== undefined) {
      // ai 4 tools (and ai 5 betas) describe their input as `parameters`; ai 6 and 7 as `inputSchema`.
      throw new TypeError(
        `${where}: tools[${JSON.stringify(name)}] is a tool of an older AI SDK (it has parameters, not inputSchema); toolhooks/ai supports ai >=6.0.0 <8`,
      );
    }
    if (execute === undefined || execute === null) continue;
    if (typeof execute !== 'function') {
      throw new TypeError(`${where}: tools[${JSON.stringify(name)}].execute must be a function, got ${typeName(execute)}`);
    }
    const description: unknown = (tool as { description?: unknown }).description;
    runnables.set(name, { tool, execute: execute as ExecuteFunction, description: typeof description === 'string' ? description : undefined });
  }
  const settings: Settings<S> = {
    core,
    state: raw.state as S | undefined,
    abortRun: raw.abortRun as AbortController | undefined,
    limits: readLimits(raw, where),
    runnables,
  };

  const hooked = mapToolRecord(tools, (name, tool) => {
    const runnable = runnables.get(name);
    return runnable === undefined ? undefined : copyWith(tool, 'execute', hookedExecute(name, runnable, settings));
  });
  return hooked as T;
}

/**
 * The hooked `execute` of one tool. It has the original's shape: an async generator function for a
 * streaming tool (the SDK decides to stream from the synchronous return value), a promise otherwise.
 */
function hookedExecute<S>(name: string, runnable: Runnable, settings: Settings<S>): ExecuteFunction {
  if (isAsyncGeneratorFunction(runnable.execute)) {
    return (input, sdkOptions) => streamCall((sink) => runCall(name, runnable, input, sdkOptions, settings, sink));
  }
  return (input, sdkOptions) => runCall(name, runnable, input, sdkOptions, settings, undefined);
}

async function runCall<S>(
  name: string,
  runnable: Runnable,
  input: unknown,
  sdkOptions: unknown,
  settings: Settings<S>,
  sink: Sink | undefined,
): Promise<unknown> {
  const wrapped = !isPlainObject(input);
  const args: ToolArgs = wrapped ? { input } : input;
  const executorOf =
    (target: Runnable): Executor =>
    (callArgs) =>
      settle(target.execute.call(target.tool, wrapped ? callArgs.input : callArgs, sdkOptions), sink);
  const { toolCallId, abortSignal } = readSdkOptions(sdkOptions);
  const runnables = settings.runnables;
  try {
    return await runToolCall<S>({
      core: settings.core,
      toolName: name,
      args,
      state: settings.state as S,
      execute: executorOf(runnable),
      ...redirectTargetsAmong(runnables, executorOf),
      callId: toolCallId,
      toolDescription: runnable.description,
      signal: abortSignal,
      span: frameworkToolSpan(name, toolCallId),
      ...settings.limits,
    });
  } catch (thrown) {
    const error = forTheModel(thrown);
    if (error instanceof HookAbortError && settings.abortRun !== undefined && !settings.abortRun.signal.aborted) {
      settings.abortRun.abort(error);
    }
    throw error;
  }
}

/**
 * The SDK sends a failed call's error message to the model. A fail-closed abort's reason quotes the
 * hook's error (`hook <name> failed: <message>`: host names, internal details), so the model gets
 * `hook <name> failed` alone; the cause keeps the hook's error, and the trace the whole reason.
 */
function forTheModel(error: unknown): unknown {
  if (!(error instanceof HookAbortError) || error.sourceHook === undefined) return error;
  const short = `hook ${error.sourceHook} failed`;
  if (!error.reason.startsWith(`${short}: `)) return error;
  return new HookAbortError(short, error.sourceHook, { cause: error.cause });
}

function readSdkOptions(sdkOptions: unknown): { toolCallId?: string; abortSignal?: AbortSignal } {
  if (sdkOptions === null || typeof sdkOptions !== 'object') return {};
  const { toolCallId, abortSignal } = sdkOptions as { toolCallId?: unknown; abortSignal?: unknown };
  return {
    ...(typeof toolCallId === 'string' ? { toolCallId } : {}),
    ...(abortSignal instanceof AbortSignal ? { abortSignal } : {}),
  };
}
