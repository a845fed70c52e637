/** The error an MCP `isError` result becomes: the server's own text as the message, `error.type` tool_error. */
import { describe, expect, it } from 'vitest';
import { McpToolError } from '../../../../src/adapters/mcp/tool-error.js';
import { errorTypeOf } from '../../../../src/telemetry/error-type.js';

describe('McpToolError', () => {
  it("reads the result's text content as its message, and keeps the tool and the result", () => {
    const result = { isError: true, content: [{ type: 'text', text: 'quota exceeded' }, { type: 'image', data: 'x' }, { type: 'text', text: 'retry later' }] };
    const error = new McpToolError('search', result);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('McpToolError');
    expect(error.message).toBe('quota exceeded\nretry later');
    expect(error.toolName).toBe('search');
    expect(error.result).toBe(result);
  });

  it('says which tool failed when the result has no text', () => {
    expect(new McpToolError('search', { isError: true }).message).toBe('MCP tool "search" returned an error result');
    expect(new McpToolError('search', { isError: true, content: [null, { type: 'text', text: 1 }] }).message).toBe('MCP tool "search" returned an error result');
  });

  it('is recorded with error.type tool_error, not its class name', () => {
    expect(errorTypeOf(new McpToolError('search', { isError: true }))).toBe('tool_error');
  });
});
