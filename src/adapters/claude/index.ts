/**
 * toolhooks/claude — hooks around the tool calls of the Claude Agent SDK
 * (`@anthropic-ai/claude-agent-sdk`): `claudeAgentHooks(runner)` is the `hooks` option of `query()`.
 * The SDK is an optional peer dependency: this entry does not import it.
 *
 * @example
 * ```ts
 * import { query } from '@anthropic-ai/claude-agent-sdk';
 * import { HookRunner, skip } from 'toolhooks';
 * import { claudeAgentHooks } from 'toolhooks/claude';
 *
 * const runner = new HookRunner([{ name: 'no-web', tools: ['WebFetch'], beforeTool: () => skip('offline', 'The web is not available in this session.') }]);
 * for await (const message of query({ prompt, options: { hooks: claudeAgentHooks(runner) } })) handle(message);
 * ```
 * @packageDocumentation
 */
export { claudeAgentHooks } from './with-hooks.js';
export { DeferredApprovals } from './approvals.js';
export { ClaudeToolError } from './tool-error.js';
export type { ClaudeAgentHooks, ClaudeAgentHooksOptions, ClaudeHookCallback, ClaudeHookEvent, ClaudeHookInput, ClaudeHookOutput, ClaudeToolFailure, DeferredApprovalRequest } from './types.js';
