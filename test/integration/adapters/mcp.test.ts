import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolEvent, ToolHook , HookRunner} from '../../../src/index.js';
import { HookAbortError, abort, redirect, skip } from '../../../src/index.js';
import { McpToolError, withMcpHooks } from '../../../src/adapters/mcp/index.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_ERROR_KIND,
  ATTR_OUTCOME,
  ATTR_RETRIES,
  ATTR_TOOL_EFFECTIVE_NAME,
  EVENT_HOOK_ERROR,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../../../src/telemetry/semconv.js';
import { createTestTracing, eventsOf } from '../../support/tracing.js';
import { DEEP, deepEditor, deepestOf, deeplyNested } from '../../support/deep-args.js';

const tracing = createTestTracing();

/** What the in-process server received, in order. */
let received: { tool: string; args: Record<string, unknown>; meta: unknown }[] = [];
let client: Client;
let closeAll: () => Promise<void>;

/** An in-process MCP server with a file-ish toolset: one tool succeeds, one reports isError, one throws. */
async function connect(): Promise<void> {
  const server = new McpServer({ name: 'fs', version: '1.0.0' });
  server.registerTool('read_file', { description: 'Read a file', inputSchema: { path: z.string() } }, async ({ path }, extra) => {
    received.push({ tool: 'read_file', args: { path }, meta: extra._meta });
    return { content: [{ type: 'text', text: `contents of ${path}` }] };
  });
  server.registerTool('write_file', { description: 'Write a file', inputSchema: { path: z.string(), text: z.string() } }, async ({ path, text }) => {
    received.push({ tool: 'write_file', args: { path, text }, meta: undefined });
    if (path.startsWith('/readonly/')) return { content: [{ type: 'text', text: `EROFS: ${path} is read-only` }], isError: true };
    return { content: [{ type: 'text', text: `wrote ${text.length} bytes to ${path}` }] };
  });
  server.registerTool('explode', { description: 'Always throws', inputSchema: {} }, async () => {
    received.push({ tool: 'explode', args: {}, meta: undefined });
    throw new Error('kaboom');
  });
  server.registerTool('slow', { description: 'Answers after 500 ms', inputSchema: {} }, async () => {
    received.push({ tool: 'slow', args: {}, meta: undefined });
    await new Promise((resolve) => setTimeout(resolve, 500));
    return { content: [{ type: 'text', text: 'late' }] };
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(clientTransport);
  closeAll = async () => {
    await client.close();
    await server.close();
  };
}

beforeEach(async () => {
  tracing.reset();
  received = [];
  await connect();
});
afterEach(async () => closeAll());

const runner = (hooks: ToolHook[]): HookRunner => tracing.runner(hooks);

function executeToolSpan(toolName: string): ReadableSpan {
  return tracing.onlySpan(`${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`);
}

describe('withMcpHooks: decisions on MCP tool calls', () => {
  it('calls the tool under the name mcp__<server>__<tool> and returns the server result', async () => {
    const seen: string[] = [];
    const fs = withMcpHooks(client, runner([{ name: 'spy', tools: /^mcp__fs__/, beforeTool: (tool) => void seen.push(tool) }]), { server: 'fs' });
    const result = await fs.callTool({ name: 'read_file', arguments: { path: 'README.md' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'contents of README.md' }] });
    expect(seen).toEqual(['mcp__fs__read_file']);
    const span = executeToolSpan('mcp__fs__read_file');
    expect(span.attributes).toMatchObject({ [ATTR_GEN_AI_TOOL_NAME]: 'mcp__fs__read_file', [ATTR_OUTCOME]: 'completed' });
  });

  it('a Skip before the call sends nothing and returns the stub as a CallToolResult', async () => {
    const hooks = runner([{ name: 'dry-run', tools: ['mcp__fs__write_file'], beforeTool: () => skip('dry run', 'not written (dry run)') }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    const result = await fs.callTool({ name: 'write_file', arguments: { path: 'a.txt', text: 'hi' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'not written (dry run)' }] });
    expect(received).toEqual([]);
    expect(executeToolSpan('mcp__fs__write_file').attributes[ATTR_OUTCOME]).toBe('skipped');
  });

  it('stub shapes: a CallToolResult stays as it is; an object becomes JSON text plus structuredContent', async () => {
    const stubs: unknown[] = [{ content: [{ type: 'text', text: 'from cache' }], isError: false }, { cached: true, size: 3 }, undefined];
    const results: unknown[] = [];
    for (const stub of stubs) {
      const fs = withMcpHooks(client, runner([{ beforeTool: () => skip('cache', stub) }]), { server: 'fs' });
      results.push(await fs.callTool({ name: 'read_file', arguments: { path: 'x' } }));
    }
    expect(results).toEqual([
      { content: [{ type: 'text', text: 'from cache' }], isError: false },
      { content: [{ type: 'text', text: '{"cached":true,"size":3}' }], structuredContent: { cached: true, size: 3 } },
      { content: [{ type: 'text', text: '' }] },
    ]);
    // what a caller validates an MCP result with accepts every shape
    for (const result of results) expect(CallToolResultSchema.safeParse(result).success).toBe(true);
  });

  it('Redirect with newArgs changes the arguments sent', async () => {
    const hooks = runner([{ name: 'jail', beforeTool: (_tool, args) => redirect({ newArgs: { path: `/sandbox/${String(args.path)}` } }) }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    const result = await fs.callTool({ name: 'read_file', arguments: { path: 'etc/passwd' } });

    expect(received.map((r) => r.args)).toEqual([{ path: '/sandbox/etc/passwd' }]);
    expect(result).toEqual({ content: [{ type: 'text', text: 'contents of /sandbox/etc/passwd' }] });
  });

  it('Redirect with newTool calls another tool of the same server, by full or plain name', async () => {
    for (const newTool of ['mcp__fs__read_file', 'read_file']) {
      received = [];
      tracing.reset();
      const hooks = runner([{ name: 'read-only', tools: ['mcp__fs__write_file'], beforeTool: () => redirect({ newTool, reason: 'read-only session' }) }]);
      const fs = withMcpHooks(client, hooks, { server: 'fs' });
      await fs.listTools(); // tells the wrapper which tools the server has
      const result = await fs.callTool({ name: 'write_file', arguments: { path: 'notes.txt', text: 'x' } });

      expect(received.map((r) => r.tool)).toEqual(['read_file']);
      expect(result).toEqual({ content: [{ type: 'text', text: 'contents of notes.txt' }] });
      expect(executeToolSpan('mcp__fs__write_file').attributes[ATTR_TOOL_EFFECTIVE_NAME]).toBe(newTool);
    }
  });

  it('a Redirect to a tool the wrapper does not know is an invalid_redirect_target and the call proceeds', async () => {
    const hooks = runner([{ name: 'lost', beforeTool: () => redirect({ newTool: 'mcp__git__push' }) }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    await fs.listTools();
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
    expect(received.map((r) => r.tool)).toEqual(['read_file']);
    const errors = eventsOf(tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!, EVENT_HOOK_ERROR);
    expect(errors.map((e) => e.attributes[ATTR_HOOK_ERROR_KIND])).toEqual(['invalid_redirect_target']);
  });

  it('the tools option names redirect targets without a listTools call', async () => {
    const hooks = runner([{ beforeTool: (tool) => (tool === 'mcp__fs__write_file' ? redirect({ newTool: 'read_file' }) : undefined) }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs', tools: ['read_file'] });
    await fs.callTool({ name: 'write_file', arguments: { path: 'a', text: 'b' } });
    expect(received.map((r) => r.tool)).toEqual(['read_file']);
  });

  it('an Abort rejects callTool with HookAbortError and sends nothing', async () => {
    const hooks = runner([{ name: 'no-writes', tools: /^mcp__fs__write/, beforeTool: () => abort('read-only session') }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    await expect(fs.callTool({ name: 'write_file', arguments: { path: 'a', text: 'b' } })).rejects.toMatchObject({
      name: 'HookAbortError',
      reason: 'read-only session',
      sourceHook: 'no-writes',
    });
    expect(received).toEqual([]);
    const span = executeToolSpan('mcp__fs__write_file');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'aborted', [ATTR_ERROR_TYPE]: 'HookAbortError' });
  });
});

describe('withMcpHooks: MCP errors reach onError', () => {
  it('an isError result reaches onError as McpToolError; Skip returns its stub', async () => {
    const errors: unknown[] = [];
    const hooks = runner([{ name: 'fallback', onError: (_tool, _args, error) => { errors.push(error); return skip('read-only', 'saved to drafts instead'); } }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    const result = await fs.callTool({ name: 'write_file', arguments: { path: '/readonly/a', text: 'b' } });

    expect(result).toEqual({ content: [{ type: 'text', text: 'saved to drafts instead' }] });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(McpToolError);
    expect(errors[0]).toMatchObject({ message: 'EROFS: /readonly/a is read-only', toolName: 'write_file' });
    expect((errors[0] as McpToolError).result).toMatchObject({ isError: true });
    expect(executeToolSpan('mcp__fs__write_file').attributes[ATTR_OUTCOME]).toBe('recovered');
  });

  it('an isError result that onError lets stand is returned as it came, and recorded as failed', async () => {
    const events: ToolEvent[] = [];
    const onError = vi.fn();
    const hooks = runner([{ name: 'watch', onError, onEvent: (event) => void (event.type === 'tool' && events.push(event)) }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    const result = await fs.callTool({ name: 'explode', arguments: {} });

    expect(result).toEqual({ content: [{ type: 'text', text: 'kaboom' }], isError: true });
    expect(onError).toHaveBeenCalledTimes(1);
    const span = executeToolSpan('mcp__fs__explode');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'tool_error' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'kaboom' });
    expect(events.map((e) => [e.toolName, e.outcome, e.errorType])).toEqual([['mcp__fs__explode', 'failed', 'tool_error']]);
  });

  it('an onError Redirect retries with new arguments', async () => {
    const hooks = runner([
      { name: 'retry-elsewhere', onError: (_tool, args) => redirect({ newArgs: { path: String(args.path).replace('/readonly/', '/tmp/') } }) },
    ]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    const result = await fs.callTool({ name: 'write_file', arguments: { path: '/readonly/a', text: 'hey' } });
    expect(received.map((r) => r.args.path)).toEqual(['/readonly/a', '/tmp/a']);
    expect(result).toEqual({ content: [{ type: 'text', text: 'wrote 3 bytes to /tmp/a' }] });
    expect(executeToolSpan('mcp__fs__write_file').attributes).toMatchObject({ [ATTR_OUTCOME]: 'recovered', [ATTR_RETRIES]: 1 });
  });

  it('an onError Abort rejects with HookAbortError whose cause is the McpToolError', async () => {
    const hooks = runner([{ name: 'strict', onError: () => abort('tool failed; stopping the agent') }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    const error: unknown = await fs.callTool({ name: 'explode', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HookAbortError);
    expect((error as HookAbortError).cause).toBeInstanceOf(McpToolError);
  });

  it('a thrown client error (request timeout) reaches onError and is rethrown when not recovered', async () => {
    const seen: unknown[] = [];
    const fs = withMcpHooks(client, runner([{ onError: (_tool, _args, error) => void seen.push(error) }]), { server: 'fs' });
    await expect(fs.callTool({ name: 'slow', arguments: {} }, undefined, { timeout: 50 })).rejects.toThrow(/Request timed out/);
    expect(seen).toHaveLength(1);
    expect((seen[0] as Error).constructor.name).toBe('McpError');
    expect(executeToolSpan('mcp__fs__slow').attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'McpError' });
  });

  it('a thrown client error recovered by an onError Skip returns the stub', async () => {
    const fs = withMcpHooks(client, runner([{ onError: () => skip('timeout', { status: 'pending' }) }]), { server: 'fs' });
    const result = await fs.callTool({ name: 'slow', arguments: {} }, undefined, { timeout: 50 });
    expect(result).toEqual({ content: [{ type: 'text', text: '{"status":"pending"}' }], structuredContent: { status: 'pending' } });
  });
});

describe('withMcpHooks: the rest of the client passes through', () => {
  it('keeps _meta, the result schema and the request options; the signal reaches hooks', async () => {
    const controller = new AbortController();
    const progress = vi.fn();
    const signals: AbortSignal[] = [];
    const fs = withMcpHooks(client, runner([{ beforeTool: (_tool, _args, _state, ctx) => void signals.push(ctx.signal) }]), { server: 'fs' });
    const spy = vi.spyOn(client, 'callTool');
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' }, _meta: { traceparent: 'abc' } }, CallToolResultSchema, {
      signal: controller.signal,
      onprogress: progress,
    });
    expect(spy).toHaveBeenCalledWith({ name: 'read_file', arguments: { path: 'a' }, _meta: expect.objectContaining({ traceparent: 'abc' }) }, CallToolResultSchema, {
      signal: controller.signal,
      onprogress: progress,
    });
    expect(received[0]?.meta).toMatchObject({ traceparent: 'abc' });
    controller.abort();
    expect(signals[0]?.aborted).toBe(true);
  });

  it('other methods and properties work on the wrapped client, bound to it', async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    expect(fs).toBeInstanceOf(Client);
    const { getServerVersion, ping, listTools } = fs; // detached methods: still bound to the client
    expect(getServerVersion()).toEqual({ name: 'fs', version: '1.0.0' });
    await expect(ping()).resolves.toEqual({});
    expect((await listTools()).tools.map((t) => t.name)).toEqual(['read_file', 'write_file', 'explode', 'slow']);
    expect(fs.ping).toBe(fs.ping); // one bound function per method, not a new one per access
    const onerror = vi.fn();
    fs.onerror = onerror;
    expect(client.onerror).toBe(onerror);
    expect(fs.onerror).toBe(onerror);
  });

  it('calls without arguments send none and hooks see {}', async () => {
    const seen: unknown[] = [];
    const fs = withMcpHooks(client, runner([{ beforeTool: (_tool, args) => void seen.push(args) }]), { server: 'fs' });
    const spy = vi.spyOn(client, 'callTool');
    await fs.callTool({ name: 'explode' });
    expect(seen).toEqual([{}]);
    expect(spy.mock.calls[0]![0]).toEqual({ name: 'explode' });
  });
});

describe('withMcpHooks: bad input', () => {
  it('a client without callTool is a TypeError naming client', () => {
    for (const bad of [null, undefined, 'client', {}, { callTool: 'x' }]) {
      expect(() => withMcpHooks(bad as never, runner([]), { server: 'fs' })).toThrow(/^withMcpHooks: client must be an MCP Client/);
    }
  });

  it('a runner that is not a HookRunner is a TypeError naming runner', () => {
    expect(() => withMcpHooks(client, {} as never, { server: 'fs' })).toThrow(/^withMcpHooks: runner must be a HookRunner/);
  });

  it('a missing or invalid server name is a TypeError naming options.server', () => {
    const hooks = runner([]);
    expect(() => withMcpHooks(client, hooks, undefined as never)).toThrow(/^withMcpHooks: options must be an object/);
    for (const server of [undefined, '', 'my server', 'a__b', '_fs', 42]) {
      expect(() => withMcpHooks(client, hooks, { server } as never)).toThrow(/^withMcpHooks: options\.server must be/);
    }
    expect(() => withMcpHooks(client, hooks, { server: 'fs', tools: 'read_file' as never })).toThrow(/options\.tools must be an array/);
    expect(() => withMcpHooks(client, hooks, { server: 'my-fs_2' })).not.toThrow();
  });

  it('callTool with malformed params is a TypeError, before any hook runs', async () => {
    const beforeTool = vi.fn();
    const fs = withMcpHooks(client, runner([{ beforeTool }]), { server: 'fs' });
    await expect(fs.callTool(null as never)).rejects.toThrow(/^callTool: params must be an object/);
    await expect(fs.callTool({ name: '' })).rejects.toThrow(/^callTool: params\.name must be a non-empty string/);
    await expect(fs.callTool({ name: 'read_file', arguments: ['a'] as never })).rejects.toThrow(/^callTool: params\.arguments must be an object/);
    expect(beforeTool).not.toHaveBeenCalled();
  });
});

describe('withMcpHooks: deeply nested arguments (issue 29)', () => {
  it(`arguments ${DEEP.toLocaleString('en')} levels deep reach hooks as a read-only copy: a hook's edit never reaches the server`, async () => {
    const sent: unknown[] = [];
    // A client that keeps what it is asked to send: the MCP SDK's own JSON encoding stops well before this depth.
    const fake = { callTool: async (params: { arguments?: Record<string, unknown> }) => (sent.push(params.arguments), { content: [] }) };
    const { hook, seen } = deepEditor();
    const args = deeplyNested();
    await withMcpHooks(fake as unknown as Client, runner([hook]), { server: 'deep' }).callTool({ name: 'walk', arguments: args });
    expect(seen).toEqual({ calls: 1, frozen: true });
    expect(deepestOf(sent[0]).cmd).toBe('ls');
    expect(deepestOf(args).cmd).toBe('ls');
  });
});
