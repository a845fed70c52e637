/**
 * toolhooks/adk — hooks around the tool calls of a Google ADK agent (`@google/adk` 2.x):
 * `toolhooksPlugin(runner)` is a plugin for the ADK Runner's `plugins`. ADK is an optional peer
 * dependency: this entry imports neither its code nor its types.
 *
 * @example
 * ```ts
 * import { InMemoryRunner, LlmAgent } from '@google/adk';
 * import { HookRunner, skip } from 'toolhooks';
 * import { toolhooksPlugin } from 'toolhooks/adk';
 *
 * const hooks = new HookRunner([{ name: 'no-web', tools: ['fetch_url'], beforeTool: () => skip('offline', 'The web is not available in this session.') }]);
 * const runner = new InMemoryRunner({ agent, plugins: [toolhooksPlugin(hooks)] });
 * ```
 * @packageDocumentation
 */
export { toolhooksPlugin } from './with-hooks.js';
export { ToolhooksPlugin } from './plugin.js';
export { AdkConfirmationRefused } from './approvals.js';
export type { ToolhooksPluginOptions, AdkBeforeToolCallback, AdkTool, AdkToolCallbackParams, AdkToolConfirmation, AdkToolContext, AdkInvocationContext, AdkAgent, AdkEvent, AdkPart } from './types.js';
