/**
 * What the MCP adapter adds to a call's telemetry, after the MCP semantic conventions: the span's
 * `mcp.*` attributes, and the W3C trace context carried to the server in the request's `_meta`, so an
 * instrumented server's spans join the agent's trace.
 * @internal
 */
import type { Attributes } from '@opentelemetry/api';
import { context as otelContext, propagation } from '@opentelemetry/api';
import { reportTelemetryFailure } from '../../telemetry/failures.js';
import { ATTR_MCP_METHOD_NAME, ATTR_MCP_SESSION_ID, MCP_METHOD_TOOLS_CALL } from '../../telemetry/semconv.js';
import type { McpClientLike } from './with-mcp-hooks.js';

/** The MCP attributes of the execute_tool span: the method, and the session when the transport has one. */
export function callAttributes(client: McpClientLike): Attributes {
  const attributes: Attributes = { [ATTR_MCP_METHOD_NAME]: MCP_METHOD_TOOLS_CALL };
  try {
    // Streamable HTTP has a session id once initialized; stdio and in-memory transports have none.
    const transport: unknown = Reflect.get(client, 'transport', client);
    const sessionId: unknown = transport !== null && typeof transport === 'object' ? (transport as { sessionId?: unknown }).sessionId : undefined;
    if (typeof sessionId === 'string' && sessionId.length > 0) attributes[ATTR_MCP_SESSION_ID] = sessionId;
  } catch (error) {
    reportTelemetryFailure('mcp.session.id', error);
  }
  return attributes;
}

/**
 * The request's `_meta` with the active trace context (W3C `traceparent`, `tracestate`, through the
 * global propagator) added to the caller's fields. A caller who set any of those fields propagates
 * its own context: its `_meta` is sent as it is. Never throws; undefined when there is nothing to send.
 */
export function withTraceContext(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  try {
    const carrier: Record<string, string> = {};
    propagation.inject(otelContext.active(), carrier);
    const keys = Object.keys(carrier);
    if (keys.length === 0 || (meta !== undefined && keys.some((key) => Object.prototype.hasOwnProperty.call(meta, key)))) return meta;
    const traced: Record<string, unknown> = { ...meta };
    for (const key of keys) Object.defineProperty(traced, key, { value: carrier[key], enumerable: true, writable: true, configurable: true });
    return traced;
  } catch (error) {
    reportTelemetryFailure('mcp trace context', error);
    return meta;
  }
}
