/**
 * McpToolError: an MCP tool result with `isError: true`, raised as an error so that onError hooks
 * see it like any other tool failure.
 */
import { brandAcrossBuilds } from '../../internal/brand.js';
import { ERROR_TYPE } from '../../telemetry/error-type.js';
import { ERROR_TYPE_TOOL_ERROR } from '../../telemetry/semconv.js';

/**
 * The error onError hooks receive when an MCP tool returns a result with `isError: true` (the MCP
 * way of reporting a tool failure without a protocol error). Its message is the result's text
 * content; `result` is the result itself. When no hook recovers the call, `callTool` still returns
 * that result — MCP callers expect results, not rejections, for tool failures — and the call is
 * recorded as `failed` with `error.type` `tool_error` (the MCP semantic conventions' value).
 *
 * @example
 * ```ts
 * const retryReadOnly: ToolHook = {
 *   tools: /^mcp__fs__/,
 *   onError: (tool, args, error) =>
 *     error instanceof McpToolError && /read-only/.test(error.message) ? redirect({ newArgs: { path: `/tmp/${String(args.path)}` } }) : undefined,
 * };
 * ```
 */
export class McpToolError extends Error {
  static {
    brandAcrossBuilds(this, 'McpToolError');
  }

  /** The server's name for the tool that failed (without the `mcp__<server>__` prefix). */
  readonly toolName: string;
  /** The `isError` result as the server sent it. */
  readonly result: Readonly<Record<string, unknown>>;
  /** Read by telemetry: the call's `error.type` is `tool_error`. @internal */
  readonly [ERROR_TYPE] = ERROR_TYPE_TOOL_ERROR;

  constructor(toolName: string, result: Readonly<Record<string, unknown>>) {
    super(messageOf(toolName, result));
    this.name = 'McpToolError';
    this.toolName = toolName;
    this.result = result;
  }
}

function messageOf(toolName: string, result: Readonly<Record<string, unknown>>): string {
  const content = result.content;
  const texts = Array.isArray(content)
    ? content
        .filter((item): item is { type: 'text'; text: string } =>
          item !== null && typeof item === 'object' && (item as { type?: unknown }).type === 'text' && typeof (item as { text?: unknown }).text === 'string',
        )
        .map((item) => item.text)
    : [];
  return texts.length > 0 ? texts.join('\n') : `MCP tool "${toolName}" returned an error result`;
}
