/**
 * toolhooks/ai — hooks around the tools of the Vercel AI SDK (`ai` 6; `ai` 7 has the same tool
 * shape). `ai` is an optional peer dependency: this entry imports only its types, never its code.
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
export type { WithHooksOptions } from './with-hooks.js';
export { recordInvalidToolCalls } from './invalid-calls.js';
export type { RecordInvalidToolCallsOptions } from './invalid-calls.js';
