// An OTLP/HTTP receiver for tests: listens on 127.0.0.1, accepts traces, metrics and logs as http/protobuf
// or http/json, answers as told, and decodes what it got into one plain shape whatever the encoding.
// Protobuf payloads are decoded with the official OTLP schema, as compiled into the protobufjs module that
// @opentelemetry/otlp-transformer 0.57 shipped (installed as the dev alias `otlp-proto-schema`).
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export type Attributes = Record<string, unknown>;

export interface ReceivedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly kind: number;
  readonly attributes: Attributes;
  readonly events: readonly { readonly name: string; readonly attributes: Attributes }[];
  readonly status: { readonly code: number; readonly message?: string };
  readonly scope: string;
  readonly resource: Attributes;
}

export interface ReceivedPoint {
  readonly attributes: Attributes;
  /** Sums and gauges. */
  readonly value?: number;
  /** Histograms. */
  readonly count?: number;
  readonly sum?: number;
  readonly bucketCounts?: readonly number[];
  readonly explicitBounds?: readonly number[];
}

export interface ReceivedMetric {
  readonly name: string;
  readonly unit: string;
  readonly kind: 'sum' | 'gauge' | 'histogram' | 'other';
  readonly points: readonly ReceivedPoint[];
  readonly scope: string;
  readonly resource: Attributes;
}

export interface ReceivedLog {
  readonly body: unknown;
  readonly severityNumber: number;
  readonly severityText: string | undefined;
  readonly traceId: string | undefined;
  readonly spanId: string | undefined;
  readonly attributes: Attributes;
  readonly scope: string;
  readonly resource: Attributes;
}

export interface OtlpReceiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** The HTTP status to answer with from now on (default 200), and extra response headers. */
  answer(status: number, headers?: Record<string, string>): void;
  paths(): string[];
  /** Every span received so far, decoded. */
  spans(): ReceivedSpan[];
  /** Every metric of every export received so far, decoded (cumulative metrics repeat per export). */
  metrics(): ReceivedMetric[];
  /** The metric `name` from the latest export that had it. */
  latestMetric(name: string): ReceivedMetric | undefined;
  /** Every log record received so far, decoded. */
  logs(): ReceivedLog[];
  close(): Promise<void>;
}

/** Starts a receiver on `port` (0: any free port). */
export async function startOtlpReceiver(port = 0): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  let status = 200;
  let extraHeaders: Record<string, string> = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'], headers: req.headers, body: Buffer.concat(chunks) });
      const json = req.headers['content-type'] === 'application/json';
      res.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf', ...extraHeaders });
      res.end(json && status === 200 ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  const decoded = (signal: Signal): Json[] =>
    requests.filter((r) => signalOf(r.path) === signal).map((r) => decode(signal, r));
  const metrics = (): ReceivedMetric[] => decoded('metrics').flatMap(toMetrics);
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    requests,
    answer(code, headers = {}) {
      status = code;
      extraHeaders = headers;
    },
    paths: () => requests.map((r) => r.path),
    spans: () => decoded('traces').flatMap(toSpans),
    metrics,
    latestMetric: (name) => metrics().filter((m) => m.name === name).at(-1),
    logs: () => decoded('logs').flatMap(toLogs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was free a moment ago (nothing listens on it when this returns). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// --- decoding ---------------------------------------------------------------------------------------

type Signal = 'traces' | 'metrics' | 'logs';
type Json = Record<string, unknown>;

interface ProtoType {
  decode(buffer: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: StringConstructor; bytes: StringConstructor; defaults: boolean }): Json;
}

interface ProtoRoot {
  opentelemetry: {
    proto: {
      collector: {
        trace: { v1: { ExportTraceServiceRequest: ProtoType } };
        metrics: { v1: { ExportMetricsServiceRequest: ProtoType } };
        logs: { v1: { ExportLogsServiceRequest: ProtoType } };
      };
    };
  };
}

let protoRoot: ProtoRoot | undefined;

function schema(signal: Signal): ProtoType {
  protoRoot ??= createRequire(import.meta.url)('otlp-transformer-0.214/build/src/generated/root.js') as ProtoRoot;
  const collector = protoRoot.opentelemetry.proto.collector;
  if (signal === 'traces') return collector.trace.v1.ExportTraceServiceRequest;
  if (signal === 'metrics') return collector.metrics.v1.ExportMetricsServiceRequest;
  return collector.logs.v1.ExportLogsServiceRequest;
}

function signalOf(path: string): Signal | undefined {
  if (path.endsWith('/v1/traces')) return 'traces';
  if (path.endsWith('/v1/metrics')) return 'metrics';
  if (path.endsWith('/v1/logs')) return 'logs';
  return undefined;
}

function decode(signal: Signal, request: ReceivedRequest): Json {
  if (request.contentType === 'application/json') return JSON.parse(request.body.toString('utf8')) as Json;
  const type = schema(signal);
  // protobuf bytes come out base64-encoded; ids are turned into hex below, as in the JSON encoding.
  return type.toObject(type.decode(request.body), { longs: String, bytes: String, defaults: false });
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function obj(value: unknown): Json {
  return value !== null && typeof value === 'object' ? (value as Json) : {};
}

/** An id as hex: JSON sends hex already, protobuf (through toObject) base64. */
function hexId(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return /^[0-9a-f]+$/.test(value) && (value.length === 32 || value.length === 16) ? value : Buffer.from(value, 'base64').toString('hex');
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value !== '') return Number(value);
  return undefined;
}

function anyValue(value: unknown): unknown {
  const v = obj(value);
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('intValue' in v) return num(v.intValue);
  if ('doubleValue' in v) return num(v.doubleValue);
  if ('arrayValue' in v) return list(obj(v.arrayValue).values).map(anyValue);
  if ('kvlistValue' in v) return attributes(obj(v.kvlistValue).values);
  if ('bytesValue' in v) return v.bytesValue;
  return undefined;
}

function attributes(value: unknown): Attributes {
  const out: Attributes = {};
  for (const kv of list(value)) out[String(kv.key)] = anyValue(kv.value);
  return out;
}

function toSpans(payload: Json): ReceivedSpan[] {
  return list(payload.resourceSpans).flatMap((rs) => {
    const resource = attributes(obj(rs.resource).attributes);
    return list(rs.scopeSpans).flatMap((ss) =>
      list(ss.spans).map((s): ReceivedSpan => {
        const status = obj(s.status);
        return {
          name: String(s.name),
          traceId: hexId(s.traceId) ?? '',
          spanId: hexId(s.spanId) ?? '',
          parentSpanId: hexId(s.parentSpanId),
          kind: num(s.kind) ?? 0,
          attributes: attributes(s.attributes),
          events: list(s.events).map((e) => ({ name: String(e.name), attributes: attributes(e.attributes) })),
          status: typeof status.message === 'string' ? { code: num(status.code) ?? 0, message: status.message } : { code: num(status.code) ?? 0 },
          scope: String(obj(ss.scope).name),
          resource,
        };
      }),
    );
  });
}

function toMetrics(payload: Json): ReceivedMetric[] {
  return list(payload.resourceMetrics).flatMap((rm) => {
    const resource = attributes(obj(rm.resource).attributes);
    return list(rm.scopeMetrics).flatMap((sm) =>
      list(sm.metrics).map((m): ReceivedMetric => {
        const base = { name: String(m.name), unit: typeof m.unit === 'string' ? m.unit : '', scope: String(obj(sm.scope).name), resource };
        if ('histogram' in m) {
          const points = list(obj(m.histogram).dataPoints).map((p): ReceivedPoint => {
            const point: { attributes: Attributes; count?: number; sum?: number; bucketCounts: number[]; explicitBounds: number[] } = {
              attributes: attributes(p.attributes),
              bucketCounts: list(p.bucketCounts).map((c) => num(c) ?? 0),
              explicitBounds: list(p.explicitBounds).map((b) => num(b) ?? 0),
            };
            const count = num(p.count);
            const sum = num(p.sum);
            if (count !== undefined) point.count = count;
            if (sum !== undefined) point.sum = sum;
            return point;
          });
          return { ...base, kind: 'histogram', points };
        }
        const kind = 'sum' in m ? 'sum' : 'gauge' in m ? 'gauge' : 'other';
        const points = list(obj(kind === 'sum' ? m.sum : m.gauge).dataPoints).map((p): ReceivedPoint => {
          const value = num(p.asInt) ?? num(p.asDouble);
          return value === undefined ? { attributes: attributes(p.attributes) } : { attributes: attributes(p.attributes), value };
        });
        return { ...base, kind, points };
      }),
    );
  });
}

function toLogs(payload: Json): ReceivedLog[] {
  return list(payload.resourceLogs).flatMap((rl) => {
    const resource = attributes(obj(rl.resource).attributes);
    return list(rl.scopeLogs).flatMap((sl) =>
      list(sl.logRecords).map(
        (r): ReceivedLog => ({
          body: anyValue(r.body),
          severityNumber: num(r.severityNumber) ?? 0,
          severityText: typeof r.severityText === 'string' ? r.severityText : undefined,
          traceId: hexId(r.traceId),
          spanId: hexId(r.spanId),
          attributes: attributes(r.attributes),
          scope: String(obj(sl.scope).name),
          resource,
        }),
      ),
    );
  });
}
