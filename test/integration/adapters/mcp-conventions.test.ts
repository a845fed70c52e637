/**
 * The MCP adapter and the MCP semantic conventions: attributes of the execute_tool span, error.type
 * of an isError result, and the W3C trace context a real McpServer receives in `params._meta`.
 */
import type { TextMapPropagator, Tracer } from '@opentelemetry/api';
import { ROOT_CONTEXT, context, propagation, trace } from '@opentelemetry/api';
import { TraceState, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { AlwaysOffSampler, InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolHook } from '../../../src/index.js';
import { HookRunner, executeTool, redirect } from '../../../src/index.js';
import type { McpClientLike } from '../../../src/adapters/mcp/index.js';
import { withMcpHooks } from '../../../src/adapters/mcp/index.js';
import { telemetryFailureCount } from '../../../src/telemetry/failures.js';
import {
  ATTR_ATTEMPT,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_SESSION_ID,
  ATTR_OUTCOME,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../../../src/telemetry/semconv.js';
import { brokenIsRecording, createTestTracing } from '../../support/tracing.js';
import { telemetryFailuresDuring } from '../../support/diag.js';
import { newTracerProvider, simpleSpanProcessor } from '../../support/sdk.js';

const tracing = createTestTracing();

/** The `_meta` of each tools/call request, as the server's tool handler read it. */
let metas: Record<string, unknown>[] = [];
let client: Client;
let clientTransport: InMemoryTransport;
let closeAll: () => Promise<void>;

async function connect(): Promise<void> {
  const server = new McpServer({ name: 'fs', version: '1.0.0' });
  server.registerTool('read_file', { description: 'Read a file', inputSchema: { path: z.string() } }, async ({ path }, extra) => {
    metas.push({ ...extra._meta });
    return { content: [{ type: 'text', text: `contents of ${path}` }] };
  });
  server.registerTool('write_file', { description: 'Write a file', inputSchema: { path: z.string() } }, async ({ path }, extra) => {
    metas.push({ ...extra._meta });
    if (path.startsWith('/readonly/')) return { content: [{ type: 'text', text: `EROFS: ${path} is read-only` }], isError: true };
    return { content: [{ type: 'text', text: `wrote ${path}` }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  clientTransport = clientSide;
  await server.connect(serverSide);
  client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(clientSide);
  closeAll = async () => {
    await client.close();
    await server.close();
  };
}

beforeAll(() => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
});
afterAll(() => {
  propagation.disable();
});
beforeEach(async () => {
  tracing.reset();
  metas = [];
  await connect();
});
afterEach(async () => closeAll());

function runner(hooks: ToolHook[], tracer?: Tracer): HookRunner {
  return tracer === undefined ? tracing.runner(hooks) : new HookRunner({ hooks, tracer });
}

function only(spans: ReadableSpan[]): ReadableSpan {
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

/** traceparent `00-<trace id>-<span id>-<flags>` split into its fields. */
function parseTraceparent(value: unknown): { traceId: string; spanId: string; flags: string } {
  expect(value).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
  const [, traceId, spanId, flags] = String(value).split('-');
  return { traceId: traceId!, spanId: spanId!, flags: flags! };
}

describe('withMcpHooks: W3C trace context in params._meta', () => {
  it("the server finds the call's trace id, and the span id of the toolhooks.execute span under execute_tool", async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' }, _meta: { 'example.com/user': 'ann' } });

    const call = only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`));
    const execute = only(tracing.spansNamed(SPAN_EXECUTE));
    expect(execute.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    expect(metas).toHaveLength(1);
    const sent = parseTraceparent(metas[0]!.traceparent);
    expect(sent).toEqual({ traceId: call.spanContext().traceId, spanId: execute.spanContext().spanId, flags: '01' });
    expect(metas[0]!['example.com/user']).toBe('ann'); // the caller's own fields are kept
  });

  it('tracestate of the trace reaches the server', async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    const parent = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      traceState: new TraceState('vendor=abc'),
    });
    await context.with(parent, () => fs.callTool({ name: 'read_file', arguments: { path: 'a' } }));

    expect(parseTraceparent(metas[0]!.traceparent).traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(metas[0]!.tracestate).toBe('vendor=abc');
  });

  it('each attempt of a retried call sends its own toolhooks.execute span id', async () => {
    const hooks = runner([{ name: 'retry', onError: () => redirect({ newArgs: { path: '/tmp/a' } }) }]);
    const fs = withMcpHooks(client, hooks, { server: 'fs' });
    await fs.callTool({ name: 'write_file', arguments: { path: '/readonly/a' } });

    const executes = tracing.spansNamed(SPAN_EXECUTE).sort((a, b) => Number(a.attributes[ATTR_ATTEMPT]) - Number(b.attributes[ATTR_ATTEMPT]));
    expect(executes.map((span) => span.attributes[ATTR_ATTEMPT])).toEqual([1, 2]);
    expect(metas.map((meta) => parseTraceparent(meta.traceparent).spanId)).toEqual(executes.map((span) => span.spanContext().spanId));
  });

  it("a call sampled out by the app's sampler tells the server so (flags 00)", async () => {
    const provider = newTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [simpleSpanProcessor(new InMemorySpanExporter())] });
    const fs = withMcpHooks(client, runner([], provider.getTracer('toolhooks')), { server: 'fs' });
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
    expect(parseTraceparent(metas[0]!.traceparent).flags).toBe('00');
  });

  it("a caller's own traceparent is sent as it is, with no tracestate added", async () => {
    const own = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' }, _meta: { traceparent: own } });
    expect(metas[0]).toEqual({ traceparent: own });
  });

  it('a propagator that throws does not fail the call; the request goes out with the caller\'s _meta', async () => {
    const broken: TextMapPropagator = {
      inject: () => {
        throw new Error('propagator broke');
      },
      extract: (ctx) => ctx,
      fields: () => ['traceparent'],
    };
    propagation.disable();
    propagation.setGlobalPropagator(broken);
    try {
      const before = telemetryFailureCount();
      const fs = withMcpHooks(client, runner([]), { server: 'fs' });
      const result = await fs.callTool({ name: 'read_file', arguments: { path: 'a' }, _meta: { 'example.com/user': 'ann' } });
      expect(result).toEqual({ content: [{ type: 'text', text: 'contents of a' }] });
      expect(metas[0]).toEqual({ 'example.com/user': 'ann' });
      expect(telemetryFailureCount()).toBe(before + 1);
    } finally {
      propagation.disable();
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    }
  });
});

describe('withMcpHooks: MCP attributes of the execute_tool span', () => {
  it('mcp.method.name is tools/call; no mcp.session.id for a transport without a session', async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
    const span = only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`));
    expect(span.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect(clientTransport.sessionId).toBeUndefined();
    expect(span.attributes).not.toHaveProperty(ATTR_MCP_SESSION_ID);
  });

  it("mcp.session.id is the transport's session id, read at each call (set after initialize, as Streamable HTTP does)", async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    clientTransport.sessionId = 'session-1';
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
    clientTransport.sessionId = 'session-2';
    await fs.callTool({ name: 'read_file', arguments: { path: 'b' } });
    const spans = tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`);
    expect(spans.map((span) => span.attributes[ATTR_MCP_SESSION_ID])).toEqual(['session-1', 'session-2']);
  });

  it('the MCP attributes are given at span start, where samplers see them', async () => {
    const seen: Record<string, unknown>[] = [];
    const provider = newTracerProvider({
      sampler: {
        shouldSample: (_ctx, _traceId, _name, _kind, attributes) => {
          seen.push({ ...attributes });
          return { decision: 0 };
        },
        toString: () => 'spy',
      },
    });
    clientTransport.sessionId = 'session-1';
    const fs = withMcpHooks(client, runner([], provider.getTracer('toolhooks')), { server: 'fs' });
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
    expect(seen[0]).toMatchObject({ [ATTR_MCP_METHOD_NAME]: 'tools/call', [ATTR_MCP_SESSION_ID]: 'session-1' });
  });

  it('gen_ai.tool.description comes from listTools, once the wrapper has seen it', async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
    await fs.listTools();
    await fs.callTool({ name: 'read_file', arguments: { path: 'b' } });
    const spans = tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_DESCRIPTION])).toEqual([undefined, 'Read a file']);
  });

  it('an isError result is error.type tool_error on the call and on its execute span', async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    const result = await fs.callTool({ name: 'write_file', arguments: { path: '/readonly/a' } });
    expect(result).toMatchObject({ isError: true });
    const call = only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__write_file`));
    expect(call.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'tool_error' });
    expect(only(tracing.spansNamed(SPAN_EXECUTE)).attributes[ATTR_ERROR_TYPE]).toBe('tool_error');
  });

  it('a transport whose sessionId getter throws: the call goes on, without mcp.session.id', async () => {
    Object.defineProperty(clientTransport, 'sessionId', {
      get: () => {
        throw new Error('hostile transport');
      },
      configurable: true,
    });
    const fs = withMcpHooks(client, runner([]), { server: 'fs' });
    await expect(fs.callTool({ name: 'read_file', arguments: { path: 'a' } })).resolves.toMatchObject({ content: [{ text: 'contents of a' }] });
    expect(only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`)).attributes).not.toHaveProperty(ATTR_MCP_SESSION_ID);
  });
});

describe('withMcpHooks: bad input from the caller or the server', () => {
  it('a _meta that is not an object is a TypeError naming params._meta, before any hook runs', async () => {
    const beforeTool = vi.fn();
    const fs = withMcpHooks(client, runner([{ beforeTool }]), { server: 'fs' });
    for (const meta of [5, 'x', null, ['traceparent']]) {
      await expect(fs.callTool({ name: 'read_file', arguments: { path: 'a' }, _meta: meta } as never)).rejects.toThrow(
        /^callTool: params\._meta must be an object of request metadata, got /,
      );
    }
    expect(beforeTool).not.toHaveBeenCalled();
    expect(metas).toEqual([]);
  });

  it('a server result that is not an object is a recorded failure: onError sees a TypeError naming the server and tool', async () => {
    const seen: unknown[] = [];
    const odd: McpClientLike = { callTool: async () => 42 };
    const fs = withMcpHooks(odd, runner([{ onError: (_tool, _args, error) => void seen.push(error) }]), { server: 'odd' });
    await expect(fs.callTool({ name: 'count' })).rejects.toThrow(
      'MCP server "odd" answered tools/call "count" with number; a tool result must be an object ({ content: [...] })',
    );
    expect(seen[0]).toBeInstanceOf(TypeError);
    const span = only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__odd__count`));
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'TypeError' });
  });
});

describe("withMcpHooks(…, { span: 'outer' }): an MCP call inside another execute_tool span", () => {
  /** A hooked tool `ask_docs` whose executor calls the MCP client: the outer execute_tool span covers the MCP call. */
  async function askDocs(span: 'own' | 'outer' | undefined, hooks: ToolHook[] = []): Promise<void> {
    const run = runner(hooks);
    const fs = withMcpHooks(client, run, { server: 'fs', ...(span === undefined ? {} : { span }) });
    await executeTool({ hooks: run, toolName: 'ask_docs', args: { q: 'a' }, execute: () => fs.callTool({ name: 'read_file', arguments: { path: 'a' } }) });
  }

  it("records the MCP call on the outer span: its MCP attributes and phases there, no second execute_tool span", async () => {
    await askDocs('outer', [{ name: 'audit', tools: /^mcp__/, beforeTool: () => undefined }]);
    const outer = only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} ask_docs`));
    expect(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`)).toEqual([]);
    expect(outer.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    // Its identity is the outer call's, and its outcome is the outer call's (which ends it).
    expect(outer.attributes['gen_ai.tool.name']).toBe('ask_docs');
    expect(outer.attributes[ATTR_OUTCOME]).toBe('completed');
    const phase = only(tracing.spansNamed('toolhooks.before_tool'));
    expect(phase.attributes['gen_ai.tool.name']).toBe('mcp__fs__read_file');
    expect(phase.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    // The server still gets the trace context of the MCP call's executor run, under the outer span.
    expect(parseTraceparent(metas[0]!.traceparent).traceId).toBe(outer.spanContext().traceId);
  });

  it("records on a framework's own execute_tool span the same way, without renaming it", async () => {
    const fs = withMcpHooks(client, runner([{ name: 'audit', beforeTool: () => undefined }]), { server: 'fs', span: 'outer' });
    await tracing.tracer.startActiveSpan('execute_tool read', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read' } }, async (span) => {
      await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
      span.end();
    });
    const framework = only(tracing.spansNamed('execute_tool read'));
    expect(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`)).toEqual([]);
    expect(framework.attributes).toMatchObject({ 'gen_ai.tool.name': 'read', [ATTR_MCP_METHOD_NAME]: 'tools/call', [ATTR_OUTCOME]: 'completed' });
    expect(only(tracing.spansNamed('toolhooks.before_tool')).parentSpanContext?.spanId).toBe(framework.spanContext().spanId);
  });

  it("by default ('own') starts the call's own span below the outer one", async () => {
    await askDocs(undefined);
    const outer = only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} ask_docs`));
    const inner = only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`));
    expect(inner.attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect(outer.attributes[ATTR_MCP_METHOD_NAME]).toBeUndefined();
    // Below the outer call's executor run, as any span its tool starts.
    const run = tracing.spansNamed(SPAN_EXECUTE).find((span) => span.parentSpanContext?.spanId === outer.spanContext().spanId);
    expect(inner.parentSpanContext?.spanId).toBe(run?.spanContext().spanId);
  });

  it("an active span whose isRecording throws: reported once as the outer execute_tool span's failure, the call goes on with its own span", async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs', span: 'outer' });
    const broken = brokenIsRecording(tracing.tracer.startSpan('agent run'));
    const reported = await telemetryFailuresDuring(() => context.with(trace.setSpan(context.active(), broken), () => fs.callTool({ name: 'read_file', arguments: { path: 'a' } })));
    expect(reported).toEqual({ value: { content: [{ type: 'text', text: 'contents of a' }] }, failures: 1, messages: [expect.stringContaining('telemetry failed in outer execute_tool span (')] });
    expect(only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`)).attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
  });

  it("outside any execute_tool span, 'outer' starts the call's own span; a wrong value is a TypeError", async () => {
    const fs = withMcpHooks(client, runner([]), { server: 'fs', span: 'outer' });
    await tracing.tracer.startActiveSpan('agent run', async (span) => {
      await fs.callTool({ name: 'read_file', arguments: { path: 'a' } });
      span.end();
    });
    expect(only(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} mcp__fs__read_file`)).attributes[ATTR_MCP_METHOD_NAME]).toBe('tools/call');
    expect(() => withMcpHooks(client, runner([]), { server: 'fs', span: 'parent' } as never)).toThrow("withMcpHooks: options.span must be 'own' or 'outer', got the string \"parent\"");
  });
});
