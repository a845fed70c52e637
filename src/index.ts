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
export { CONTINUE, skip, redirect, abort, isHookDecision } from './decisions.js';
export type { Continue, Skip, Redirect, Abort, HookDecision, DecisionKind } from './decisions.js';
export { HookAbortError } from './errors.js';
export type {
  ToolArgs,
  MaybePromise,
  Phase,
  HookErrorKind,
  Outcome,
  FailureMode,
  ToolMatcher,
  HookContext,
  ToolHook,
  ToolHookEvent,
  PhaseEvent,
  ToolEvent,
  PhaseHookRecord,
  ShadowedDecision,
  HookFailure,
} from './hook.js';
export type { CaptureOptions } from './telemetry/capture.js';
