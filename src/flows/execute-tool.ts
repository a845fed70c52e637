/**
 * executeTool: one tool call with hooks around it — the boundary where decisions take effect — and
 * the decision loop every flow and adapter runs a call through (`runToolCall`).
 * What each decision does: docs/flows.md.
 */
import type { HookDecision, Redirect, Replace, Skip } from '../decisions.js';
import { mergeArgs, redirect } from '../decisions.js';
import { HookAbortError } from '../errors.js';
import type { ToolArgs } from '../hook.js';
import { runnerCore } from '../runner/registry.js';
import type { HookRunner } from '../runner/hook-runner.js';
import {
  optionalCount,
  optionalString,
  optionalSignal,
  rejectUnknownOptions,
  requireArgs,
  requireFunction,
  requireObject,
  requireToolName,
} from '../internal/validate.js';
import { isThenable } from '../internal/thenable.js';
import type { CallSpec } from './call-spec.js';
import { ToolCall } from './tool-call.js';

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
  /** What the tool does, recorded as `gen_ai.tool.description`. */
  toolDescription?: string;
  /** The agent making the call, recorded as `gen_ai.agent.name`; wins over the runner's `agentName`. */
  agentName?: string;
  /** How many times an after_tool Redirect may re-execute the tool. Default 1. */
  maxReexecutions?: number;
  /** How many times an on_error Redirect may retry the tool. Default 1. */
  maxRetries?: number;
  /** Passed to hooks (`ctx.signal`) and executors; already aborted, no hook and no tool runs and the call rejects with its reason. */
  signal?: AbortSignal;
}

const OPTIONS: ReadonlySet<string> = new Set([
  'hooks',
  'toolName',
  'args',
  'state',
  'execute',
  'tools',
  'callId',
  'toolDescription',
  'agentName',
  'maxReexecutions',
  'maxRetries',
  'signal',
]);

/**
 * Runs one tool call through the hooks inside an `execute_tool {toolName}` span:
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
  try {
    plan = prepare(options, EXECUTE_TOOL_LABELS);
  } catch (error) {
    // Bad options reject, as from an async function.
    return Promise.reject(error);
  }
  return runToolCall(plan);
}

/**
 * A call ready to run: what the call is about, the tool to run, and how to find the tools a Redirect
 * names — looked up by name when a hook names one, never listed per call. @internal
 */
export interface CallPlan<S> extends CallSpec<S> {
  readonly execute: Executor;
  /** The executor of another tool a Redirect names; undefined when the flow has no such tool. */
  readonly redirectExecutor: (name: string) => Executor | undefined;
  readonly maxReexecutions: number;
  readonly maxRetries: number;
  /** runWithRetry's policy; undefined for every other call. */
  readonly retry?: RetryPolicy | undefined;
}

/** Validates executeTool options; every problem is reported before any hook runs. @internal */
function prepare<S>(options: ExecuteToolOptions<S>, label: OptionLabels): CallPlan<S> {
  const where = label.where;
  requireObject(options, label.options);
  rejectUnknownOptions(options, OPTIONS, where);
  const core = runnerCore<S>(options.hooks, where);
  requireToolName(options.toolName, label.toolName);
  requireArgs(options.args, label.args);
  requireFunction(options.execute, label.execute);
  const tools = options.tools;
  if (tools !== undefined) {
    requireObject(tools, label.tools);
    for (const [name, executor] of Object.entries(tools)) requireFunction(executor, `${where}: tools[${JSON.stringify(name)}]`);
  }
  const redirectExecutor = tools === undefined ? noRedirectExecutor : (name: string) => (Object.prototype.hasOwnProperty.call(tools, name) ? tools[name] : undefined);
  // Without `tools` no name is known: one shared function instead of a closure per call.
  const isRedirectTarget = tools === undefined ? noRedirectTarget : (name: string) => redirectExecutor(name) !== undefined;
  return {
    core,
    toolName: options.toolName,
    args: options.args,
    state: options.state as S,
    execute: options.execute,
    redirectExecutor,
    isRedirectTarget,
    callId: optionalString(options.callId, label.callId),
    toolDescription: optionalString(options.toolDescription, label.toolDescription),
    agentName: optionalString(options.agentName, label.agentName),
    signal: optionalSignal(options.signal, label.signal),
    maxReexecutions: optionalCount(options.maxReexecutions, 1, label.maxReexecutions),
    maxRetries: optionalCount(options.maxRetries, 1, label.maxRetries),
  };
}

/** How messages name each option ("executeTool: toolName"), and the caller's name. */
type OptionLabels = Readonly<
  Record<'where' | 'options' | 'toolName' | 'args' | 'execute' | 'tools' | 'signal' | 'callId' | 'toolDescription' | 'agentName' | 'maxReexecutions' | 'maxRetries', string>
>;

/**
 * The labels for one caller name, built once: prepare runs on every call, and building ten message
 * prefixes per call, read only when a check fails, was work for nothing.
 */
function optionLabels(where: string): OptionLabels {
  return {
    where,
    options: `${where}(options)`,
    toolName: `${where}: toolName`,
    args: `${where}: args`,
    execute: `${where}: execute`,
    tools: `${where}: tools`,
    signal: `${where}: signal`,
    callId: `${where}: callId`,
    toolDescription: `${where}: toolDescription`,
    agentName: `${where}: agentName`,
    maxReexecutions: `${where}: maxReexecutions`,
    maxRetries: `${where}: maxRetries`,
  };
}

const EXECUTE_TOOL_LABELS = optionLabels('executeTool');

function noRedirectExecutor(): undefined {
  return undefined;
}

function noRedirectTarget(): boolean {
  return false;
}

/**
 * Runs a prepared call: the one path every flow and adapter takes. Starts the call's span and runs
 * the decision loop inside it. @internal
 */
export function runToolCall<S>(plan: CallPlan<S>): Promise<unknown> {
  // Already aborted: the caller gave up before the call began, so no hook and no tool runs.
  if (plan.signal?.aborted === true) return Promise.reject(plan.signal.reason);
  let call: ToolCall<S>;
  try {
    call = new ToolCall<S>(plan);
  } catch (error) {
    return Promise.reject(error);
  }
  return call.within(decide, plan);
}

/** Whether what the executor threw is the framework's suspension (`CallSpec.handoff.isSuspension`); a predicate that throws says no. */
function suspends<S>(plan: CallPlan<S>, error: unknown): boolean {
  const isSuspension = plan.handoff?.isSuspension;
  if (isSuspension === undefined) return false;
  try {
    return isSuspension(error) === true;
  } catch {
    return false;
  }
}

/**
 * A retry policy over the decision loop (runWithRetry's): it owns the input of each attempt (a note)
 * and decides, after a failed attempt the hooks did not settle, whether to go again. With a policy the
 * loop also: turns a Skip's stub into the call's result through {@link RetryPolicy.stub} and gives an
 * on_error Skip to after_tool; reports after_tool's duration since the call started; and returns
 * {@link RetryPolicy.exhausted}'s value (the call `failed`) instead of throwing when no attempt is left.
 * A Redirect changes the policy's input, never the tool or the arguments hooks see. @internal
 */
export interface RetryPolicy {
  readonly maxAttempts: number;
  /** What a Skip's stub becomes as the call's result. */
  stub(decision: Skip): unknown;
  /** What an after_tool Replace's result becomes as the call's result. */
  replaced(result: unknown): unknown;
  /** A before_tool Redirect: the input of every attempt from now on. */
  redirect(decision: Redirect): void;
  /**
   * After failed attempt `attempt` (its on_error decision Continue or Redirect): whether to try again,
   * with the input set for it. False ends the call with {@link exhausted}.
   */
  again(decision: HookDecision, error: unknown, attempt: number): boolean;
  /** The call's result once no attempt is left. */
  exhausted(error: unknown, attempts: number): unknown;
}

/**
 * The decision loop of one call, run inside its `execute_tool` span: the one loop every flow and
 * adapter runs a call through (runWithRetry with its {@link RetryPolicy}). It ends the call itself
 * (`call.returned` / `call.threw`), so that a call costs this one async frame.
 */
async function decide<S>(plan: CallPlan<S>, call: ToolCall<S>): Promise<unknown> {
  const retry = plan.retry;
  let args = plan.args;
  let attempt = 1;
  const callStarted = retry === undefined ? 0 : performance.now();
  let suspended: { readonly error: unknown } | undefined;
  try {
    // Phases of synchronous hooks (or of none) answer synchronously: no promise to await.
    let before = call.before(args);
    if (before instanceof Promise) before = await before;
    // An approval settled in before_tool: denied, `before` is a Skip with the denial result as its
    // stub; approved, the flow applies E itself (an approver's edits are not a Redirect).
    const approval = call.approval;
    if (approval?.outcome === 'pending') {
      // Handed to the framework: the tool and after_tool run in its continuation, not here.
      call.outcome = 'pending';
      const value = call.returned(before.kind === 'skip' ? before.stubResult : undefined);
      if (approval.suspension === undefined) return value;
      suspended = approval.suspension;
      throw suspended.error;
    }
    if (before.kind === 'skip') {
      call.outcome = approval === undefined ? 'skipped' : 'denied';
      const stub = retry === undefined ? before.stubResult : retry.stub(before);
      // afterTool still sees the stub (and its Abort still raises); nothing is re-executed for a tool that never ran.
      return await afterThenReturn(call, args, stub, 0, attempt, retry);
    }
    if (approval !== undefined) before = approval.effective;
    if (before.kind === 'redirect') {
      if (retry === undefined) args = applyRedirect(call, args, before);
      else {
        call.redirected = true;
        retryRedirect(call, retry, before);
      }
    }
    const edits = approval?.edits;
    if (edits !== undefined) {
      if (retry === undefined) {
        args = mergeArgs(args, edits);
        call.runsWith(args);
      } else retryRedirect(call, retry, redirect({ newArgs: edits }));
    }
    // The duration is for afterTool hooks only: without any, the clock is not read.
    const timed = call.timesExecution;

    for (;;) {
      const toolName = call.effectiveToolName;
      const executor = toolName === plan.toolName ? plan.execute : (plan.redirectExecutor(toolName) ?? plan.execute);
      const started = timed ? (retry === undefined ? performance.now() : callStarted) : 0;
      let result: unknown;
      try {
        // Started and settled here, in this one async frame: a call costs no promise of its own, and a
        // tool that returns its result (not a promise) is not awaited at all.
        result = call.startExecute(toolName, attempt, executor, args, executorContext(toolName, attempt, plan.signal));
        if (isThenable(result)) result = await result;
        call.endExecute();
      } catch (error) {
        if (suspends(plan, error)) {
          // The framework suspended the run from inside the tool (a LangGraph interrupt() in the tool):
          // not a failure, no on_error. The call ends as pending; the framework's resume is another call.
          call.endExecute();
          call.outcome = 'pending';
          call.returned(undefined);
          suspended = { error };
          throw error;
        }
        call.failExecute(error);
        if (error instanceof HookAbortError) throw error;
        const decision = await call.onError(args, error, attempt);
        if (decision.kind === 'skip') {
          call.outcome = 'recovered';
          if (retry === undefined) return call.returned(decision.stubResult);
          return await afterThenReturn(call, args, retry.stub(decision), started, attempt, retry);
        }
        if (retry !== undefined) {
          if (!retry.again(decision, error, attempt)) {
            call.markFailed(error);
            return await afterThenReturn(call, args, retry.exhausted(error, attempt), started, attempt, retry);
          }
          call.retries += 1;
          if (decision.kind === 'redirect') {
            call.redirected = true;
            if (decision.newArgs !== undefined) call.runsWith(decision.newArgs);
          }
          attempt += 1;
          continue;
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
      if (retry !== undefined && attempt > 1) call.outcome = 'recovered';
      const durationMs = timed ? performance.now() - started : 0;
      let after = call.after(args, result, durationMs, attempt);
      if (after instanceof Promise) after = await after;
      if (after.kind === 'replace') return call.returned(replacedResult(call, after, retry));
      if (after.kind === 'redirect' && call.reexecutions < plan.maxReexecutions) {
        call.reexecutions += 1;
        attempt += 1;
        args = applyRedirect(call, args, after);
        continue;
      }
      return call.returned(result);
    }
  } catch (error) {
    // A framework's suspension (a LangGraph interrupt) leaves the call that ended as pending.
    if (suspended === undefined || error !== suspended.error) call.threw(error);
    throw error;
  }
}

/**
 * Runs after_tool with `value` (a stub, a denial result, a retry policy's exhaustion result) and ends
 * the call with it — or with a Replace's result.
 */
async function afterThenReturn<S>(
  call: ToolCall<S>,
  args: ToolArgs,
  value: unknown,
  started: number,
  attempt: number,
  retry: RetryPolicy | undefined,
): Promise<unknown> {
  let after = call.after(args, value, started === 0 ? 0 : performance.now() - started, attempt);
  if (after instanceof Promise) after = await after;
  return call.returned(after.kind === 'replace' ? replacedResult(call, after, retry) : value);
}

/** The result a winning Replace gives the call (as text under a retry policy). */
function replacedResult<S>(call: ToolCall<S>, decision: Replace, retry: RetryPolicy | undefined): unknown {
  call.replaced = true;
  return retry === undefined ? decision.result : retry.replaced(decision.result);
}

/** The arguments a Redirect runs the tool with; the call's error text is scrubbed of them from now on. */
function applyRedirect<S>(call: ToolCall<S>, args: ToolArgs, decision: Redirect): ToolArgs {
  call.redirected = true;
  if (decision.newTool !== undefined) call.effectiveToolName = decision.newTool;
  if (decision.newArgs === undefined) return args;
  const merged = mergeArgs(args, decision.newArgs);
  call.runsWith(merged);
  return merged;
}

/** A Redirect under a retry policy changes its input (a note): scrubbed from the call's error text like arguments. */
function retryRedirect<S>(call: ToolCall<S>, retry: RetryPolicy, decision: Redirect): void {
  if (decision.newArgs !== undefined) call.runsWith(decision.newArgs);
  retry.redirect(decision);
}

function executorContext(toolName: string, attempt: number, signal: AbortSignal | undefined): ExecutorContext {
  return signal === undefined ? { toolName, attempt } : { toolName, attempt, signal };
}

