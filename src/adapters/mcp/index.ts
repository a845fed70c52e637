/**
 * toolhooks/mcp — hooks around the tool calls of a Model Context Protocol client: the TypeScript
 * SDK's v1 `Client` (`@modelcontextprotocol/sdk` 1.x) or v2 `Client` (`@modelcontextprotocol/client`
 * 2.x). The SDK is an optional peer dependency: this entry does not import it; it wraps the client
 * object you already have.
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { HookRunner, skip } from 'toolhooks';
 * import { withMcpHooks } from 'toolhooks/mcp';
 *
 * const runner = new HookRunner([{ name: 'dry-run', tools: /^mcp__fs__write/, beforeTool: () => skip('dry run', 'not written') }]);
 * const fs = withMcpHooks(client, runner, { server: 'fs' });
 * await fs.callTool({ name: 'write_file', arguments: { path: 'a.txt', text: 'hi' } });
 * // → { content: [{ type: 'text', text: 'not written' }] }
 * ```
 * @packageDocumentation
 */
export { withMcpHooks } from './with-hooks.js';
export type { McpCallToolParams, McpClientLike, WithMcpHooksOptions } from './types.js';
export { McpToolError } from './tool-error.js';
