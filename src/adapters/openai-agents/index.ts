/**
 * toolhooks/openai-agents — hooks around the function tools of the OpenAI Agents SDK
 * (`@openai/agents` 0.20). The SDK is an optional peer dependency: this entry imports neither its
 * code nor its types; it wraps the tool objects you already have.
 *
 * @example
 * ```ts
 * import { Agent, run } from '@openai/agents';
 * import { HookRunner, skip } from 'toolhooks';
 * import { withHooks } from 'toolhooks/openai-agents';
 *
 * const runner = new HookRunner([{ name: 'dry-run', tools: ['write_file'], beforeTool: () => skip('dry run', 'not written') }]);
 * const agent = new Agent({ name: 'files', tools: withHooks([readFile, writeFile], runner) });
 * await run(agent, 'Save the notes');
 * ```
 * @packageDocumentation
 */
export { withHooks } from './with-hooks.js';
export type { ApprovalRejectionsOptions, ApprovalsMode, ToolErrorFormatter, ToolErrorFormatterArgs, WithHooksOptions } from './types.js';
export { approvalRejections } from './approvals.js';
