/**
 * executeTool: one tool call with hooks around it — the boundary where decisions take effect.
 */
import type { HookDecision, Redirect } from '../decisions.js';
import { mergeArgs } from '../decisions.js';
import { HookAbortError } from '../errors.js';
import type { ToolArgs } from '../hook.js';
import type { HookRunner, RunnerInternals, RunOptions } from '../runner.js';
import { runnerInternals } from '../runner.js';
import { ToolCall, runExecutor } from './tool-call.js';
import {
  optionalCount,
  optionalString,
  requireArgs,
  requireFunction,
  requireObject,
  requireToolName,
} from './options.js';

/** What an executor is told about the run it performs. */
export interface ExecutorContext {
  /** The tool being run: the requested one, or a Redirect's `newTool`. */
  readonly toolName: string;
  /** 1 for the first run; each retry or re-execution adds one. */
  readonly attempt: number;
  /** The caller's signal, when one was given. */
  readonly signal?: AbortSignal;
}

/** Runs a tool with the (possibly redirected) arguments. */
export type Executor = (args: ToolArgs, ctx: ExecutorContext) => unknown;

/** Options of {@link executeTool}. */
export interface ExecuteToolOptions<S = unknown> {
  /** The hooks to run around the call. */
  hooks: HookRunner<S>;
  /** The requested tool. */
  toolName: string;
  /** The tool's arguments; never mutated. */
  args: ToolArgs;
  /** Agent state passed to hooks. */
  state?: S;
  /** Runs the requested tool. */
  execute: Executor;
  /** Other tools a Redirect's `newTool` may name, by name. */
  tools?: Record<string, Executor>;
  /** The tool call's id (e.g. the model's), recorded as `gen_ai.tool.call.id`. */
  callId?: string;
  /** How many times an after_tool Redirect may re-execute the tool. Default 1. */
  maxReexecutions?: number;
  /** How many times an on_error Redirect may retry the tool. Default 1. */
  maxRetries?: number;
  /** Passed to hooks (`ctx.signal`) and executors. */
  signal?: AbortSignal;
}

/**
 * Runs one tool call through the hooks (SPEC §3) inside an `execute_tool {toolName}` span:
 * before_tool Skip returns the stub without running the tool, Redirect runs it with merged arguments
 * or another tool, Abort raises {@link HookAbortError}; a failing tool goes to the on_error hooks
 * (Redirect retries, Skip recovers, Abort raises with the tool error as `cause`, Continue rethrows);
 * an after_tool Redirect re-executes.
 *
 * @returns the tool's result, or a stub.
 * @example
 * ```ts
 * const result = await executeTool({
 *   hooks,
 *   toolName: 'shell',
 *   args: { cmd: 'ls' },
 *   execute: (args) => runShell(String(args.cmd)),
 *   tools: { sandbox_shell: (args) => runInSandbox(String(args.cmd)) },
 * });
 * ```
 */
export function executeTool<S>(options: ExecuteToolOptions<S>): Promise<unknown> {
  let plan: CallPlan<S>;
  let call: ToolCall;
  try {
    plan = prepare(options, 'executeTool');
    call = new ToolCall(plan.internals, plan.toolName, plan.callId, plan.args);
  } catch (error) {
    // Bad options reject, as from an async function; not awaiting here saves a promise per call.
    return Promise.reject(error);
  }
  return call.within(runCall, plan);
}

/** A validated executeTool call. @internal */
export interface CallPlan<S> {
  readonly hooks: HookRunner<S>;
  readonly internals: RunnerInternals;
  readonly toolName: string;
  readonly args: ToolArgs;
  readonly state: S;
  readonly execute: Executor;
  readonly tools: Readonly<Record<string, Executor>>;
  /** The options every phase of the call gets; `attempt` is kept current by the call. */
  readonly runOptions: FlowRunOptions;
  readonly callId: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly maxReexecutions: number;
  readonly maxRetries: number;
}

/** Validates executeTool options; every problem is reported before any hook runs. @internal */
export function prepare<S>(options: ExecuteToolOptions<S>, where: string): CallPlan<S> {
  requireObject(options, `${where}(options)`);
  const internals = runnerInternals(options.hooks, where);
  requireToolName(options.toolName, `${where}: toolName`);
  requireArgs(options.args, `${where}: args`);
  requireFunction(options.execute, `${where}: execute`);
  const tools = options.tools ?? NO_TOOLS;
  if (tools !== NO_TOOLS) {
    requireObject(tools, `${where}: tools`);
    for (const [name, executor] of Object.entries(tools)) requireFunction(executor, `${where}: tools[${JSON.stringify(name)}]`);
  }
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new TypeError(`${where}: signal must be an AbortSignal`);
  }
  const callId = optionalString(options.callId, `${where}: callId`);
  return {
    hooks: options.hooks,
    internals,
    toolName: options.toolName,
    args: options.args,
    state: options.state as S,
    execute: options.execute,
    tools,
    runOptions: new FlowRunOptions(options.toolName, tools, callId, options.signal),
    callId,
    signal: options.signal,
    maxReexecutions: optionalCount(options.maxReexecutions, 1, `${where}: maxReexecutions`),
    maxRetries: optionalCount(options.maxRetries, 1, `${where}: maxRetries`),
  };
}

/**
 * The decision loop of one call, run inside its `execute_tool` span. It ends the call itself
 * (`call.returned` / `call.threw`) and runs the executor under its `toolhooks.execute` span inline,
 * so that a call costs this one async frame. @internal
 */
export async function runCall<S>(plan: CallPlan<S>, call: ToolCall): Promise<unknown> {
  const { internals, state } = plan;
  const opts = plan.runOptions;
  let args = plan.args;
  let attempt = 1;
  try {
    // Phases of synchronous hooks (or of none) answer synchronously: no promise to await.
    let before = internals.run('before_tool', plan.toolName, args, state, undefined, 0, opts, call.traced);
    if (before instanceof Promise) before = await before;
    if (before.kind === 'skip') {
      call.outcome = 'skipped';
      // afterTool still sees the stub (and its Abort still raises); nothing is re-executed for a tool that never ran.
      const after = internals.run('after_tool', plan.toolName, args, state, before.stubResult, 0, opts, call.traced);
      if (after instanceof Promise) await after;
      return call.returned(before.stubResult);
    }
    if (before.kind === 'redirect') args = applyRedirect(call, args, before);
    // The duration is for afterTool hooks only: without any, the clock is not read.
    const timed = internals.hasHooks('after_tool');

    for (;;) {
      const executor = executorFor(plan, call.effectiveToolName);
      const started = timed ? performance.now() : 0;
      let result: unknown;
      opts.attempt = attempt;
      const span = call.startExecute(call.effectiveToolName, attempt);
      try {
        const ctx = executorContext(call.effectiveToolName, attempt, plan.signal);
        result = await runExecutor(span, executor, args, ctx);
        call.endExecute(span);
      } catch (error) {
        call.failExecute(span, error);
        if (error instanceof HookAbortError) throw error;
        const decision = await onError(plan, call, args, error, opts);
        if (decision.kind === 'skip') {
          call.outcome = 'recovered';
          return call.returned(decision.stubResult);
        }
        if (decision.kind === 'redirect' && call.retries < plan.maxRetries) {
          call.retries += 1;
          call.outcome = 'recovered';
          attempt += 1;
          args = applyRedirect(call, args, decision);
          continue;
        }
        throw error;
      }
      const durationMs = timed ? performance.now() - started : 0;
      let after = internals.run('after_tool', call.effectiveToolName, args, state, result, durationMs, opts, call.traced);
      if (after instanceof Promise) after = await after;
      if (after.kind === 'redirect' && call.reexecutions < plan.maxReexecutions) {
        call.reexecutions += 1;
        attempt += 1;
        args = applyRedirect(call, args, after);
        continue;
      }
      return call.returned(result);
    }
  } catch (error) {
    call.threw(error);
    throw error;
  }
}

/** Runs the on_error hooks; an Abort they decide carries the tool's error as its cause. */
async function onError<S>(plan: CallPlan<S>, call: ToolCall, args: ToolArgs, error: unknown, opts: RunOptions): Promise<HookDecision> {
  try {
    return await plan.internals.run('on_error', call.effectiveToolName, args, plan.state, error, 0, opts, call.traced);
  } catch (abortError) {
    if (abortError instanceof HookAbortError && abortError.cause === undefined) {
      throw new HookAbortError(abortError.reason, abortError.sourceHook, { cause: error });
    }
    throw abortError;
  }
}

function applyRedirect(call: ToolCall, args: ToolArgs, decision: Redirect): ToolArgs {
  call.redirected = true;
  if (decision.newTool !== undefined) call.effectiveToolName = decision.newTool;
  return decision.newArgs === undefined ? args : mergeArgs(args, decision.newArgs);
}

function executorFor<S>(plan: CallPlan<S>, toolName: string): (args: ToolArgs, ctx: ExecutorContext) => unknown {
  // The runner has already rejected targets outside knownTools, so one of these exists.
  return toolName === plan.toolName ? plan.execute : (plan.tools[toolName] ?? plan.execute);
}

const NO_TOOLS: Readonly<Record<string, Executor>> = Object.freeze({});

/**
 * The RunOptions of one flow call. The tools a Redirect may name are listed only when a hook asks
 * (a Redirect with `newTool`), not on every call.
 */
class FlowRunOptions implements RunOptions {
  attempt = 1;
  declare readonly callId?: string;
  declare readonly signal?: AbortSignal;
  readonly #toolName: string;
  readonly #tools: Readonly<Record<string, Executor>>;
  #knownTools: readonly string[] | undefined;

  constructor(toolName: string, tools: Readonly<Record<string, Executor>>, callId: string | undefined, signal: AbortSignal | undefined) {
    this.#toolName = toolName;
    this.#tools = tools;
    if (callId !== undefined) this.callId = callId;
    if (signal !== undefined) this.signal = signal;
  }

  get knownTools(): readonly string[] {
    return (this.#knownTools ??= [this.#toolName, ...Object.keys(this.#tools)]);
  }
}

function executorContext(toolName: string, attempt: number, signal: AbortSignal | undefined): ExecutorContext {
  return signal === undefined ? { toolName, attempt } : { toolName, attempt, signal };
}
