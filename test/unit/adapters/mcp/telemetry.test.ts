/**
 * What the MCP adapter adds to a call: the `mcp.*` attributes of the MCP semantic conventions, and the
 * trace context in the request's `_meta`, so the server's spans join the client's trace.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callAttributes, withTraceContext } from '../../../../src/adapters/mcp/telemetry.js';
import type { McpClientLike } from '../../../../src/adapters/mcp/types.js';
import { ATTR_MCP_METHOD_NAME, ATTR_MCP_SESSION_ID } from '../../../../src/telemetry/semconv.js';
import { installContextManager } from '../../../support/tracing.js';

const client = (transport: unknown): McpClientLike => ({ transport }) as unknown as McpClientLike;

describe('callAttributes', () => {
  it('names the method tools/call, with the session id when the transport has one', () => {
    expect(callAttributes(client(undefined))).toEqual({ [ATTR_MCP_METHOD_NAME]: 'tools/call' });
    expect(callAttributes(client({ sessionId: '' }))).toEqual({ [ATTR_MCP_METHOD_NAME]: 'tools/call' });
    expect(callAttributes(client({ sessionId: 'sess-1' }))).toEqual({ [ATTR_MCP_METHOD_NAME]: 'tools/call', [ATTR_MCP_SESSION_ID]: 'sess-1' });
  });

  it('gives the attributes it can when reading the transport throws', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('no transport'); } }) as McpClientLike;
    expect(callAttributes(hostile)).toEqual({ [ATTR_MCP_METHOD_NAME]: 'tools/call' });
  });
});

describe('withTraceContext', () => {
  const span = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  const inSpan = <T>(run: () => T): T => context.with(trace.setSpanContext(context.active(), span), run);

  beforeEach(() => {
    installContextManager();
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterEach(() => propagation.disable());

  it("adds traceparent to the request's _meta, keeping what was there", () => {
    const meta = inSpan(() => withTraceContext({ progressToken: 7 }));
    expect(meta).toEqual({ progressToken: 7, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    expect(inSpan(() => withTraceContext(undefined))).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  });

  it('leaves a traceparent the caller set, and _meta alone when there is no trace context', () => {
    const own = { traceparent: '00-11111111111111111111111111111111-2222222222222222-01' };
    expect(inSpan(() => withTraceContext(own))).toBe(own);
    const meta = { progressToken: 1 };
    expect(withTraceContext(meta)).toBe(meta);
  });
});
