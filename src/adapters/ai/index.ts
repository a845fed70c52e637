/**
 * toolhooks/ai — hooks around the tools of the Vercel AI SDK (`ai` 6 and 7). `ai` is an optional
 * peer dependency: this entry imports neither its code nor its types, so it fits either line. With
 * `ai` 7 and `@ai-sdk/otel`, each call records on the integration's own `execute_tool` span. With
 * `approvals: 'framework'`, a hook's Ask goes through the SDK's own approval flow (`toolApproval`,
 * the `tool-approval-request` the app answers, the continuation call that runs the approved call).
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { HookRunner, abort } from 'toolhooks';
 * import { recordInvalidToolCalls, withHooks } from 'toolhooks/ai';
 *
 * const runner = new HookRunner([{ name: 'policy', beforeTool: (tool, args) => (args.path === '/etc/passwd' ? abort('forbidden path') : undefined) }]);
 * const { text } = await generateText({
 *   model,
 *   tools: withHooks({ readFile, writeFile }, runner),
 *   experimental_repairToolCall: recordInvalidToolCalls(runner),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Summarise /etc/hosts',
 * });
 * ```
 * @packageDocumentation
 */
export { withHooks } from './with-hooks.js';
export { recordInvalidToolCalls } from './invalid-calls.js';
export type { FrameworkApprovalOptions, HookedTools, RecordInvalidToolCallsOptions, RepairToolCallOptions, ToolApprovalOptions, ToolApprovalStatus, WithHooksOptions } from './types.js';
