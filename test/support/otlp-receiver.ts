/**
 * A real OTLP/HTTP receiver for tests: binds 127.0.0.1, accepts `POST /v1/traces`, `/v1/metrics` and
 * `/v1/logs` as `application/x-protobuf` or `application/json` (optionally gzip), decodes every body with
 * the official OTLP schema (see `otlp-decode.ts`) and keeps what it accepted in flat, assertable lists.
 *
 * It can also misbehave on purpose, for exporter fault tests: answer 500, answer 429 with Retry-After,
 * never answer (`'hang'`), or be down altogether (`refuse()`, then `start()` again on the same port).
 *
 * @example
 * ```ts
 * const receiver = await OtlpReceiver.start();
 * const exporter = new OTLPTraceExporter({ url: receiver.endpoint('traces') });
 * // ... record and flush spans ...
 * await receiver.waitFor((r) => r.spans().length >= 2);
 * await receiver.stop();
 * ```
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { gunzipSync, inflateSync } from 'node:zlib';
import {
  decodeExportRequest,
  flattenLogs,
  flattenMetrics,
  flattenSpans,
  type OtlpEncoding,
  type OtlpSignal,
  type ReceivedLog,
  type ReceivedMetric,
  type ReceivedSpan,
} from './otlp-decode.js';

export type {
  OtlpAttributes,
  OtlpEncoding,
  OtlpScope,
  OtlpSignal,
  OtlpValue,
  ReceivedDataPoint,
  ReceivedLog,
  ReceivedMetric,
  ReceivedMetricType,
  ReceivedSpan,
  ReceivedSpanEvent,
  ReceivedSpanLink,
} from './otlp-decode.js';

/**
 * How the receiver answers export requests: `'ok'` accepts and stores the data, `{ status }` answers that
 * HTTP error (with `Retry-After` when `retryAfterSeconds` is set) and stores nothing, `'hang'` reads the
 * request and never answers until `stop()`.
 *
 * @example
 * ```ts
 * receiver.respond({ status: 429, retryAfterSeconds: 1 });
 * ```
 */
export type OtlpResponseMode = 'ok' | 'hang' | { status: number; retryAfterSeconds?: number };

/** One request as it reached the receiver, whatever the answer was. */
export interface ReceivedRequest {
  signal: OtlpSignal;
  /** The URL path without the query, e.g. `/v1/traces`. */
  path: string;
  /** The request headers as Node received them (lower-case names). */
  headers: IncomingHttpHeaders;
  /** The body as it came over the wire (before decompression); undefined with `keepBodies: false`. */
  body: Buffer | undefined;
  /** The media type without parameters, e.g. `application/x-protobuf`. */
  contentType: string;
  /** `identity`, `gzip` or `deflate`. */
  contentEncoding: string;
  /** Body size on the wire (before decompression). */
  bytes: number;
  /** Label of the response mode in force: `ok`, `hang`, or the status code such as `500`. */
  mode: string;
  /** The HTTP status sent back; undefined while hanging. */
  status: number | undefined;
  /** `performance.now()` when the body had been read. */
  receivedAtMs: number;
  /** Spans, data points or log records in the body (0 when it could not be decoded). */
  items: number;
  /** Why the body could not be decoded, if it could not. */
  decodeError?: string;
}

/** Options for {@link OtlpReceiver.start}. */
export interface OtlpReceiverOptions {
  /** Port to bind on 127.0.0.1; 0 (the default) lets the OS choose. */
  port?: number;
  /**
   * Further URL paths to accept, with the signal each carries, e.g. `{ '/custom/spans': 'traces' }` for an
   * exporter pointed there by `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`. `/v1/traces`, `/v1/metrics` and
   * `/v1/logs` are always accepted.
   */
  paths?: Readonly<Record<string, OtlpSignal>>;
  /**
   * Keep each request's raw body in {@link ReceivedRequest.body}. Default true; turn it off when a test
   * sends a lot of data and measures the heap of the process the receiver runs in.
   */
  keepBodies?: boolean;
}

const SIGNAL_PATHS: Readonly<Record<string, OtlpSignal>> = {
  '/v1/traces': 'traces',
  '/v1/metrics': 'metrics',
  '/v1/logs': 'logs',
};

const MEDIA_TYPES: Record<string, OtlpEncoding> = {
  'application/x-protobuf': 'protobuf',
  'application/json': 'json',
};

function modeLabel(mode: OtlpResponseMode): string {
  return typeof mode === 'string' ? mode : String(mode.status);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function decompress(body: Buffer, contentEncoding: string): Buffer {
  if (contentEncoding === 'gzip') return gunzipSync(body);
  if (contentEncoding === 'deflate') return inflateSync(body);
  if (contentEncoding === 'identity') return body;
  throw new Error(`unsupported Content-Encoding "${contentEncoding}"`);
}

function countItems(signal: OtlpSignal, spans: number, metrics: ReceivedMetric[], logs: number): number {
  if (signal === 'traces') return spans;
  if (signal === 'logs') return logs;
  return metrics.reduce((sum, metric) => sum + metric.dataPoints.length, 0);
}

/**
 * An OTLP/HTTP receiver on 127.0.0.1 that decodes what exporters send and can simulate a failing collector.
 *
 * @example
 * ```ts
 * const receiver = await OtlpReceiver.start();
 * receiver.respond('hang');
 * // ... exports time out ...
 * receiver.respond('ok');
 * await receiver.stop(); // also cuts the hanging connections
 * ```
 */
export class OtlpReceiver {
  private server: Server | undefined;
  private boundPort: number;
  private mode: OtlpResponseMode = 'ok';
  private readonly received: { spans: ReceivedSpan[]; metrics: ReceivedMetric[]; logs: ReceivedLog[] } = {
    spans: [],
    metrics: [],
    logs: [],
  };
  private readonly requestLog: ReceivedRequest[] = [];
  private readonly hanging = new Set<ServerResponse>();
  private readonly signalPaths: ReadonlyMap<string, OtlpSignal>;
  private readonly keepBodies: boolean;

  private constructor(options: OtlpReceiverOptions) {
    this.boundPort = options.port ?? 0;
    this.signalPaths = new Map(Object.entries({ ...SIGNAL_PATHS, ...options.paths }));
    this.keepBodies = options.keepBodies ?? true;
  }

  /**
   * Creates a receiver and starts listening.
   *
   * @example
   * ```ts
   * const receiver = await OtlpReceiver.start();
   * console.log(receiver.url); // http://127.0.0.1:40123
   * ```
   */
  static async start(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver(options);
    await receiver.start();
    return receiver;
  }

  /** The bound port; stays the same across `refuse()` / `start()`. */
  get port(): number {
    return this.boundPort;
  }

  /** Base URL, e.g. `http://127.0.0.1:40123` (what `OTEL_EXPORTER_OTLP_ENDPOINT` takes). */
  get url(): string {
    return `http://127.0.0.1:${this.boundPort}`;
  }

  /** Requests currently held open by the `'hang'` mode. */
  get hangingRequests(): number {
    return this.hanging.size;
  }

  /** Whether the receiver is accepting connections. */
  get listening(): boolean {
    return this.server !== undefined;
  }

  /**
   * Full URL of one signal's endpoint, for an exporter's `url` option.
   *
   * @example
   * ```ts
   * new OTLPLogExporter({ url: receiver.endpoint('logs') });
   * ```
   */
  endpoint(signal: OtlpSignal): string {
    return `${this.url}/v1/${signal}`;
  }

  /**
   * Starts listening again, on the same port as before if there was one; a no-op when already listening.
   * Used after `refuse()` to simulate a collector coming back.
   */
  async start(): Promise<void> {
    if (this.server !== undefined) return;
    const server = createServer((request, response) => {
      void this.handle(request, response);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.boundPort, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.boundPort = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /**
   * Closes the listener and every open connection, hanging ones included, so a test never waits on a
   * socket. Idempotent. Received data is kept.
   */
  async stop(): Promise<void> {
    const server = this.server;
    if (server === undefined) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    this.hanging.clear();
    server.closeAllConnections();
    await closed;
  }

  /**
   * Simulates a collector that is down: the port is closed, so connections are refused. Call `start()` to
   * bring it back on the same port.
   */
  async refuse(): Promise<void> {
    await this.stop();
  }

  /**
   * Sets how later requests are answered. Requests already hanging keep hanging.
   *
   * @example
   * ```ts
   * receiver.respond({ status: 500 });
   * ```
   */
  respond(mode: OtlpResponseMode): void {
    if (typeof mode !== 'string' && (mode.status < 300 || mode.status > 599)) {
      throw new RangeError(`respond({ status }) takes an error status (300-599), got ${mode.status}`);
    }
    this.mode = mode;
  }

  /** Spans accepted so far (answered `ok`), in arrival order. */
  spans(): ReceivedSpan[] {
    return [...this.received.spans];
  }

  /** Metrics accepted so far; each export of the same instrument is a separate entry. */
  metrics(): ReceivedMetric[] {
    return [...this.received.metrics];
  }

  /**
   * The latest export of the metric `name` (metrics are cumulative, so that is its current state), or
   * undefined when none arrived.
   *
   * @example
   * ```ts
   * const calls = receiver.latestMetric('toolhooks.tool.calls');
   * ```
   */
  latestMetric(name: string): ReceivedMetric | undefined {
    for (let index = this.received.metrics.length - 1; index >= 0; index -= 1) {
      const metric = this.received.metrics[index];
      if (metric?.name === name) return metric;
    }
    return undefined;
  }

  /** Log records accepted so far, in arrival order. */
  logs(): ReceivedLog[] {
    return [...this.received.logs];
  }

  /** Every request received, whatever it was answered, in arrival order. */
  requests(): ReceivedRequest[] {
    return [...this.requestLog];
  }

  /**
   * Request counts by signal, by content type and by response mode.
   *
   * @example
   * ```ts
   * expect(receiver.counts().byMode['429']).toBe(3);
   * ```
   */
  counts(): {
    total: number;
    bySignal: Record<OtlpSignal, number>;
    byContentType: Record<string, number>;
    byMode: Record<string, number>;
  } {
    const bySignal: Record<OtlpSignal, number> = { traces: 0, metrics: 0, logs: 0 };
    const byContentType: Record<string, number> = {};
    const byMode: Record<string, number> = {};
    for (const request of this.requestLog) {
      bySignal[request.signal] += 1;
      byContentType[request.contentType] = (byContentType[request.contentType] ?? 0) + 1;
      byMode[request.mode] = (byMode[request.mode] ?? 0) + 1;
    }
    return { total: this.requestLog.length, bySignal, byContentType, byMode };
  }

  /** Forgets received data and requests; the response mode and the listener are unchanged. */
  clear(): void {
    this.received.spans.length = 0;
    this.received.metrics.length = 0;
    this.received.logs.length = 0;
    this.requestLog.length = 0;
  }

  /**
   * Polls `predicate` until it returns true; rejects after `timeoutMs` with what had arrived by then.
   *
   * @example
   * ```ts
   * await receiver.waitFor((r) => r.logs().some((log) => log.body === 'done'), 5_000);
   * ```
   */
  async waitFor(predicate: (receiver: OtlpReceiver) => boolean, timeoutMs = 5_000, intervalMs = 10): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (predicate(this)) return;
      if (performance.now() >= deadline) {
        const { total, byMode } = this.counts();
        throw new Error(
          `OtlpReceiver.waitFor timed out after ${timeoutMs} ms: ${total} requests ${JSON.stringify(byMode)}, ` +
            `${this.received.spans.length} spans, ${this.received.metrics.length} metrics, ` +
            `${this.received.logs.length} logs`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const signal = this.signalPaths.get(path);
    if (signal === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { Allow: 'POST' }).end();
      return;
    }
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const encoding = MEDIA_TYPES[contentType];
    if (encoding === undefined) {
      response.writeHead(415).end();
      return;
    }
    let wire: Buffer;
    try {
      wire = await readBody(request);
    } catch {
      return; // the client went away mid-body; nothing to answer
    }
    const mode = this.mode;
    const record: ReceivedRequest = {
      signal,
      path,
      headers: request.headers,
      body: this.keepBodies ? wire : undefined,
      contentType,
      contentEncoding: (request.headers['content-encoding'] ?? 'identity').toLowerCase(),
      bytes: wire.length,
      mode: modeLabel(mode),
      status: undefined,
      receivedAtMs: performance.now(),
      items: 0,
    };
    this.requestLog.push(record);

    let decoded: { spans: ReceivedSpan[]; metrics: ReceivedMetric[]; logs: ReceivedLog[] } | undefined;
    try {
      const plain = decodeExportRequest(signal, decompress(wire, record.contentEncoding), encoding);
      decoded = {
        spans: signal === 'traces' ? flattenSpans(plain, encoding) : [],
        metrics: signal === 'metrics' ? flattenMetrics(plain, encoding) : [],
        logs: signal === 'logs' ? flattenLogs(plain, encoding) : [],
      };
      record.items = countItems(signal, decoded.spans.length, decoded.metrics, decoded.logs.length);
    } catch (error) {
      record.decodeError = error instanceof Error ? error.message : String(error);
    }

    if (mode === 'hang') {
      this.hanging.add(response);
      response.on('close', () => this.hanging.delete(response));
      return;
    }
    const headers: Record<string, string> = { 'Content-Type': contentType };
    if (mode !== 'ok') {
      if (mode.retryAfterSeconds !== undefined) headers['Retry-After'] = String(mode.retryAfterSeconds);
      record.status = mode.status;
      response.writeHead(mode.status, headers).end();
      return;
    }
    if (decoded === undefined) {
      record.status = 400;
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end(record.decodeError);
      return;
    }
    this.received.spans.push(...decoded.spans);
    this.received.metrics.push(...decoded.metrics);
    this.received.logs.push(...decoded.logs);
    record.status = 200;
    // An empty Export*ServiceResponse: zero bytes in protobuf, `{}` in JSON (full success, no partial_success).
    response.writeHead(200, headers).end(encoding === 'json' ? '{}' : undefined);
  }
}

