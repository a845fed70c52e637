/**
 * What the MCP adapter adds to a call's telemetry, after the MCP semantic conventions: the span's
 * `mcp.*` attributes, and the W3C trace context carried to the server in the request's `_meta`, so an
 * instrumented server's spans join the agent's trace.
 * @internal
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { context as otelContext, propagation } from '@opentelemetry/api';
import { reportTelemetryFailure } from '../../telemetry/failures.js';
import { recordingActiveSpan } from '../../telemetry/span.js';
import { callSpanOfRun } from '../../flows/outer-call.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  SPAN_EXECUTE_TOOL_PREFIX,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_TRANSPORT,
  MCP_METHOD_TOOLS_CALL,
} from '../../telemetry/semconv.js';
import type { McpClientLike } from './types.js';

/**
 * The MCP attributes of the execute_tool span, per the MCP semantic conventions: the method, the
 * negotiated protocol revision, the transport (`pipe` for stdio, `tcp` for HTTP; none for an
 * in-process pair), and the session only where the protocol has sessions — a legacy (2025-era)
 * connection over Streamable HTTP; the 2026-07-28 revision is sessionless.
 */
export function callAttributes(client: McpClientLike): Attributes {
  const attributes: Attributes = { [ATTR_MCP_METHOD_NAME]: MCP_METHOD_TOOLS_CALL };
  try {
    const transport: unknown = Reflect.get(client, 'transport', client);
    const version = protocolVersionOf(client, transport);
    if (version !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = version;
    const network = networkTransportOf(transport);
    if (network !== undefined) attributes[ATTR_NETWORK_TRANSPORT] = network;
    const sessionId: unknown = transport !== null && typeof transport === 'object' ? (transport as { sessionId?: unknown }).sessionId : undefined;
    if (typeof sessionId === 'string' && sessionId.length > 0 && eraOf(client) !== 'modern') attributes[ATTR_MCP_SESSION_ID] = sessionId;
  } catch (error) {
    reportTelemetryFailure('mcp attributes', error);
  }
  return attributes;
}

/** The negotiated revision: the v2 client's getter, else what a v1 HTTP transport sends as its header. */
function protocolVersionOf(client: McpClientLike, transport: unknown): string | undefined {
  const getter: unknown = Reflect.get(client, 'getNegotiatedProtocolVersion', client);
  const fromClient: unknown = typeof getter === 'function' ? (getter as () => unknown).call(client) : undefined;
  if (typeof fromClient === 'string' && fromClient.length > 0) return fromClient;
  const fromTransport: unknown = transport !== null && typeof transport === 'object' ? (transport as { protocolVersion?: unknown }).protocolVersion : undefined;
  return typeof fromTransport === 'string' && fromTransport.length > 0 ? fromTransport : undefined;
}

/** `network.transport` of the SDK's transports, told apart by their class. */
function networkTransportOf(transport: unknown): string | undefined {
  if (transport === null || typeof transport !== 'object') return undefined;
  const name = (transport as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof name !== 'string') return undefined;
  if (/Stdio/i.test(name)) return 'pipe';
  if (/HTTP|SSE|WebSocket/i.test(name)) return 'tcp';
  return undefined;
}

/** The v2 client's protocol era (`modern` for 2026-07-28 and later); undefined for v1. */
function eraOf(client: McpClientLike): unknown {
  const getter: unknown = Reflect.get(client, 'getProtocolEra', client);
  return typeof getter === 'function' ? (getter as () => unknown).call(client) : undefined;
}

/** Whether the client is the MCP TypeScript SDK v2's (`callTool(params, options)`), not v1's (`callTool(params, resultSchema, options)`). */
export function isV2Client(client: McpClientLike): boolean {
  return typeof Reflect.get(client, 'getProtocolEra', client) === 'function';
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

/**
 * The active span when it is a recording `execute_tool` span (toolhooks' own or a framework's) that covers
 * the MCP call about to be made, else undefined: with `span: 'outer'`, the call records on it instead of
 * starting a second `execute_tool`. Never throws.
 */
export function outerToolSpan(): Span | undefined {
  // Inside a hooked tool's executor the active span is its toolhooks.execute run: the call's span covers it.
  return recordingActiveSpan('outer execute_tool span', isExecuteToolSpan, undefined, undefined, callSpanOfRun);
}

/** Whether a span is an `execute_tool` span: by its operation name, else (none recorded) by its name's prefix. */
function isExecuteToolSpan(name: string | undefined, attributes: Readonly<Record<string, unknown>> | undefined): boolean {
  const operation = attributes?.[ATTR_GEN_AI_OPERATION_NAME];
  return operation === GEN_AI_OPERATION_EXECUTE_TOOL || (operation === undefined && name?.startsWith(`${SPAN_EXECUTE_TOOL_PREFIX} `) === true);
}
