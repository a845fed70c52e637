/**
 * toolhooks/langchain — hooks around the tool calls of LangChain.js agents (`langchain` 1.x
 * `createAgent`) and LangChain tools. `langchain` and `@langchain/core` are optional peer
 * dependencies: install them to use this entry.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { HookRunner, abort } from 'toolhooks';
 * import { toolhooksMiddleware } from 'toolhooks/langchain';
 *
 * const runner = new HookRunner([{ name: 'policy', beforeTool: (tool, args) => (args.path === '/etc/passwd' ? abort('forbidden path') : undefined) }]);
 * const agent = createAgent({ model, tools: [readFile, writeFile], middleware: [toolhooksMiddleware(runner)] });
 * await agent.invoke({ messages: [{ role: 'user', content: 'Summarise /etc/hosts' }] });
 * ```
 * @packageDocumentation
 */
export { toolhooksMiddleware } from './middleware.js';
export { withHooks } from './with-hooks.js';
export type { LangChainWithHooksOptions, ToolhooksApprovalInterrupt, ToolhooksApprovalResume, ToolhooksMiddlewareOptions } from './types.js';
