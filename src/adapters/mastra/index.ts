/**
 * toolhooks/mastra — hooks around the tools of a Mastra Agent (`@mastra/core` 1.x). Mastra is an
 * optional peer dependency: this entry imports neither its code nor its types; it wraps the tools
 * record you already have.
 *
 * @example
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { HookRunner, abort } from 'toolhooks';
 * import { withHooks } from 'toolhooks/mastra';
 *
 * const runner = new HookRunner([{ name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (/rm -rf/.test(String(args.cmd)) ? abort('destructive') : undefined) }]);
 * const agent = new Agent({ id: 'ops', name: 'ops', instructions: '…', model, tools: withHooks({ shell }, runner) });
 * await agent.generate('clean up /tmp');
 * ```
 *
 * An Ask is answered by the runner's `approver` inside the call; with `withHooks(tools, runner, {
 * approvals: 'framework' })` it suspends the run as Mastra's own tool-call approval instead, resumed by
 * `agent.approveToolCall` / `declineToolCall`, and `recordDeclinedCalls(tools)` (an output processor)
 * records declined calls as `denied`.
 * @packageDocumentation
 */
export { withHooks } from './with-hooks.js';
export { recordInvalidToolCalls } from './invalid-calls.js';
export { recordDeclinedCalls } from './declined-calls.js';
export type { MastraOutputProcessor, MastraSkipResult, MastraToolCallContext, MastraToolHooks, RecordInvalidToolCallsOptions, WithHooksOptions } from './types.js';
