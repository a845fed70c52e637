import { createServer } from 'node:net';
import { diag, logs, metrics, ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import { resetOtelGlobals } from '../../support/otel-globals.js';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoggingHook, MetricsHook, otelDestination } from '../../../src/hooks/index.js';
import { startTelemetry } from '../../../src/node/index.js';
import type { TelemetryHandle } from '../../../src/node/index.js';
import { busyPhase, toolEvent } from '../../support/events.js';
import { OtlpReceiver } from '../../support/otlp-receiver.js';
import { freePort } from '../../support/ports.js';
import type { ReceivedMetric } from '../../support/otlp-receiver.js';

const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

interface DiagSpy {
  readonly warn: ReturnType<typeof vi.fn>;
  readonly info: ReturnType<typeof vi.fn>;
  readonly error: ReturnType<typeof vi.fn>;
  messages(level: 'warn' | 'info' | 'error'): string[];
}

function spyDiag(): DiagSpy {
  const spy = { error: vi.fn(), warn: vi.fn(), info: vi.fn(), debug: vi.fn(), verbose: vi.fn() };
  diag.setLogger(spy satisfies DiagLogger);
  return { ...spy, messages: (level) => spy[level].mock.calls.map((call) => String(call[0])) };
}

function registeredTracerProvider(): unknown {
  return (trace.getTracerProvider() as ProxyTracerProvider).getDelegate();
}

/** Records a span, with the built-in hooks fed inside it the way the runner feeds them. */
function recordToolCall(): { traceId: string; spanId: string } {
  const metricsHook = new MetricsHook();
  const loggingHook = new LoggingHook({ logger: pino({}, otelDestination()) });
  return trace.getTracer('toolhooks').startActiveSpan('execute_tool shell', (span) => {
    for (const hook of [metricsHook, loggingHook]) {
      hook.onEvent(busyPhase({ toolName: 'shell' }));
      hook.onEvent(toolEvent({ toolName: 'shell', outcome: 'aborted', errorType: 'HookAbortError', reason: 'no', durationMs: 120, gated: true }));
    }
    span.end();
    return span.spanContext();
  });
}

/** The URL paths of every request the receiver got, in arrival order. */
function paths(r: OtlpReceiver): string[] {
  return r.requests().map((request) => request.path);
}

/** A sum's data points as `{ attributes, value }`, without their timestamps. */
function points(metric: ReceivedMetric | undefined): { attributes: unknown; value: number | undefined }[] {
  return (metric?.dataPoints ?? []).map((point) => ({ attributes: point.attributes, value: point.value }));
}

let handle: TelemetryHandle | undefined;
let receiver: OtlpReceiver | undefined;

beforeEach(() => {
  // The machine's own OTEL_* settings must not leak into these tests.
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) vi.stubEnv(name, undefined);
});

afterEach(async () => {
  await handle?.shutdown();
  handle = undefined;
  await receiver?.stop();
  receiver = undefined;
  resetOtelGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('startTelemetry: bad input', () => {
  it.each([
    [{ endpoint: 'not a url' }, 'options.endpoint must be an http(s) URL such as "http://localhost:4318", got the string "not a url"'],
    [{ endpoint: 'localhost:4318' }, 'options.endpoint must be an http(s) URL such as "http://localhost:4318", got the string "localhost:4318"'],
    [{ endpoint: 'ftp://collector:4318' }, 'got the string "ftp://collector:4318"'],
    [{ protocol: 'http/xml' }, 'options.protocol must be "http/protobuf" or "http/json", got the string "http/xml"'],
    [{ protocol: 'grpc' }, 'options.protocol=grpc is not supported'],
    [{ prometheus: { port: 0 } }, 'options.prometheus.port must be an integer from 1 to 65535, got 0'],
    [{ prometheus: { port: '9464' } }, 'options.prometheus.port must be an integer from 1 to 65535, got the string "9464"'],
    [{ prometheus: { port: 9464, host: '' } }, 'options.prometheus.host must be a host name or IP address, got the string ""'],
    [{ console: 'yes' }, 'options.console must be true, false or "tree", got the string "yes"'],
    [{ serviceName: '' }, 'options.serviceName must be a non-empty string, got the string ""'],
    [{ metricExportIntervalMillis: -5 }, 'options.metricExportIntervalMillis must be a positive number of milliseconds, got -5'],
    [{ headers: { 'x-key': 42 } }, 'options.headers["x-key"] must be a string, got 42'],
    [{ shutdownTimeoutMillis: 0 }, 'options.shutdownTimeoutMillis must be a positive number of milliseconds, got 0'],
  ])('rejects %j naming the option and the value', (options, message) => {
    expect(() => startTelemetry(options as never)).toThrow(message);
    expect(registeredTracerProvider()).toBe(NOOP_TRACER_PROVIDER);
  });

  it.each([
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'http/xml', 'OTEL_EXPORTER_OTLP_PROTOCOL must be "http/protobuf" or "http/json", got the string "http/xml"'],
    ['OTEL_EXPORTER_OTLP_LOGS_PROTOCOL', 'thrift', 'OTEL_EXPORTER_OTLP_LOGS_PROTOCOL must be "http/protobuf" or "http/json", got the string "thrift"'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc', 'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got the string "collector:4318"'],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'nope', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL, got the string "nope"'],
  ])('rejects %s=%s naming the variable and the value', (name, value, message) => {
    vi.stubEnv(name, value);
    expect(() => startTelemetry()).toThrow(message);
    expect(registeredTracerProvider()).toBe(NOOP_TRACER_PROVIDER);
  });

  it('rejects ready for a Prometheus port in use, naming the port, says so once through diag.error, and can be retried on another port', async () => {
    const diagSpy = spyDiag();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      vi.spyOn(console, 'dir').mockImplementation(() => undefined);
      handle = startTelemetry({ console: true, prometheus: { port } });
      expect(handle.status).toBe('started');
      await expect(handle.ready).rejects.toThrow(`startTelemetry: options.prometheus.port ${port} is already in use on 127.0.0.1`);
      expect(diagSpy.messages('error').filter((m) => m.includes(`options.prometheus.port ${port}`))).toHaveLength(1);
      await handle.shutdown();
      expect(registeredTracerProvider()).toBe(NOOP_TRACER_PROVIDER);
      handle = startTelemetry({ console: true, prometheus: { port: await freePort() } });
      await expect(handle.ready).resolves.toBeUndefined();
      expect(handle.status).toBe('started');
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('returns a handle that is not a thenable, so `await startTelemetry()` yields the handle itself', async () => {
    vi.spyOn(console, 'dir').mockImplementation(() => undefined);
    const returned = startTelemetry({ console: true });
    handle = returned;
    expect('then' in returned).toBe(false);
    expect(await returned).toBe(returned);
    await expect(returned.ready).resolves.toBeUndefined();
  });
});

describe('startTelemetry: export over OTLP/HTTP', () => {
  it('sends traces, metrics and logs as http/protobuf to OTEL_EXPORTER_OTLP_ENDPOINT, with the headers and service name', async () => {
    receiver = await OtlpReceiver.start();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-api-key=secret-123');
    vi.stubEnv('OTEL_SERVICE_NAME', 'agent-from-env');
    handle = await startTelemetry();
    expect(handle.status).toBe('started');
    const span = recordToolCall();
    await handle.forceFlush();

    expect(new Set(paths(receiver))).toEqual(new Set(['/v1/traces', '/v1/metrics', '/v1/logs']));
    for (const request of receiver.requests()) {
      expect(request.contentType).toBe('application/x-protobuf');
      expect(request.headers['x-api-key']).toBe('secret-123');
    }
    expectRoundTrip(receiver, span, 'agent-from-env');
  });

  it('sends http/json when OTEL_EXPORTER_OTLP_PROTOCOL says so; options win over the environment', async () => {
    receiver = await OtlpReceiver.start();
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:9'); // overridden by the option
    vi.stubEnv('OTEL_SERVICE_NAME', 'agent-from-env');
    handle = await startTelemetry({ endpoint: `${receiver.url}/`, serviceName: 'agent-from-option' });
    const span = recordToolCall();
    await handle.forceFlush();

    expect(receiver.requests().length).toBeGreaterThanOrEqual(3);
    expect(receiver.requests().every((r) => r.contentType === 'application/json')).toBe(true);
    expectRoundTrip(receiver, span, 'agent-from-option');
  });

  it('honours a per-signal protocol and endpoint variable', async () => {
    receiver = await OtlpReceiver.start({ paths: { '/custom/spans': 'traces' } });
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `${receiver.url}/custom/spans`);
    vi.stubEnv('OTEL_EXPORTER_OTLP_METRICS_PROTOCOL', 'http/json');
    handle = await startTelemetry();
    recordToolCall();
    await handle.forceFlush();
    const byPath = new Map(receiver.requests().map((r) => [r.path, r.contentType]));
    expect(byPath.get('/custom/spans')).toBe('application/x-protobuf');
    expect(byPath.get('/v1/metrics')).toBe('application/json');
    expect(byPath.get('/v1/logs')).toBe('application/x-protobuf');
    expect(byPath.has('/v1/traces')).toBe(false);
    expect(receiver.spans().map((s) => s.name)).toEqual(['execute_tool shell']); // decoded from /custom/spans
  });

  it('pushes metrics every OTEL_METRIC_EXPORT_INTERVAL milliseconds without a flush', async () => {
    receiver = await OtlpReceiver.start();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', '100');
    handle = await startTelemetry();
    new MetricsHook().onEvent(toolEvent());
    await receiver.waitFor((r) => r.latestMetric('toolhooks.tool.calls') !== undefined, 5_000);
    expect(paths(receiver)).toEqual(expect.arrayContaining(['/v1/metrics']));
  });
});

describe('startTelemetry: lifecycle', () => {
  it('starts nothing when OTEL_SDK_DISABLED=true', async () => {
    vi.stubEnv('OTEL_SDK_DISABLED', 'true');
    handle = await startTelemetry({ prometheus: { port: await freePort() } });
    expect(handle.status).toBe('disabled');
    expect(registeredTracerProvider()).toBe(NOOP_TRACER_PROVIDER);
    await expect(handle.forceFlush()).resolves.toBeUndefined();
  });

  it('shuts down once, whatever the number of calls, and can be started again afterwards', async () => {
    receiver = await OtlpReceiver.start();
    handle = await startTelemetry({ endpoint: receiver.url });
    const provider = registeredTracerProvider();
    expect(provider).not.toBe(NOOP_TRACER_PROVIDER);
    recordToolCall();
    const first = handle.shutdown();
    const second = handle.shutdown();
    expect(second).toBe(first);
    await first;
    // Shutdown flushed every signal.
    expect(new Set(paths(receiver))).toEqual(new Set(['/v1/traces', '/v1/metrics', '/v1/logs']));
    expect(receiver.spans().map((s) => s.name)).toEqual(['execute_tool shell']);
    expect(receiver.logs()).toHaveLength(4);
    expect(registeredTracerProvider()).toBe(NOOP_TRACER_PROVIDER);
    await expect(handle.forceFlush()).resolves.toBeUndefined();

    handle = await startTelemetry({ endpoint: receiver.url });
    expect(handle.status).toBe('started');
    expect(registeredTracerProvider()).not.toBe(provider);
  });

  it('leaves an app that runs its own SDK alone, says so once, and the hooks use its providers', async () => {
    const diagSpy = spyDiag();
    const appSpans = new InMemorySpanExporter();
    const appProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: appSpans })] });
    trace.setGlobalTracerProvider(appProvider);

    handle = await startTelemetry({ serviceName: 'ignored' });
    const again = await startTelemetry({ prometheus: { port: 9464 } });
    expect([handle.status, again.status]).toEqual(['existing', 'existing']);
    expect(registeredTracerProvider()).toBe(appProvider);
    // Said once: the options it was given mean nothing here, and it names them.
    const notices = [...diagSpy.messages('info'), ...diagSpy.messages('warn')].filter((m) => m.includes('a tracer provider is already registered'));
    expect(notices).toEqual([expect.stringContaining('its options serviceName have no effect')]);
    expect(diagSpy.messages('warn').some((m) => m.includes('did not start the Prometheus endpoint'))).toBe(true);

    recordToolCall();
    expect(appSpans.getFinishedSpans().map((s) => s.name)).toEqual(['execute_tool shell']);
    await handle.shutdown();
    expect(registeredTracerProvider()).toBe(appProvider); // not ours to unregister
  });

  it('detects providers by identity, not by class name: a minified API class changes nothing', async () => {
    // A bundler may rename the API's own proxy classes; that must not read as "the app registered one".
    const proxyClass = logs.getLoggerProvider().constructor;
    const original = Object.getOwnPropertyDescriptor(proxyClass, 'name');
    Object.defineProperty(proxyClass, 'name', { value: 'e', configurable: true });
    try {
      receiver = await OtlpReceiver.start();
      handle = startTelemetry({ endpoint: receiver.url });
      recordToolCall();
      await handle.forceFlush();
      expect(receiver.logs().map((l) => l.body)).toContain('tool call aborted');
    } finally {
      if (original !== undefined) Object.defineProperty(proxyClass, 'name', original);
    }
  });

  it('starts nothing more when called again while running', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    handle = await startTelemetry({ endpoint: receiver.url });
    const second = await startTelemetry({ endpoint: receiver.url });
    expect(second.status).toBe('existing');
    expect(diagSpy.messages('warn').some((m) => m.includes('startTelemetry() was already called'))).toBe(true);
  });

  it('a second call with other options says once that they are ignored (a process warning without a diag logger: shutdown-and-exit.test.ts)', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    handle = startTelemetry({ endpoint: receiver.url, serviceName: 'first' });
    startTelemetry({ endpoint: receiver.url, serviceName: 'second' });
    startTelemetry({ endpoint: receiver.url, serviceName: 'third' });
    const ignored = diagSpy.messages('warn').filter((m) => m.includes('its options are ignored'));
    expect(ignored).toHaveLength(1);
    expect(ignored[0]).toContain('"serviceName":"second"');
  });

  it('shutdown() delivers a call that ends while it waits, and counts the spans still open', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    handle = startTelemetry({ endpoint: receiver.url, shutdownTimeoutMillis: 1000 });
    const tracer = trace.getTracer('toolhooks');
    const ending = tracer.startSpan('execute_tool ending');
    tracer.startSpan('execute_tool never-ending'); // still running when shutdown gives up waiting
    const stopped = handle.shutdown();
    setTimeout(() => ending.end(), 100);
    await stopped;
    expect(receiver.spans().map((span) => span.name)).toEqual(['execute_tool ending']);
    const report = diagSpy.messages('warn').filter((m) => m.includes('dropped at shutdown'));
    expect(report).toHaveLength(1);
    expect(report[0]).toContain('1 spans of calls still running');
  });

  it('says once which metrics passed the SDK limit of 2,000 series', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    handle = startTelemetry({ endpoint: receiver.url });
    const metricsHook = new MetricsHook();
    for (let i = 0; i < 2100; i += 1) metricsHook.onEvent(toolEvent({ toolName: `tool-${i}` }));
    await handle.forceFlush();
    await handle.forceFlush();
    const warned = diagSpy.messages('warn').filter((m) => m.includes('series per metric'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('toolhooks.tool.calls');
  });
});

describe('startTelemetry: console and Prometheus', () => {
  it('prints spans instead of exporting them, and exports nothing else without an endpoint', async () => {
    const printed: unknown[] = [];
    vi.spyOn(console, 'dir').mockImplementation((item: unknown) => void printed.push(item));
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write);
    try {
      for (const mode of [true, 'tree'] as const) {
        printed.length = 0;
        written.length = 0;
        handle = await startTelemetry({ console: mode });
        recordToolCall();
        await handle.forceFlush();
        if (mode === true) expect(printed).toEqual([expect.objectContaining({ name: 'execute_tool shell' })]);
        else expect(written.join('')).toMatch(/^execute_tool shell\b/m); // one tree per trace, on stdout
        // No meter provider: nothing would read the metrics.
        expect(metrics.getMeterProvider().getMeter('x').createCounter('c').constructor.name).toMatch(/Noop/);
        await handle.shutdown();
      }
    } finally {
      write.mockRestore();
    }
  });

  it('still exports metrics and logs in console mode when an endpoint is configured', async () => {
    vi.spyOn(console, 'dir').mockImplementation(() => undefined);
    receiver = await OtlpReceiver.start();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    handle = await startTelemetry({ console: true });
    recordToolCall();
    await handle.forceFlush();
    expect(new Set(paths(receiver))).toEqual(new Set(['/v1/metrics', '/v1/logs']));
    expect(receiver.latestMetric('toolhooks.tool.calls')).toBeDefined();
    expect(receiver.logs().map((l) => l.body)).toContain('tool call aborted');
  });

  it('serves the metrics on 127.0.0.1 for Prometheus to scrape', async () => {
    vi.spyOn(console, 'dir').mockImplementation(() => undefined);
    const port = await freePort();
    handle = await startTelemetry({ console: true, prometheus: { port } });
    const hook = new MetricsHook();
    hook.onEvent(toolEvent({ toolName: 'shell', outcome: 'aborted', errorType: 'HookAbortError' }));
    hook.onEvent(toolEvent({ toolName: 'shell', outcome: 'completed' }));
    hook.onEvent(toolEvent({ toolName: 'shell', outcome: 'completed' }));
    hook.onEvent(busyPhase());

    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const series = (name: string): string[] => text.split('\n').filter((line) => line.startsWith(`${name}{`));
    const calls = series('toolhooks_tool_calls_total');
    expect(calls).toHaveLength(2);
    const aborted = calls.find((l) => l.includes('toolhooks_outcome="aborted"'));
    expect(aborted).toMatch(/gen_ai_tool_name="shell"/);
    expect(aborted).toMatch(/ 1$/);
    expect(calls.find((l) => l.includes('toolhooks_outcome="completed"'))).toMatch(/ 2$/);
    expect(series('toolhooks_hook_decisions_total').some((l) => l.includes('toolhooks_decision_shadowed="true"'))).toBe(true);
    expect(series('toolhooks_hook_errors_total')).toHaveLength(1);
    expect(series('gen_ai_execute_tool_duration_bucket').some((l) => l.includes('le="0.16"'))).toBe(true);
    expect(series('toolhooks_hook_duration_bucket').some((l) => l.includes('le="0.0025"'))).toBe(true);

    await handle.shutdown();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('startTelemetry: a collector that fails', () => {
  it('keeps failures from the caller and reports each outage once through diag, with a count', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    receiver.respond({ status: 500 });
    handle = await startTelemetry({ endpoint: receiver.url });
    recordToolCall();
    await expect(handle.forceFlush()).resolves.toBeUndefined();
    recordToolCall();
    await expect(handle.forceFlush()).resolves.toBeUndefined();

    const spanWarnings = diagSpy.messages('warn').filter((m) => m.includes('span export failed'));
    expect(spanWarnings).toHaveLength(1);
    expect(spanWarnings[0]).toContain('dropped 1 spans');
    expect(diagSpy.messages('warn').filter((m) => m.includes('log export failed'))).toHaveLength(1);
    expect(diagSpy.messages('error')).toEqual([]); // no per-batch error from the processors

    await handle.shutdown();
    expect(diagSpy.messages('warn')).toContainEqual(expect.stringContaining('span export was still failing at shutdown; 2 spans'));
  });

  it('drops quickly on 429 with Retry-After: 0 and recovers when the collector does', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    receiver.respond({ status: 429, retryAfterSeconds: 0 });
    handle = await startTelemetry({ endpoint: receiver.url });
    recordToolCall();
    await handle.forceFlush();
    expect(diagSpy.messages('warn').some((m) => m.includes('span export failed'))).toBe(true);
    expect(receiver.counts().byMode['429']).toBeGreaterThan(1); // retried before it gave up
    expect(receiver.spans()).toEqual([]);
    receiver.respond('ok');
    const kept = recordToolCall();
    await handle.forceFlush();
    expect(diagSpy.messages('info')).toContainEqual(expect.stringContaining('span export recovered; 1 spans were dropped while it failed'));
    expect(receiver.spans().map((s) => s.spanId)).toEqual([kept.spanId]);
  });

  it('reports a hanging collector once even when metrics are pushed more often than the OTLP timeout', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    receiver.respond('hang');
    vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', '200'); // the OTLP export timeout stays at its 10 s default
    handle = await startTelemetry({ endpoint: receiver.url });
    const hook = new MetricsHook();
    hook.onEvent(toolEvent());
    await receiver.waitFor((r) => r.counts().bySignal.metrics >= 1);
    await vi.waitFor(() => expect(diagSpy.messages('warn').some((m) => m.includes('metric export failed'))).toBe(true), {
      timeout: 3_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 600)); // three more intervals into the outage
    // The exports give up within the reader's interval, so the reader never times out on its own
    // (which would be a diag.error per interval) and exports do not pile up on the hanging collector.
    expect(diagSpy.messages('error')).toEqual([]);
    expect(diagSpy.messages('warn').filter((m) => m.includes('metric export failed'))).toHaveLength(1);
    expect(receiver.hangingRequests).toBeLessThanOrEqual(1);

    receiver.respond('ok');
    hook.onEvent(toolEvent());
    await receiver.waitFor((r) => r.latestMetric('toolhooks.tool.calls')?.dataPoints[0]?.value === 2, 3_000);
    await vi.waitFor(() => expect(diagSpy.messages('info').some((m) => m.includes('metric export recovered'))).toBe(true));
  });

  it('counts what the span and log queues drop behind a hanging collector into the same single report', async () => {
    const diagSpy = spyDiag();
    receiver = await OtlpReceiver.start();
    receiver.respond('hang');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', '300');
    for (const prefix of ['OTEL_BSP', 'OTEL_BLRP']) {
      vi.stubEnv(`${prefix}_MAX_QUEUE_SIZE`, '10');
      vi.stubEnv(`${prefix}_MAX_EXPORT_BATCH_SIZE`, '5');
      vi.stubEnv(`${prefix}_SCHEDULE_DELAY`, '10');
    }
    handle = await startTelemetry({ endpoint: receiver.url });
    const calls = 40; // one span and four log records each
    recordToolCall();
    await receiver.waitFor((r) => r.hangingRequests >= 2); // a span batch and a log batch are stuck
    for (let index = 1; index < calls; index += 1) recordToolCall();

    const warnings = diagSpy.messages('warn');
    expect(warnings.filter((m) => m.startsWith('toolhooks: span '))).toEqual([
      expect.stringContaining('span export cannot keep up (queue full at maxQueueSize 10); dropped 1 spans'),
    ]);
    expect(warnings.filter((m) => m.startsWith('toolhooks: log '))).toEqual([
      expect.stringContaining('log export cannot keep up (queue full at maxQueueSize 10); dropped 1 log records'),
    ]);
    // The SDK's own queue never overflows, so it says nothing (the span processor would warn once per export).
    expect(warnings.filter((m) => /Dropped \d+ spans because maxQueueSize/.test(m))).toEqual([]);

    receiver.respond('ok');
    await handle.shutdown();
    const dropped = (signal: string): number => {
      const [message, ...more] = diagSpy.messages('info').filter((m) => m.startsWith(`toolhooks: ${signal} export recovered; `));
      expect(more).toEqual([]);
      return Number(/recovered; (\d+) /.exec(message ?? '')?.[1] ?? Number.NaN);
    };
    // Nothing vanished unreported: every record either arrived or was counted as dropped, once.
    expect(receiver.spans().length + dropped('span')).toBe(calls);
    expect(receiver.logs().length + dropped('log')).toBe(calls * 4);
    expect(receiver.spans().length).toBeGreaterThan(0);
    expect(diagSpy.messages('warn').filter((m) => m.startsWith('toolhooks: span ') || m.startsWith('toolhooks: log '))).toHaveLength(2);
    expect(diagSpy.messages('error')).toEqual([]);
  });

  it('starts while the collector is down, and what is recorded once it is up arrives', async () => {
    const diagSpy = spyDiag();
    vi.stubEnv('OTEL_EXPORTER_OTLP_TIMEOUT', '500'); // bounds the exporter's retries on a refused connection
    receiver = await OtlpReceiver.start();
    await receiver.refuse();
    handle = await startTelemetry({ endpoint: receiver.url });
    const lost = recordToolCall();
    await handle.forceFlush();
    expect(diagSpy.messages('warn').some((m) => m.includes('span export failed') && m.includes('ECONNREFUSED'))).toBe(true);

    await receiver.start(); // on the same port
    const kept = recordToolCall();
    await handle.forceFlush();
    const spanIds = receiver.spans().map((s) => s.spanId);
    expect(spanIds).toContain(kept.spanId);
    expect(spanIds).not.toContain(lost.spanId);
    // The raw protobuf body carries the span id bytes too: the decoded list is not hiding anything.
    const traceBodies = receiver.requests().filter((r) => r.signal === 'traces').map((r) => r.body ?? Buffer.alloc(0));
    expect(traceBodies.some((body) => body.includes(Buffer.from(kept.spanId, 'hex')))).toBe(true);
    expect(traceBodies.some((body) => body.includes(Buffer.from(lost.spanId, 'hex')))).toBe(false);
    expect(receiver.logs().filter((l) => l.spanId === kept.spanId)).toHaveLength(4);
    expect(points(receiver.latestMetric('toolhooks.tool.calls'))[0]?.value).toBe(2); // cumulative: counted while down too
  });
});

/** What recordToolCall() produced, as decoded from the receiver: the span, the documented metrics, the log records. */
function expectRoundTrip(r: OtlpReceiver, span: { traceId: string; spanId: string }, serviceName: string): void {
  const [exported, ...others] = r.spans();
  expect(others).toEqual([]);
  expect(exported).toMatchObject({ name: 'execute_tool shell', traceId: span.traceId, spanId: span.spanId, scope: { name: 'toolhooks' } });
  expect(exported?.resource['service.name']).toBe(serviceName);

  const calls = r.latestMetric('toolhooks.tool.calls');
  expect(calls).toMatchObject({ unit: '{call}', type: 'sum', isMonotonic: true, scope: { name: 'toolhooks' } });
  expect(calls?.resource['service.name']).toBe(serviceName);
  expect(points(calls)).toEqual([{ attributes: { 'gen_ai.tool.name': 'shell', 'toolhooks.outcome': 'aborted', 'toolhooks.gated': true }, value: 1 }]);
  const duration = r.latestMetric('gen_ai.execute_tool.duration');
  expect(duration).toMatchObject({ unit: 's', type: 'histogram' });
  expect(duration?.dataPoints).toHaveLength(1);
  expect(duration?.dataPoints[0]).toMatchObject({
    attributes: { 'gen_ai.tool.name': 'shell', 'gen_ai.tool.type': 'function', 'toolhooks.outcome': 'aborted', 'error.type': 'HookAbortError' },
    count: 1,
    sum: 0.12,
  });
  const decisions = r.latestMetric('toolhooks.hook.decisions');
  expect(decisions?.dataPoints).toHaveLength(3);
  expect(points(decisions)).toContainEqual({
    attributes: {
      'toolhooks.phase': 'before_tool',
      'toolhooks.hook.name': 'policy',
      'toolhooks.decision': 'redirect',
      'toolhooks.decision.shadowed': true,
      'gen_ai.tool.name': 'shell',
      'toolhooks.hook.mode': 'enforce',
    },
    value: 1,
  });
  expect(points(r.latestMetric('toolhooks.hook.errors'))).toEqual([
    { attributes: { 'toolhooks.phase': 'before_tool', 'toolhooks.hook.name': 'broken', 'toolhooks.hook.error.kind': 'threw', 'toolhooks.hook.mode': 'enforce' }, value: 1 },
  ]);
  expect(r.latestMetric('toolhooks.hook.duration')?.dataPoints).toHaveLength(4);

  const records = r.logs();
  expect(records.map((l) => l.body)).toEqual(['hook decided skip', 'hook decision shadowed', 'hook failed', 'tool call aborted']);
  for (const record of records) {
    expect(record).toMatchObject({ traceId: span.traceId, spanId: span.spanId, scope: { name: 'toolhooks' } });
    expect(record.resource['service.name']).toBe(serviceName);
  }
  expect(records[2]?.attributes).toMatchObject({ 'toolhooks.hook.error.kind': 'threw', 'exception.type': 'TypeError' });
  expect(records[3]).toMatchObject({ severityText: 'warn', attributes: { 'toolhooks.outcome': 'aborted' } });
}
