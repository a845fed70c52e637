/**
 * toolhooksHooks: builds the Strands Agents intervention handler ({@link ToolhooksInterventions}, for the
 * Agent's `interventions`) that runs every tool call of the agent through the hooks, as one
 * `execute_tool` call.
 */
import { typeName } from '../../internal/describe.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { AdapterSettings } from '../settings.js';
import { adapterSettings, isHookRunner, readApprovalsMode, requireOptionsObject, requireRunner } from '../settings.js';
import { StrandsApprovals } from './approvals.js';
import { ToolhooksInterventions } from './handler.js';
import type { ToolhooksHooksOptions } from './types.js';

const OPTIONS = ['state', 'maxRetries', 'maxReexecutions', 'approvals', 'name'] as const;

/**
 * Builds a Strands Agents intervention handler (`@strands-agents/sdk` 1.19) for the Agent's
 * `interventions` that runs every tool call of the agent through the hooks, each as one
 * `execute_tool` call. (Strands' TypeScript Agent has no `hooks` option; an intervention handler is
 * what it takes without importing Strands' event classes.)
 * - Continue: the tool runs, inside the call (with Strands' tracing on, inside Strands' own `execute_tool` span).
 * - Skip: the stub is the tool's result (a string as a text block, anything else as a JSON block).
 * - Redirect: other arguments, or another tool of the agent (`newTool` names one in its tool registry).
 * - Abort: the model reads `This tool call was aborted by <hook>. Reason: <reason>` as an error
 *   result and the run goes on, as with Strands' own `deny` (a tool's error never fails a Strands run).
 * - Ask: the runner's `approver`, or (`approvals: 'framework'`) a Strands interrupt.
 * - Replace: the result is the replacement (the after_tool phase runs inside the call).
 *
 * @example
 * ```ts
 * import { Agent, FunctionTool } from '@strands-agents/sdk';
 * import { HookRunner, abort } from 'toolhooks';
 * import { toolhooksHooks } from 'toolhooks/strands';
 *
 * const hooks = new HookRunner([{ name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) }]);
 * const agent = new Agent({ model, tools: [shell], interventions: [toolhooksHooks(hooks)] });
 * ```
 */
export function toolhooksHooks<S = unknown>(runner: HookRunner<S>, options?: ToolhooksHooksOptions<S>): ToolhooksInterventions {
  const where = 'toolhooksHooks';
  const core = requireRunner<S>(runner, where);
  if (isHookRunner(options, where)) {
    throw new TypeError(`${where}(runner, options): options is a HookRunner; pass one runner, then the options object: toolhooksHooks(runner, { state })`);
  }
  const raw = requireOptionsObject(options, where, OPTIONS);
  const name = raw.name ?? 'toolhooks';
  if (typeof name !== 'string' || name === '') throw new TypeError(`${where}: options.name must be a non-empty string, got ${typeName(name)}`);
  const approvals = readApprovalsMode(raw.approvals, where) === 'framework' ? new StrandsApprovals() : undefined;
  const settings: AdapterSettings<S, StrandsApprovals> = adapterSettings(core, raw, where, approvals);
  return new ToolhooksInterventions(name, settings as AdapterSettings<unknown, StrandsApprovals>);
}
