/**
 * executeTool: one tool call with hooks around it — the boundary where decisions take effect — and
 * `runToolCall`, the one way every flow and adapter runs a call: its span, then the decision loop
 * (`decide`, decision-loop.ts). What each decision does: docs/flows.md.
 */
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
import type { CallSpec } from './call-spec.js';
import { decide } from './decision-loop.js';
import type { RetryPolicy } from './retry-policy.js';
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

/**
 * Validates executeTool options; every problem is reported before any hook runs. Each option is read
 * once: an option that is a getter (or a Proxy trap) cannot pass its check with one value and be used
 * with another. @internal
 */
function prepare<S>(options: ExecuteToolOptions<S>, label: OptionLabels): CallPlan<S> {
  const where = label.where;
  requireObject(options, label.options);
  // The known keys are checked here, at one call site that sees one options shape; the shared helper
  // only words the error for the first unknown one.
  for (const key in options) if (!OPTIONS.has(key)) rejectUnknownOptions(options, OPTIONS, where);
  const core = runnerCore<S>(options.hooks, where);
  const toolName = options.toolName;
  requireToolName(toolName, label.toolName);
  const args = options.args;
  requireArgs(args, label.args);
  const execute = options.execute;
  requireFunction(execute, label.execute);
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
    toolName,
    args,
    state: options.state as S,
    execute,
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
 * the decision loop ({@link decide}) inside it. @internal
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
