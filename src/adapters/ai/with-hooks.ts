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
import type { AdapterSettings } from '../settings.js';
import { adapterSettings, readApprovalsMode, requireOptionsObject, requireRunner } from '../settings.js';
import { copyWith, mapToolRecord } from '../tool-copy.js';
import { setCallPlan } from '../call-plan.js';
import type { HeldBefore } from '../../flows/before-ahead.js';
import { runBeforeAhead } from '../../flows/before-ahead.js';
import type { ApprovalHandoff } from '../../runner/handoff.js';
import { alreadyResolved, notAskedAbout } from '../approval-ledger.js';
import { recordDeniedCall } from '../denied-call.js';
import { startCallSpan } from '../../flows/tool-call.js';
import type { ApprovalCall, CallRunner } from './approvals.js';
import { AiSdkApprovals } from './approvals.js';
import { frameworkToolSpan } from '../framework-span.js';
import type { Sink } from './stream.js';
import { isAsyncGeneratorFunction, settle, streamCall } from './stream.js';
import type { FrameworkApprovalOptions, HookedTools, WithHooksOptions } from './types.js';

type ExecuteFunction = (input: unknown, options?: unknown) => unknown;

/** A tool of the set that has an `execute` function, with the object it belongs to. */
interface Runnable {
  readonly tool: object;
  readonly execute: ExecuteFunction;
  /** The tool's description, for `gen_ai.tool.description`. */
  readonly description: string | undefined;
}

/** What every call through one hooked tool set shares; `approvals` is the SDK's approval flow, with `approvals: 'framework'`. */
interface Settings<S> extends AdapterSettings<S, AiSdkApprovals> {
  readonly abortRun: AbortController | undefined;
  readonly runnables: ReadonlyMap<string, Runnable>;
}

/** What a call of the framework approval flow adds to its spec. */
interface ApprovalParts {
  readonly before?: HeldBefore | undefined;
  readonly handoff?: ApprovalHandoff | undefined;
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
 * With `approvals: 'framework'` a hook's Ask goes through the SDK's own approval flow, and the result
 * is {@link HookedTools} (`{ tools, toolApproval, onStart }`): the app receives the SDK's
 * `tool-approval-request`, answers with a `tool-approval-response`, and the approved call runs in the
 * next `generateText` / `streamText` (docs/adapters.md, "Approvals through the SDK's own flow").
 *
 * @example
 * ```ts
 * const hooked = withHooks({ send_email }, runner, { approvals: 'framework' });
 * const first = await generateText({ model, ...hooked, messages });
 * const request = first.content.find((part) => part.type === 'tool-approval-request');
 * messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
 * await generateText({ model, ...hooked, messages }); // sends the mail
 * ```
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
export function withHooks<T extends object, S = unknown>(tools: T, runner: HookRunner<S>, options: FrameworkApprovalOptions<S>): HookedTools<T>;
export function withHooks<T extends object, S = unknown>(tools: T, runner: HookRunner<S>, options?: WithHooksOptions<S>): T;
export function withHooks<T extends object, S = unknown>(tools: T, runner: HookRunner<S>, options?: WithHooksOptions<S> | FrameworkApprovalOptions<S>): T | HookedTools<T> {
  const where = 'withHooks';
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(`${where}: tools must be an AI SDK tool set (an object of tools by name), got ${typeName(tools)}`);
  }
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'abortRun', 'maxRetries', 'maxReexecutions', 'approvals']);
  const mode = readApprovalsMode(raw.approvals, where);
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
  const shared = { ...adapterSettings<S, AiSdkApprovals>(core, raw, where, undefined), abortRun: raw.abortRun as AbortController | undefined, runnables };
  const approvals = mode === 'framework' ? new AiSdkApprovals(callRunner(shared), where) : undefined;
  const settings: Settings<S> = { ...shared, approvals };

  const hooked = mapToolRecord(tools, (name, tool) => {
    const runnable = runnables.get(name);
    if (runnable === undefined) return undefined;
    const copy = copyWith(tool, 'execute', hookedExecute(name, runnable, settings));
    return approvals === undefined ? copy : copyWith(copy, 'needsApproval', hookedNeedsApproval(name, runnable, approvals));
  });
  if (approvals === undefined) return hooked as T;
  return { tools: hooked as T, toolApproval: approvals.toolApproval, onStart: approvals.onStart };
}

/**
 * The hooked tool's `needsApproval` (framework approvals): the SDK's per-tool check, used by `ai` 6
 * and by `ai` 7 when no `toolApproval` function is given. The same check as `toolApproval`.
 */
function hookedNeedsApproval(name: string, runnable: Runnable, approvals: AiSdkApprovals) {
  const own: unknown = (runnable.tool as { needsApproval?: unknown }).needsApproval;
  return async (input: unknown, sdkOptions?: { toolCallId?: unknown; messages?: readonly unknown[] }): Promise<boolean> => {
    const toolCallId = typeof sdkOptions?.toolCallId === 'string' ? sdkOptions.toolCallId : '';
    const { status, continuation, refused } = await approvals.check({ toolName: name, input, toolCallId }, own, { messages: sdkOptions?.messages });
    // ai 6 checks an approved call again and denies it when the answer is false: true lets it run, once.
    if (continuation) return refused === undefined;
    return status === 'user-approval' || (typeof status === 'object' && status.type === 'user-approval');
  };
}

/** How the framework approval flow runs calls of this set: ahead of the call, or recorded without the tool. */
function callRunner<S>(settings: Omit<Settings<S>, 'approvals'>): CallRunner {
  const notRun: Executor = () => {
    // Reached only when the hooks no longer ask in a call the app denied: the SDK runs nothing for it.
    throw new Error('the app denied this call; the tool did not run');
  };
  const spec = (call: ApprovalCall) => {
    const runnable = settings.runnables.get(call.toolName);
    return {
      core: settings.core,
      toolName: call.toolName,
      args: isPlainObject(call.input) ? call.input : { input: call.input },
      state: settings.state as S,
      callId: call.toolCallId,
      toolDescription: runnable?.description,
      isRedirectTarget: (tool: string) => settings.runnables.has(tool),
    };
  };
  return {
    startAskingSpan: (call, parent) => startCallSpan(spec(call), parent),
    refuse: (call, approvalId, resolution) =>
      recordDeniedCall(settings.core as RunnerCore, { toolName: call.toolName, callId: call.toolCallId, approvalId, args: spec(call).args, resolution }),
    hooked: (name) => {
      const runnable = settings.runnables.get(name);
      return runnable === undefined ? undefined : { needsApproval: (runnable.tool as { needsApproval?: unknown }).needsApproval };
    },
    ahead: (call, handoff) => runBeforeAhead({ ...spec(call), handoff }),
    record: (call, parts) =>
      runToolCall<S>({ ...spec(call), ...parts, execute: notRun, redirectExecutor: () => notRun, ...settings.limits }),
  };
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
  const approvals = settings.approvals;
  const parts = approvals === undefined ? undefined : await approvalParts(approvals, toolCallId === undefined ? undefined : { toolName: name, input, toolCallId }, (sdkOptions as { messages?: unknown } | undefined)?.messages);
  try {
    return await runToolCall<S>(
      setCallPlan(settings, runnables, runnable, executorOf, {
        ...parts,
        toolName: name,
        args,
        callId: toolCallId,
        toolDescription: runnable.description,
        signal: abortSignal,
        span: frameworkToolSpan(name, toolCallId),
      }),
    );
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

/**
 * What a call of the framework approval flow runs with: the before_tool decision held from the SDK's
 * approval check, or the app's approval. A response replayed for an approval already resolved never
 * runs the tool again: the SDK reports this error to the model as the tool's error.
 */
async function approvalParts(approvals: AiSdkApprovals, call: ApprovalCall | undefined, messages: unknown): Promise<ApprovalParts | undefined> {
  const prepared = await approvals.forExecute(call, messages);
  if (prepared === undefined) return undefined;
  if (prepared.kind === 'held') return { before: prepared.before };
  if (prepared.kind === 'replayed') throw new Error(alreadyResolved(prepared.approvalId));
  if (prepared.kind === 'refused') throw new Error(notAskedAbout(prepared.approvalId));
  if (prepared.kind !== 'approved') return undefined;
  return { handoff: { id: prepared.approvalId, answer: { response: { approved: true }, askedIn: prepared.askedIn } } };
}

function readSdkOptions(sdkOptions: unknown): { toolCallId?: string; abortSignal?: AbortSignal } {
  if (sdkOptions === null || typeof sdkOptions !== 'object') return {};
  const { toolCallId, abortSignal } = sdkOptions as { toolCallId?: unknown; abortSignal?: unknown };
  return {
    ...(typeof toolCallId === 'string' ? { toolCallId } : {}),
    ...(abortSignal instanceof AbortSignal ? { abortSignal } : {}),
  };
}
