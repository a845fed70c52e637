import { context, diag, DiagLogLevel, SpanKind, SpanStatusCode, trace, type HrTime } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchLogRecordProcessor,
  LoggerProvider,
  SimpleLogRecordProcessor,
  type LogRecordExporter,
} from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import {
  TracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OtlpReceiver, type OtlpEncoding, type ReceivedMetric } from '../../support/otlp-receiver.js';

interface ExporterConfig {
  url: string;
  timeoutMillis?: number;
}

interface Variant {
  encoding: OtlpEncoding;
  contentType: string;
  traces: (config: ExporterConfig) => SpanExporter;
  metrics: (config: ExporterConfig) => PushMetricExporter;
  logs: (config: ExporterConfig) => LogRecordExporter;
}

// In the 0.223 line the *-otlp-proto packages send protobuf and the *-otlp-http packages send JSON.
const VARIANTS: Variant[] = [
  {
    encoding: 'protobuf',
    contentType: 'application/x-protobuf',
    traces: (config) => new ProtoTraceExporter(config),
    metrics: (config) => new ProtoMetricExporter(config),
    logs: (config) => new ProtoLogExporter(config),
  },
  {
    encoding: 'json',
    contentType: 'application/json',
    traces: (config) => new JsonTraceExporter(config),
    metrics: (config) => new JsonMetricExporter(config),
    logs: (config) => new JsonLogExporter(config),
  },
];

// OTLP span kinds are the API's plus one (0 is UNSPECIFIED on the wire).
const OTLP_KIND: Record<SpanKind, string> = {
  [SpanKind.INTERNAL]: 'SPAN_KIND_INTERNAL',
  [SpanKind.SERVER]: 'SPAN_KIND_SERVER',
  [SpanKind.CLIENT]: 'SPAN_KIND_CLIENT',
  [SpanKind.PRODUCER]: 'SPAN_KIND_PRODUCER',
  [SpanKind.CONSUMER]: 'SPAN_KIND_CONSUMER',
};

const OTLP_STATUS: Record<SpanStatusCode, string> = {
  [SpanStatusCode.UNSET]: 'STATUS_CODE_UNSET',
  [SpanStatusCode.OK]: 'STATUS_CODE_OK',
  [SpanStatusCode.ERROR]: 'STATUS_CODE_ERROR',
};

const resource = resourceFromAttributes({ 'service.name': 'otlp-receiver-test', 'deployment.environment': 'test' });

function nanos(time: HrTime): bigint {
  return BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);
}

function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

/** Records `count` finished spans with a real SDK tracer, for feeding an exporter directly. */
function recordSpans(count: number, name = 'work'): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new TracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor({ exporter: memory })] });
  const tracer = provider.getTracer('otlp-receiver-test');
  for (let index = 0; index < count; index += 1) {
    tracer.startSpan(`${name} ${index}`).end();
  }
  return memory.getFinishedSpans();
}

function metricNamed(metrics: ReceivedMetric[], name: string): ReceivedMetric {
  const found = metrics.find((metric) => metric.name === name);
  if (found === undefined) throw new Error(`no metric ${name} among ${metrics.map((m) => m.name).join(', ')}`);
  return found;
}

function errorCode(result: ExportResult): unknown {
  const error: unknown = result.error;
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

interface DiagLine {
  level: string;
  message: string;
}

/** Routes the global diag logger into an array for the duration of one test. */
function captureDiag(): DiagLine[] {
  const lines: DiagLine[] = [];
  const line =
    (level: string) =>
    (message: string, ...args: unknown[]): void => {
      lines.push({ level, message: [message, ...args.map((arg) => String(arg))].join(' ') });
    };
  diag.setLogger(
    { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug'), verbose: line('verbose') },
    { logLevel: DiagLogLevel.ALL, suppressOverrideMessage: true },
  );
  return lines;
}

let receiver: OtlpReceiver;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
});

afterEach(async () => {
  diag.disable();
  vi.unstubAllEnvs();
  await receiver.start(); // a test may have left it refusing
  receiver.respond('ok');
  receiver.clear();
});

afterAll(async () => {
  await receiver.stop();
});

describe.each(VARIANTS)('OtlpReceiver round trip with the real $encoding exporters', (variant) => {
  it('decodes spans with the ids, parentage, attributes, events and status the SDK recorded', async () => {
    const exporter = variant.traces({ url: receiver.endpoint('traces') });
    const memory = new InMemorySpanExporter();
    const provider = new TracerProvider({
      resource,
      spanProcessors: [new SimpleSpanProcessor({ exporter }), new SimpleSpanProcessor({ exporter: memory })],
    });
    const tracer = provider.getTracer('otlp-receiver-test', '1.2.3');

    const parent = tracer.startSpan('execute_tool search', {
      kind: SpanKind.INTERNAL,
      attributes: { 'tool.name': 'search', 'tool.attempt': 2, 'tool.score': 0.25, 'tool.cached': false },
    });
    const child = tracer.startSpan(
      'hook before',
      { kind: SpanKind.CLIENT, attributes: { 'hook.tags': ['a', 'b'] } },
      trace.setSpan(context.active(), parent),
    );
    child.addEvent('decision', { 'decision.kind': 'skip', 'decision.count': 3 });
    child.setStatus({ code: SpanStatusCode.ERROR, message: 'hook failed' });
    child.end();
    parent.end();
    await provider.forceFlush();
    await receiver.waitFor((r) => r.spans().length === 2);

    const recorded = memory.getFinishedSpans();
    expect(recorded).toHaveLength(2);
    for (const span of recorded) {
      const decoded = receiver.spans().find((s) => s.spanId === span.spanContext().spanId);
      expect(decoded).toEqual({
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        traceState: '',
        flags: expect.any(Number),
        name: span.name,
        kind: OTLP_KIND[span.kind],
        startTimeUnixNano: nanos(span.startTime),
        endTimeUnixNano: nanos(span.endTime),
        attributes: span.attributes,
        droppedAttributesCount: 0,
        events: span.events.map((event) => ({
          name: event.name,
          timeUnixNano: nanos(event.time),
          attributes: event.attributes ?? {},
        })),
        links: [],
        status: { code: OTLP_STATUS[span.status.code], message: span.status.message ?? '' },
        resource: { ...resource.attributes, ...span.resource.attributes },
        scope: { name: 'otlp-receiver-test', version: '1.2.3', attributes: {} },
        encoding: variant.encoding,
      });
      expect(decoded?.flags ?? 0).toSatisfy((flags: number) => (flags & 0xff) === 1); // sampled
    }

    // The same facts spelled out, so a bug shared by the SDK record and the decoder cannot hide.
    const decodedChild = receiver.spans().find((s) => s.name === 'hook before');
    expect(decodedChild).toMatchObject({
      traceId: parent.spanContext().traceId,
      parentSpanId: parent.spanContext().spanId,
      kind: 'SPAN_KIND_CLIENT',
      attributes: { 'hook.tags': ['a', 'b'] },
      events: [{ name: 'decision', attributes: { 'decision.kind': 'skip', 'decision.count': 3 } }],
      status: { code: 'STATUS_CODE_ERROR', message: 'hook failed' },
    });
    expect(decodedChild?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(receiver.spans().find((s) => s.name === 'execute_tool search')).toMatchObject({
      parentSpanId: undefined,
      attributes: { 'tool.name': 'search', 'tool.attempt': 2, 'tool.score': 0.25, 'tool.cached': false },
      resource: { 'service.name': 'otlp-receiver-test' },
    });
    expect(receiver.counts().byContentType).toEqual({ [variant.contentType]: 2 });
    expect(receiver.counts().bySignal).toEqual({ traces: 2, metrics: 0, logs: 0 });
    await provider.shutdown();
  });

  it('decodes a gzip body when OTEL_EXPORTER_OTLP_COMPRESSION=gzip', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_COMPRESSION', 'gzip');
    const exporter = variant.traces({ url: receiver.endpoint('traces') });
    const spans = recordSpans(3, 'zipped');
    expect(await exportSpans(exporter, spans)).toEqual({ code: ExportResultCode.SUCCESS });
    expect(receiver.requests()).toMatchObject([{ contentEncoding: 'gzip', status: 200, items: 3 }]);
    expect(receiver.spans().map((s) => s.spanId)).toEqual(spans.map((s) => s.spanContext().spanId));
    await exporter.shutdown();
  });

  it('decodes sums, gauges and histograms with their buckets, attributes and scope', async () => {
    const reader = new PeriodicExportingMetricReader({
      exporter: variant.metrics({ url: receiver.endpoint('metrics') }),
      exportIntervalMillis: 600_000,
    });
    const provider = new MeterProvider({ resource, readers: [reader] });
    const meter = provider.getMeter('otlp-receiver-test', '1.2.3');

    const calls = meter.createCounter('test.calls', { unit: '{call}', description: 'Calls made' });
    calls.add(1, { tool: 'search', outcome: 'completed' });
    calls.add(2, { tool: 'search', outcome: 'completed' });
    calls.add(1, { tool: 'fetch', outcome: 'aborted' });
    const duration = meter.createHistogram('test.duration', {
      unit: 's',
      advice: { explicitBucketBoundaries: [0.1, 1, 10] },
    });
    for (const seconds of [0.05, 0.5, 0.5, 5, 50]) duration.record(seconds, { tool: 'search' });
    meter.createGauge('test.depth', { unit: '{item}' }).record(7, { queue: 'main' });
    const inflight = meter.createUpDownCounter('test.inflight');
    inflight.add(3);
    inflight.add(-1);

    await provider.forceFlush();
    await receiver.waitFor((r) => r.metrics().length >= 4);
    const metrics = receiver.metrics();

    const callsMetric = metricNamed(metrics, 'test.calls');
    expect(callsMetric).toMatchObject({
      type: 'sum',
      unit: '{call}',
      description: 'Calls made',
      isMonotonic: true,
      aggregationTemporality: 'AGGREGATION_TEMPORALITY_CUMULATIVE',
      scope: { name: 'otlp-receiver-test', version: '1.2.3' },
      resource: { 'service.name': 'otlp-receiver-test', 'deployment.environment': 'test' },
      encoding: variant.encoding,
    });
    const callPoints = callsMetric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value }));
    expect(callPoints).toEqual(
      expect.arrayContaining([
        { attributes: { tool: 'search', outcome: 'completed' }, value: 3 },
        { attributes: { tool: 'fetch', outcome: 'aborted' }, value: 1 },
      ]),
    );
    expect(callPoints).toHaveLength(2);

    const durationMetric = metricNamed(metrics, 'test.duration');
    expect(durationMetric).toMatchObject({ type: 'histogram', unit: 's' });
    expect(durationMetric.dataPoints).toHaveLength(1);
    const histogram = durationMetric.dataPoints[0];
    expect(histogram).toMatchObject({
      attributes: { tool: 'search' },
      count: 5,
      min: 0.05,
      max: 50,
      explicitBounds: [0.1, 1, 10],
      bucketCounts: [1, 2, 1, 1],
    });
    expect(histogram?.sum).toBeCloseTo(56.05, 10);
    expect(histogram?.startTimeUnixNano ?? 0n).toBeGreaterThan(0n);
    expect(histogram?.timeUnixNano ?? 0n).toBeGreaterThanOrEqual(histogram?.startTimeUnixNano ?? 0n);

    expect(metricNamed(metrics, 'test.depth')).toMatchObject({
      type: 'gauge',
      dataPoints: [{ attributes: { queue: 'main' }, value: 7 }],
    });
    expect(metricNamed(metrics, 'test.inflight')).toMatchObject({
      type: 'sum',
      isMonotonic: false,
      dataPoints: [{ attributes: {}, value: 2 }],
    });
    expect(receiver.counts().byContentType).toEqual({ [variant.contentType]: 1 });
    await provider.shutdown();
  });

  it('decodes log records with body, severity, attributes and the span context they were emitted in', async () => {
    const provider = new LoggerProvider({
      resource,
      processors: [new SimpleLogRecordProcessor({ exporter: variant.logs({ url: receiver.endpoint('logs') }) })],
    });
    const logger = provider.getLogger('otlp-receiver-test', '1.2.3');
    const span = new TracerProvider().getTracer('t').startSpan('tool call');

    logger.emit({
      severityNumber: SeverityNumber.WARN,
      severityText: 'WARN',
      body: 'hook skipped the call',
      attributes: { 'tool.name': 'search', 'decision.kind': 'skip' },
      context: trace.setSpan(context.active(), span),
    });
    logger.emit({
      severityNumber: SeverityNumber.INFO,
      severityText: 'INFO',
      body: { message: 'structured', count: 3, nested: { ok: true } },
    });
    span.end();
    await provider.forceFlush();
    await receiver.waitFor((r) => r.logs().length === 2);

    const [withSpan, structured] = receiver.logs();
    expect(withSpan).toMatchObject({
      body: 'hook skipped the call',
      severityText: 'WARN',
      severityNumber: SeverityNumber.WARN,
      attributes: { 'tool.name': 'search', 'decision.kind': 'skip' },
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
      flags: 1,
      scope: { name: 'otlp-receiver-test', version: '1.2.3' },
      resource: { 'service.name': 'otlp-receiver-test' },
      encoding: variant.encoding,
    });
    expect(withSpan?.timeUnixNano ?? 0n).toBeGreaterThan(0n);
    expect(structured).toMatchObject({
      body: { message: 'structured', count: 3, nested: { ok: true } },
      severityNumber: SeverityNumber.INFO,
      traceId: undefined,
      spanId: undefined,
      flags: 0,
    });
    expect(receiver.counts().byContentType).toEqual({ [variant.contentType]: 2 });
    await provider.shutdown();
  });
});

describe('OtlpReceiver request handling', () => {
  it('decodes hand-written OTLP/JSON per the spec: hex ids, int64 as strings, enums as integers', async () => {
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'hand' } }] },
          scopeSpans: [
            {
              scope: { name: 'manual', version: '0.0.1' },
              spans: [
                {
                  traceId: '5B8EFFF798038103D269B633813FC60C',
                  spanId: 'EEE19B7EC3C1B174',
                  parentSpanId: 'EEE19B7EC3C1B173',
                  name: 'hand-written',
                  kind: 3,
                  startTimeUnixNano: '1544712660000000001',
                  endTimeUnixNano: 1544712661000000000,
                  attributes: [
                    { key: 'big', value: { intValue: '9007199254740993' } },
                    { key: 'small', value: { intValue: 12 } },
                    { key: 'raw', value: { bytesValue: 'AQID' } },
                    { key: 'map', value: { kvlistValue: { values: [{ key: 'k', value: { boolValue: true } }] } } },
                  ],
                  status: { code: 1 },
                },
              ],
            },
          ],
        },
      ],
    };
    const response = await fetch(receiver.endpoint('traces'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect(receiver.spans()).toEqual([
      expect.objectContaining({
        traceId: '5b8efff798038103d269b633813fc60c',
        spanId: 'eee19b7ec3c1b174',
        parentSpanId: 'eee19b7ec3c1b173',
        kind: 'SPAN_KIND_CLIENT',
        startTimeUnixNano: 1544712660000000001n,
        endTimeUnixNano: 1544712661000000000n,
        attributes: { big: 9007199254740993n, small: 12, raw: new Uint8Array([1, 2, 3]), map: { k: true } },
        status: { code: 'STATUS_CODE_OK', message: '' },
        resource: { 'service.name': 'hand' },
        scope: { name: 'manual', version: '0.0.1', attributes: {} },
      }),
    ]);
  });

  it('answers 400 and stores nothing when a body does not fit the schema', async () => {
    const badId = await fetch(receiver.endpoint('logs'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // base64, as plain proto3 JSON would have it, is wrong in OTLP/JSON
      body: JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ traceId: 'W47/95gDgQPSabYzgT/GDA==' }] }] }] }),
    });
    const garbage = await fetch(receiver.endpoint('metrics'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-protobuf' },
      body: new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01]),
    });
    expect([badId.status, garbage.status]).toEqual([400, 400]);
    expect(await badId.text()).toContain('traceId must be 32 hex characters');
    expect(receiver.requests().map((r) => r.decodeError !== undefined)).toEqual([true, true]);
    expect(receiver.logs()).toEqual([]);
    expect(receiver.metrics()).toEqual([]);
  });

  it('rejects unknown paths, methods and media types without counting them as OTLP requests', async () => {
    const statuses = await Promise.all([
      fetch(`${receiver.url}/v1/profiles`, { method: 'POST', body: 'x' }).then((r) => r.status),
      fetch(receiver.endpoint('traces')).then((r) => r.status),
      fetch(receiver.endpoint('traces'), { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' }).then(
        (r) => r.status,
      ),
    ]);
    expect(statuses).toEqual([404, 405, 415]);
    expect(receiver.counts().total).toBe(0);
  });

  it('stop() cuts a hanging request at once, and start() comes back on the same port', async () => {
    receiver.respond('hang');
    const pending = fetch(receiver.endpoint('traces'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    await receiver.waitFor((r) => r.hangingRequests === 1);
    const port = receiver.port;
    const started = performance.now();
    await receiver.stop();
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect(pending).rejects.toThrow();
    expect(receiver.listening).toBe(false);
    await receiver.start();
    expect(receiver.port).toBe(port);
    expect(receiver.counts().byMode).toEqual({ hang: 1 });
  });

  it('keeps each request\'s path, headers and raw body; extra paths map to a signal; bodies can be left out', async () => {
    const exporter = new ProtoTraceExporter({ url: receiver.endpoint('traces'), headers: { 'x-api-key': 'k-1' } });
    const spans = recordSpans(1, 'kept');
    expect(await exportSpans(exporter, spans)).toEqual({ code: ExportResultCode.SUCCESS });
    const [request] = receiver.requests();
    expect(request).toMatchObject({ signal: 'traces', path: '/v1/traces', contentType: 'application/x-protobuf' });
    expect(request?.headers['x-api-key']).toBe('k-1');
    expect(request?.body?.length).toBe(request?.bytes);
    expect(request?.body?.includes(Buffer.from(spans[0]?.spanContext().spanId ?? '', 'hex'))).toBe(true);
    await exporter.shutdown();

    const custom = await OtlpReceiver.start({ paths: { '/custom/spans': 'traces' }, keepBodies: false });
    try {
      const customExporter = new JsonTraceExporter({ url: `${custom.url}/custom/spans?tenant=a` });
      expect(await exportSpans(customExporter, recordSpans(2, 'custom'))).toEqual({ code: ExportResultCode.SUCCESS });
      expect(custom.requests()).toMatchObject([{ signal: 'traces', path: '/custom/spans', body: undefined, items: 2 }]);
      expect(custom.spans().map((s) => s.name)).toEqual(['custom 0', 'custom 1']);
      expect((await fetch(`${custom.url}/v1/traces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(200);
      await customExporter.shutdown();
    } finally {
      await custom.stop();
    }
  });

  it('latestMetric() gives the latest export of a metric, undefined for one never received', async () => {
    const reader = new PeriodicExportingMetricReader({
      exporter: new ProtoMetricExporter({ url: receiver.endpoint('metrics') }),
      exportIntervalMillis: 600_000,
    });
    const provider = new MeterProvider({ resource, readers: [reader] });
    const counter = provider.getMeter('latest').createCounter('test.calls');
    counter.add(2);
    await provider.forceFlush();
    counter.add(3);
    await provider.forceFlush();
    expect(receiver.metrics().filter((m) => m.name === 'test.calls').map((m) => m.dataPoints[0]?.value)).toEqual([2, 5]);
    expect(receiver.latestMetric('test.calls')?.dataPoints[0]?.value).toBe(5);
    expect(receiver.latestMetric('test.other')).toBeUndefined();
    await provider.shutdown();
  });

  it('refuses status codes that are not errors', () => {
    expect(() => receiver.respond({ status: 200 })).toThrow(RangeError);
  });
});

describe('OtlpReceiver fault modes against the real 0.223 exporters', () => {
  it('500: the export fails at once and is not retried', async () => {
    receiver.respond({ status: 500 });
    const exporter = new ProtoTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 5_000 });
    const result = await exportSpans(exporter, recordSpans(2));
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(errorCode(result)).toBe(500);
    expect(receiver.counts().byMode).toEqual({ '500': 1 });
    expect(receiver.requests()[0]?.items).toBe(2); // it was a well-formed payload, just refused
    expect(receiver.spans()).toEqual([]);

    receiver.respond('ok');
    const later = recordSpans(1, 'after');
    expect(await exportSpans(exporter, later)).toEqual({ code: ExportResultCode.SUCCESS });
    expect(receiver.spans().map((s) => s.name)).toEqual(['after 0']);
    await exporter.shutdown();
  });

  it('429 with Retry-After: retries at the asked interval until the export timeout, then fails', async () => {
    receiver.respond({ status: 429, retryAfterSeconds: 1 });
    const exporter = new JsonTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 2_500 });
    const started = performance.now();
    const result = await exportSpans(exporter, recordSpans(1));
    const elapsed = performance.now() - started;

    expect(result.code).toBe(ExportResultCode.FAILED);
    // t≈0, 1 s, 2 s; a retry at 3 s would pass the 2.5 s deadline, so the exporter gives up there.
    const times = receiver.requests().map((r) => r.receivedAtMs);
    expect(receiver.counts().byMode).toEqual({ '429': 3 });
    for (let index = 1; index < times.length; index += 1) {
      expect((times[index] ?? 0) - (times[index - 1] ?? 0)).toBeGreaterThanOrEqual(950);
    }
    expect(elapsed).toBeLessThan(2_800);
    await exporter.shutdown();
  });

  it('429 then recovery: the retried export succeeds and its spans arrive', async () => {
    receiver.respond({ status: 429, retryAfterSeconds: 1 });
    const exporter = new ProtoTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 5_000 });
    const spans = recordSpans(2);
    const pending = exportSpans(exporter, spans);
    await receiver.waitFor((r) => r.counts().total === 1);
    receiver.respond('ok');
    expect(await pending).toEqual({ code: ExportResultCode.SUCCESS });
    expect(receiver.counts().byMode).toEqual({ '429': 1, ok: 1 });
    expect(receiver.spans().map((s) => s.spanId)).toEqual(spans.map((s) => s.spanContext().spanId));
    await exporter.shutdown();
  });

  it('503 without Retry-After: retried after the exporter’s own backoff (1 s ± 20 %)', async () => {
    receiver.respond({ status: 503 });
    const exporter = new ProtoTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 2_000 });
    const result = await exportSpans(exporter, recordSpans(1));
    expect(result.code).toBe(ExportResultCode.FAILED);
    const [first, second, ...rest] = receiver.requests().map((r) => r.receivedAtMs);
    expect(rest).toEqual([]); // the next backoff (1.5 s ± 20 %) would pass the deadline
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(780);
    expect((second ?? 0) - (first ?? 0)).toBeLessThan(1_400);
    await exporter.shutdown();
  });

  it('hang: the export times out after timeoutMillis and reports failure', async () => {
    receiver.respond('hang');
    const exporter = new ProtoTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 400 });
    const started = performance.now();
    const result = await exportSpans(exporter, recordSpans(1));
    const elapsed = performance.now() - started;
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(result.error?.message).toBe('Request timed out');
    expect(elapsed).toBeGreaterThanOrEqual(390);
    expect(elapsed).toBeLessThan(1_500);
    expect(receiver.counts().byMode).toEqual({ hang: 1 });
    await receiver.waitFor((r) => r.hangingRequests === 0); // the exporter hung up its side
    await exporter.shutdown();
  });

  it('refused: the export fails with ECONNREFUSED; after start() on the same port, exports arrive', async () => {
    const port = receiver.port;
    await receiver.refuse();
    const exporter = new ProtoTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 1_500 });
    const result = await exportSpans(exporter, recordSpans(1, 'lost'));
    expect(result.code).toBe(ExportResultCode.FAILED);
    expect(errorCode(result)).toBe('ECONNREFUSED');
    expect(receiver.counts().total).toBe(0);

    await receiver.start();
    expect(receiver.port).toBe(port);
    expect(await exportSpans(exporter, recordSpans(1, 'back'))).toEqual({ code: ExportResultCode.SUCCESS });
    expect(receiver.spans().map((s) => s.name)).toEqual(['back 0']);
    await exporter.shutdown();
  });

  it('comes back while the exporter is retrying: the same export then succeeds', async () => {
    await receiver.refuse();
    const exporter = new JsonTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 5_000 });
    const pending = exportSpans(exporter, recordSpans(2, 'retried'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await receiver.start();
    expect(await pending).toEqual({ code: ExportResultCode.SUCCESS });
    expect(receiver.spans().map((s) => s.name).sort()).toEqual(['retried 0', 'retried 1']);
    await exporter.shutdown();
  });
});

describe('0.223 SDK queue behaviour behind a stuck collector (figures for the lead)', () => {
  it('BatchSpanProcessor drops past maxQueueSize: debug on the first drop, one warn with the count later', async () => {
    const lines = captureDiag();
    receiver.respond('hang');
    const exporter = new ProtoTraceExporter({ url: receiver.endpoint('traces'), timeoutMillis: 300 });
    const processor = new BatchSpanProcessor({
      exporter,
      maxQueueSize: 10,
      maxExportBatchSize: 5,
      scheduledDelayMillis: 10,
    });
    const tracer = new TracerProvider({ resource, spanProcessors: [processor] }).getTracer('queue');

    // 5 spans fill a batch, whose export hangs; while it is in flight only 10 more fit, 5 are dropped.
    for (let index = 0; index < 20; index += 1) tracer.startSpan(`span ${index}`).end();
    const dropLines = () => lines.filter((l) => /drop/i.test(l.message));
    expect(dropLines()).toEqual([{ level: 'debug', message: 'maxQueueSize reached, dropping spans' }]);

    // The hung export times out, fails (diag.error through the global error handler), the queue drains.
    await vi.waitFor(() => expect(lines.some((l) => l.level === 'error')).toBe(true), { timeout: 3_000 });
    expect(dropLines()).toHaveLength(1); // still no count: it is only reported once a span is accepted again
    tracer.startSpan('accepted again').end();
    expect(dropLines()).toEqual([
      { level: 'debug', message: 'maxQueueSize reached, dropping spans' },
      { level: 'warn', message: 'Dropped 5 spans because maxQueueSize reached' },
    ]);
    receiver.respond('ok');
    await processor.shutdown();
  });

  it('forceFlush on a 500: the tracer provider rejects, the meter and logger providers resolve and diag.error', async () => {
    const lines = captureDiag();
    receiver.respond({ status: 500 });
    const tracerProvider = new TracerProvider({
      spanProcessors: [new BatchSpanProcessor({ exporter: new ProtoTraceExporter({ url: receiver.endpoint('traces') }) })],
    });
    tracerProvider.getTracer('flush').startSpan('lost').end();
    // TracerProvider rejects with the array of its processors' errors.
    await expect(tracerProvider.forceFlush()).rejects.toEqual([
      expect.objectContaining({ name: 'OTLPExporterError', code: 500 }),
    ]);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);

    const meterProvider = new MeterProvider({
      readers: [
        new PeriodicExportingMetricReader({
          exporter: new ProtoMetricExporter({ url: receiver.endpoint('metrics') }),
          exportIntervalMillis: 600_000,
        }),
      ],
    });
    meterProvider.getMeter('flush').createCounter('test.lost').add(1);
    await expect(meterProvider.forceFlush()).resolves.toBeUndefined();
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(1);

    const loggerProvider = new LoggerProvider({
      processors: [
        new BatchLogRecordProcessor({ exporter: new ProtoLogExporter({ url: receiver.endpoint('logs') }) }),
      ],
    });
    loggerProvider.getLogger('flush').emit({ body: 'lost' });
    await expect(loggerProvider.forceFlush()).resolves.toBeUndefined();
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(2);
    expect(receiver.counts().byMode).toEqual({ '500': 3 });

    receiver.respond('ok');
    await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown(), loggerProvider.shutdown()]);
    expect(receiver.spans()).toEqual([]); // a failed batch is gone, not kept for the next export
    expect(receiver.logs()).toEqual([]);
  });

  it('BatchLogRecordProcessor drops past maxQueueSize without any diag message', async () => {
    const lines = captureDiag();
    receiver.respond('hang');
    // In 0.223 the log processors take one options object (the span processor shims still take two arguments).
    const processor = new BatchLogRecordProcessor({
      exporter: new ProtoLogExporter({ url: receiver.endpoint('logs'), timeoutMillis: 300 }),
      maxQueueSize: 10,
      maxExportBatchSize: 5,
      scheduledDelayMillis: 10,
    });
    const logger = new LoggerProvider({ resource, processors: [processor] }).getLogger('queue');
    for (let index = 0; index < 20; index += 1) logger.emit({ body: `log ${index}` });
    await vi.waitFor(() => expect(lines.some((l) => l.level === 'error')).toBe(true), { timeout: 3_000 });
    logger.emit({ body: 'accepted again' });
    receiver.respond('ok');
    await processor.shutdown();
    expect(lines.filter((l) => /drop/i.test(l.message))).toEqual([]);
    // After recovery what was still queued arrives; the dropped records never do.
    const bodies = receiver.logs().map((log) => log.body);
    expect(bodies).toContain('accepted again');
    expect(bodies).not.toContain('log 19');
  });
});
