/**
 * toolhooks/mcp on the MCP TypeScript SDK v2: a real `Client` from `@modelcontextprotocol/client`
 * talking to a real `McpServer` from `@modelcontextprotocol/server` over the SDK's in-memory
 * transport pair, and over Streamable HTTP on a loopback port. (The v1 SDK: mcp.test.ts and
 * mcp-conventions.test.ts.)
 */
import { context, propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, InMemoryTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';
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
  // 'auto' negotiates the current revision (2026-07-28) where the server has it; the SDK's default is the 2025 era.
  client = new Client({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
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

  it('records the MCP attributes: method, protocol version, no session where the transport has none', async () => {
    await hooked([]).callTool({ name: 'read_file', arguments: { path: '/x' } });
    const span = tracing.onlySpan('execute_tool mcp__fs__read_file');
    expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect(span.attributes[ATTR_MCP_PROTOCOL_VERSION]).toBe(client.getNegotiatedProtocolVersion());
    expect(span.attributes[ATTR_MCP_PROTOCOL_VERSION]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // An McpServer on an in-memory pair speaks the 2025 era (initialize); over HTTP it offers 2026-07-28 (below).
    expect([client.getProtocolEra(), client.getNegotiatedProtocolVersion()]).toEqual(['legacy', '2025-11-25']);
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

  it('on a 2025-era connection whose transport has a session, records mcp.session.id', async () => {
    Object.defineProperty(client.transport as object, 'sessionId', { value: 'session-7', configurable: true });
    try {
      await hooked([]).callTool({ name: 'read_file', arguments: { path: '/x' } });
    } finally {
      delete (client.transport as { sessionId?: string }).sessionId;
    }
    expect(tracing.onlySpan('execute_tool mcp__fs__read_file').attributes[ATTR_MCP_SESSION_ID]).toBe('session-7');
  });

  it("Ask with the runner's approver: approved sends the request, denied sends nothing and resolves with the denial; Replace shapes the result", async () => {
    const fs = withMcpHooks(
      client,
      new HookRunner({
        hooks: [
          { name: 'gate', tools: ['mcp__fs__write_file'], beforeTool: () => ask('writes need a person') },
          { name: 'tidy', tools: ['mcp__fs__read_file'], afterTool: () => replaceResult('contents withheld') },
        ],
        approver: (request) => (request.args.path === '/ok' ? { approved: true } : { approved: false, reason: 'not there' }),
        tracer: tracing.tracer,
      }),
      { server: 'fs' },
    );
    expect(text(await fs.callTool({ name: 'write_file', arguments: { path: '/ok' } }))).toBe('wrote /ok');
    expect(text(await fs.callTool({ name: 'write_file', arguments: { path: '/etc/x' } }))).toBe('Tool call denied: not there');
    expect(text(await fs.callTool({ name: 'read_file', arguments: { path: '/a' } }))).toBe('contents withheld');
    expect(tracing.spansNamed('execute_tool mcp__fs__write_file').map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['completed', 'denied']);
  });

  it('an object that is not a client is a TypeError at wrap time naming the supported SDKs', () => {
    expect(() => withMcpHooks({ request: () => undefined } as never, new HookRunner([]), { server: 'fs' })).toThrow(
      /client must be an MCP Client .*@modelcontextprotocol\/sdk \^1 or @modelcontextprotocol\/client \^2/,
    );
  });
});

describe('withMcpHooks on a v2 Client over Streamable HTTP (a real server on 127.0.0.1)', () => {
  it('records network.transport tcp and the negotiated revision, and mcp.session.id only when the connection has a session', async () => {
    const handler = createMcpHandler(() => {
      const server = new McpServer({ name: 'web', version: '2.0.0' });
      server.registerTool('ping', { description: 'Ping', inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
      return server;
    });
    const http = createServer((req, res) => void serveFetch(handler.fetch, req, res));
    await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
    const { port } = http.address() as AddressInfo;
    const web = new Client({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await web.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      const hooked = withMcpHooks(web, new HookRunner({ hooks: [{ name: 'peek', beforeTool: () => undefined }], tracer: tracing.tracer }), { server: 'web' });
      expect(text(await hooked.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
      const span = tracing.onlySpan('execute_tool mcp__web__ping');
      expect(span.attributes[ATTR_NETWORK_TRANSPORT]).toBe('tcp');
      expect(span.attributes[ATTR_MCP_PROTOCOL_VERSION]).toBe(web.getNegotiatedProtocolVersion());
      expect(web.getProtocolEra()).toBe('modern');
      expect((web.transport as { sessionId?: string } | undefined)?.sessionId).toBeUndefined();
      expect(span.attributes[ATTR_MCP_SESSION_ID]).toBeUndefined();
      // The 2026-07-28 revision has no sessions: even a transport reporting one is not recorded.
      tracing.reset();
      Object.defineProperty(web.transport as object, 'sessionId', { value: 'stale', configurable: true });
      await hooked.callTool({ name: 'ping', arguments: {} });
      expect(tracing.onlySpan('execute_tool mcp__web__ping').attributes[ATTR_MCP_SESSION_ID]).toBeUndefined();
    } finally {
      await web.close();
      await handler.close();
      await new Promise<void>((done) => http.close(() => done()));
    }
  });
});

/** Serves one Node HTTP request with a fetch-style handler (Request in, Response out). */
async function serveFetch(fetch: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
  const response = await fetch(new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, ...(body === undefined ? {} : { body }) }));
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) {
    res.end();
    return;
  }
  for await (const chunk of response.body) res.write(chunk);
  res.end();
}
