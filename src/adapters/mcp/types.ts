/**
 * The public options of toolhooks/mcp: what {@link withMcpHooks} needs of a client and the options it
 * takes (extending the options every adapter shares).
 */
import type { AdapterOptions } from '../types.js';

/**
 * The `params` of an MCP `tools/call` request, as far as the adapter reads them; other fields
 * (`_meta`, `task`) are sent on unchanged.
 *
 * @example
 * ```ts
 * const params: McpCallToolParams = { name: 'read_file', arguments: { path: 'README.md' } };
 * ```
 */
export interface McpCallToolParams {
  /** The server's name for the tool. */
  name: string;
  /** The tool's arguments. */
  arguments?: Record<string, unknown> | undefined;
}

/**
 * What withMcpHooks needs of a client: the `callTool` of the MCP TypeScript SDK's `Client` — v1's
 * `callTool(params, resultSchema?, options?)` (`@modelcontextprotocol/sdk`) or v2's
 * `callTool(params, options?)` (`@modelcontextprotocol/client`) — and optionally its `listTools`.
 *
 * @example
 * ```ts
 * // any object with this shape can be wrapped, e.g. a client of another MCP library
 * const client: McpClientLike = { callTool: async (params) => ({ content: [{ type: 'text', text: params.name }] }) };
 * ```
 */
export interface McpClientLike {
  callTool(params: McpCallToolParams, ...rest: never[]): Promise<unknown>;
}

/**
 * Options of {@link withMcpHooks}.
 *
 * @example
 * ```ts
 * const fs = withMcpHooks(client, runner, { server: 'fs', state: session, tools: ['read_file', 'write_file'] });
 * ```
 */
export interface WithMcpHooksOptions<S = unknown> extends AdapterOptions<S> {
  /**
   * The server's name in tool names: hooks see `mcp__<server>__<tool>`, so a `tools` matcher such
   * as `/^mcp__fs__/` selects this server. Letters, digits, `-` and single `_`.
   */
  server: string;
  /**
   * Server tool names a Redirect's `newTool` may name, besides those the wrapped client has seen
   * in `listTools` results.
   */
  tools?: readonly string[];
  /**
   * Where a call is recorded when it runs inside another `execute_tool` span (the agent framework's, or
   * toolhooks' own for a hooked tool that calls this client): `'own'` (the default) starts the call's own
   * `execute_tool mcp__<server>__<tool>` span below it; `'outer'` records the call on that outer span
   * instead — its MCP attributes, its phase spans below it, its outcome — and starts no second
   * `execute_tool` span, as the MCP semantic conventions allow. The outer span keeps its name and `gen_ai.*`
   * identity. Outside such a span, both start the call's own span.
   */
  span?: 'own' | 'outer';
}
