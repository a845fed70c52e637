/**
 * toolhooksPlugin: builds the Google ADK plugin ({@link ToolhooksPlugin}, for the Runner's `plugins`)
 * that runs every tool call of the agent through the hooks, as one `execute_tool` call.
 */
import { typeName } from '../../internal/describe.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { AdapterSettings } from '../settings.js';
import { adapterSettings, isHookRunner, readApprovalsMode, requireOptionsObject, requireRunner } from '../settings.js';
import { AdkApprovals } from './approvals.js';
import { ToolhooksPlugin } from './plugin.js';
import type { ToolhooksPluginOptions } from './types.js';

const OPTIONS = ['state', 'maxRetries', 'maxReexecutions', 'approvals', 'name'] as const;

/**
 * Builds a Google ADK plugin (`@google/adk` 2.x) for the Runner's `plugins` that runs every tool call
 * of its agents through the hooks, each as one `execute_tool` call. Register it last in `plugins`:
 * ADK stops at the first plugin whose `beforeToolCallback` answers, and this one answers every call
 * with the call's response (the tool ran inside it), so plugins after it do not see tool calls.
 * - Continue: the tool runs (after the agent's own `beforeToolCallback`s), inside the call.
 * - Skip: the stub is the tool's response (a string or number as `{ result }`, as ADK shapes one).
 * - Redirect: other arguments, or another tool of the agent (`newTool` names one of its tools).
 * - Abort: the model reads `{ error: "This tool call was aborted by <hook>. Reason: <reason>" }` (as
 *   ADK's own SecurityPlugin denies a call) and the run goes on: ADK rewraps a plugin's error without
 *   its cause, so a thrown HookAbortError would not reach the app.
 * - Ask: the runner's `approver`, or (`approvals: 'framework'`) ADK's tool confirmation.
 * - Replace: the response is the replacement (the after_tool phase runs inside the call).
 * - A tool's error: the other plugins' `onToolErrorCallback`s run first (as in ADK); then on_error.
 *
 * @example
 * ```ts
 * import { InMemoryRunner, LlmAgent } from '@google/adk';
 * import { HookRunner, abort } from 'toolhooks';
 * import { toolhooksPlugin } from 'toolhooks/adk';
 *
 * const hooks = new HookRunner([{ name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) }]);
 * const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'ops', model: 'gemini-2.5-flash', tools: [shell] }), plugins: [toolhooksPlugin(hooks)] });
 * ```
 */
export function toolhooksPlugin<S = unknown>(runner: HookRunner<S>, options?: ToolhooksPluginOptions<S>): ToolhooksPlugin {
  const where = 'toolhooksPlugin';
  const core = requireRunner<S>(runner, where);
  if (isHookRunner(options, where)) {
    throw new TypeError(`${where}(runner, options): options is a HookRunner; pass one runner, then the options object: toolhooksPlugin(runner, { state })`);
  }
  const raw = requireOptionsObject(options, where, OPTIONS);
  const name = raw.name ?? 'toolhooks';
  if (typeof name !== 'string' || name === '') throw new TypeError(`${where}: options.name must be a non-empty string, got ${typeName(name)}`);
  const approvals = readApprovalsMode(raw.approvals, where) === 'framework' ? new AdkApprovals() : undefined;
  const settings: AdapterSettings<S, AdkApprovals> = adapterSettings(core, raw, where, approvals);
  return new ToolhooksPlugin(name, settings as AdapterSettings<unknown, AdkApprovals>);
}
