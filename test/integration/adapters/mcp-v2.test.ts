/**
 * toolhooks/mcp on the MCP TypeScript SDK v2: a real `Client` from `@modelcontextprotocol/client`
 * talking to a real `McpServer` from `@modelcontextprotocol/server` over the SDK's in-memory
 * transport pair. (The v1 SDK: mcp.test.ts and mcp-conventions.test.ts.)
 */
import { context, propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, redirect, skip } from '../../../src/index.js';
import { withMcpHooks } from '../../../src/adapters/mcp/index.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_TRANSPORT,
  ATTR_OUTCOME,
} from '../../../src/telemetry/semconv.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
let client: Client;
let closeAll: () => Promise<void>;
const metas: Record<string, unknown>[] = [];

beforeAll(async () => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const server = new McpServer({ name: 'fs', version: '2.0.0' });
  server.registerTool('read_file', { description: 'Read a file', inputSchema: z.object({ path: z.string() }) }, async ({ path }, ctx) => {
    metas.push({ ...((ctx as { mcpReq?: { _meta?: object } }).mcpReq?._meta ?? (ctx as { _meta?: object })._meta) });
    return { content: [{ type: 'text', text: `contents of ${path}` }] };
  });
  server.registerTool('write_file', { description: 'Write a file', inputSchema: z.object({ path: z.string() }) }, async ({ path }) =>
    path.startsWith('/readonly/') ? { content: [{ type: 'text', text: `EROFS: ${path}` }], isError: true } : { content: [{ type: 'text', text: `wrote ${path}` }] },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'agent', version: '1.0.0' });
  await client.connect(clientSide);
  closeAll = async () => {
    await client.close();
    await server.close();
  };
});
afterAll(async () => {
  await closeAll();
  propagation.disable();
});
beforeEach(() => tracing.reset());
afterEach(() => {
  metas.length = 0;
});

function hooked(hooks: ToolHook[]) {
  return withMcpHooks(client, new HookRunner({ hooks, tracer: tracing.tracer }), { server: 'fs' });
}

function text(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] as { text: string }).text;
}

describe('withMcpHooks on a v2 Client', () => {
  it('runs calls through the hooks: Continue, Skip, Redirect', async () => {
    const fs = hooked([
      { name: 'dry-run', tools: ['mcp__fs__write_file'], beforeTool: () => skip('dry run', 'not written') },
      { name: 'jail', tools: ['mcp__fs__read_file'], beforeTool: (_t, args) => (String(args.path).startsWith('/etc') ? redirect({ newArgs: { path: '/sandbox/etc' } }) : undefined) },
    ]);
    expect(text(await fs.callTool({ name: 'read_file', arguments: { path: '/notes' } }))).toBe('contents of /notes');
    expect(text(await fs.callTool({ name: 'read_file', arguments: { path: '/etc/passwd' } }))).toBe('contents of /sandbox/etc');
    expect(text(await fs.callTool({ name: 'write_file', arguments: { path: '/a' } }))).toBe('not written');
    expect(tracing.spansNamed('execute_tool mcp__fs__read_file').map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['completed', 'completed']);
    expect(tracing.onlySpan('execute_tool mcp__fs__write_file').attributes[ATTR_OUTCOME]).toBe('skipped');
  });

  it('Abort rejects callTool with the HookAbortError and sends nothing', async () => {
    const fs = hooked([{ name: 'no-writes', tools: ['mcp__fs__write_file'], beforeTool: () => abort('read-only session') }]);
    await expect(fs.callTool({ name: 'write_file', arguments: { path: '/a' } })).rejects.toBeInstanceOf(HookAbortError);
    expect(tracing.onlySpan('execute_tool mcp__fs__write_file').attributes[ATTR_ERROR_TYPE]).toBe('HookAbortError');
  });

  it('an isError result reaches onError and is returned as the server sent it when no hook recovers', async () => {
    const fs = hooked([{ name: 'watch', onError: () => undefined }]);
    const result = await fs.callTool({ name: 'write_file', arguments: { path: '/readonly/x' } });
    expect((result as { isError?: boolean }).isError).toBe(true);
    const span = tracing.onlySpan('execute_tool mcp__fs__write_file');
    expect(span.attributes[ATTR_OUTCOME]).toBe('failed');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
  });

  it('records the MCP attributes of the current revision: method, protocol version, no session on a sessionless connection', async () => {
    await hooked([]).callTool({ name: 'read_file', arguments: { path: '/x' } });
    const span = tracing.onlySpan('execute_tool mcp__fs__read_file');
    expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect(span.attributes[ATTR_MCP_PROTOCOL_VERSION]).toBe(client.getNegotiatedProtocolVersion());
    expect(span.attributes[ATTR_MCP_PROTOCOL_VERSION]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(span.attributes[ATTR_MCP_SESSION_ID]).toBeUndefined();
    // An in-process pair is neither a pipe nor a socket.
    expect(span.attributes[ATTR_NETWORK_TRANSPORT]).toBeUndefined();
  });

  it('carries the call\'s trace context to the server in params._meta, keeping the caller\'s fields', async () => {
    await context.with(context.active(), () => hooked([]).callTool({ name: 'read_file', arguments: { path: '/x' }, _meta: { requestedBy: 'test' } }));
    const span = tracing.onlySpan('execute_tool mcp__fs__read_file');
    expect(metas[0]?.requestedBy).toBe('test');
    expect(String(metas[0]?.traceparent)).toContain(span.spanContext().traceId);
  });

  it('passes the v2 request options (the second argument) through, and their signal reaches the hooks', async () => {
    let seen: AbortSignal | undefined;
    const controller = new AbortController();
    await hooked([{ name: 'peek', beforeTool: (_t, _a, _s, ctx) => void (seen = ctx.signal) }]).callTool({ name: 'read_file', arguments: { path: '/x' } }, { signal: controller.signal, timeout: 5_000 } as never);
    controller.abort();
    expect(seen?.aborted).toBe(true);
  });

  it('an object that is not a client is a TypeError at wrap time naming the supported SDKs', () => {
    expect(() => withMcpHooks({ request: () => undefined } as never, new HookRunner([]), { server: 'fs' })).toThrow(
      /client must be an MCP Client .*@modelcontextprotocol\/sdk \^1 or @modelcontextprotocol\/client \^2/,
    );
  });
});
