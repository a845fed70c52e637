/**
 * toolhooks/strands — hooks around the tool calls of a Strands Agents agent (`@strands-agents/sdk`
 * 1.19): `toolhooksHooks(runner)` is an intervention handler for the Agent's `interventions`.
 * Strands is an optional peer dependency: this entry imports neither its code nor its types (a
 * result it builds itself reads Strands' block classes from the app's `@strands-agents/sdk` then).
 *
 * @example
 * ```ts
 * import { Agent } from '@strands-agents/sdk';
 * import { HookRunner, skip } from 'toolhooks';
 * import { toolhooksHooks } from 'toolhooks/strands';
 *
 * const hooks = new HookRunner([{ name: 'no-web', tools: ['fetch_url'], beforeTool: () => skip('offline', 'The web is not available in this session.') }]);
 * const agent = new Agent({ model, tools, interventions: [toolhooksHooks(hooks)] });
 * ```
 * @packageDocumentation
 */
export { toolhooksHooks } from './with-hooks.js';
export { ToolhooksInterventions } from './handler.js';
export type { ToolhooksHooksOptions, StrandsAgent, StrandsBeforeToolCallEvent, StrandsInterventionAction, StrandsProceed, StrandsResultContent, StrandsTool, StrandsToolContext, StrandsToolResultBlock, StrandsToolUse, ToolhooksInterruptReason } from './types.js';
