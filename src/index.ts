/**
 * toolhooks — decision-issuing hooks around AI-agent tool calls, observable through OpenTelemetry.
 *
 * @example
 * ```ts
 * import { HookRunner, executeTool, abort } from 'toolhooks';
 *
 * const hooks = new HookRunner([{ name: 'policy', beforeTool: (tool, args) => (args.cmd === 'rm -rf /' ? abort('no') : undefined) }]);
 * const out = await executeTool({ hooks, toolName: 'shell', args: { cmd: 'ls' }, execute: (args) => run(args.cmd) });
 * ```
 * @packageDocumentation
 */
export { VERSION } from './version.js';
export { CONTINUE, skip, redirect, abort, ask, replaceResult, isHookDecision } from './decisions.js';
export type { Continue, Skip, Redirect, Abort, Ask, Replace, HookDecision, DecisionKind } from './decisions.js';
export { HookAbortError, HookTimeoutError, InvalidHookDecisionError, InvalidRedirectTargetError } from './errors.js';
export type {
  ToolArgs,
  MaybePromise,
  Phase,
  HookErrorKind,
  Outcome,
  FailureMode,
  HookMode,
  ToolMatcher,
  HookContext,
  ToolHook,
  ToolHookEvent,
  PhaseEvent,
  ToolEvent,
  PhaseHookRecord,
  ShadowedDecision,
  HookFailure,
  ApprovalOutcome,
  ApprovalRequest,
  ApprovalResponse,
  ApprovalEvent,
  Approver,
} from './hook.js';
export { HookRunner } from './runner/hook-runner.js';
export type { HookRunnerOptions, RunOptions } from './runner/hook-runner.js';
export type { CaptureOptions } from './telemetry/capture/options.js';
export { executeTool } from './flows/execute-tool.js';
export type { ExecuteToolOptions, Executor, ExecutorContext } from './flows/execute-tool.js';
export { CompoundTool } from './flows/compound-tool.js';
export type { CompoundAgent, CompoundRunOptions, CompoundToolOptions } from './flows/compound-tool.js';
export { runWithRetry, defaultEnrichNote } from './flows/run-with-retry.js';
export type { RunWithRetryOptions } from './flows/run-with-retry.js';
export { runPlan } from './flows/run-plan.js';
export type { Subtask, SubtaskResult, RunPlanOptions } from './flows/run-plan.js';
