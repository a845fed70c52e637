/**
 * startTelemetry(): the one-call OpenTelemetry setup for toolhooks in Node — traces, metrics and logs
 * over OTLP/HTTP through the OTel Node SDK, optionally a Prometheus pull endpoint.
 */
import { context, createContextKey, createNoopMeter, diag, metrics, propagation, ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { getBooleanFromEnv } from '@opentelemetry/core';
import { OTLPLogExporter as OTLPLogExporterJson } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as OTLPLogExporterProto } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as OTLPMetricExporterJson } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as OTLPMetricExporterProto } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter as OTLPTraceExporterJson } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPTraceExporterProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { LogRecordExporter, LogRecordProcessor } from '@opentelemetry/sdk-logs';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { IMetricReader, PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import {
  batchLogSettings,
  batchSpanSettings,
  checkProtocol,
  DEFAULT_MAX_QUEUE_SIZE,
  invalid,
  isHttpUrl,
  metricExporterTimeout,
  metricTiming,
  planSignal,
} from './config.js';
import type { OtlpProtocol, SignalPlan } from './config.js';
import { createConsoleSpanExporter } from './console-exporter.js';
import {
  DropReporter,
  GatedLogRecordProcessor,
  GatedSpanProcessor,
  QueueGate,
  ReportingLogRecordExporter,
  ReportingMetricExporter,
  ReportingSpanExporter,
} from './drop-reporting.js';

/**
 * Options of {@link startTelemetry}. Every one is optional; the standard `OTEL_*` variables fill the gaps.
 *
 * @example
 * ```ts
 * await startTelemetry({ serviceName: 'my-agent', endpoint: 'http://otel-collector:4318', prometheus: { port: 9464 } });
 * ```
 */
export interface StartTelemetryOptions {
  /** `service.name` of everything exported. Default: `OTEL_SERVICE_NAME`, else `unknown_service:node`. */
  readonly serviceName?: string;
  /**
   * Base URL of an OTLP/HTTP receiver, e.g. `http://localhost:4318`; `/v1/traces`, `/v1/metrics` and
   * `/v1/logs` are appended. Overrides `OTEL_EXPORTER_OTLP_ENDPOINT` and the per-signal variables.
   * Default: those variables, else `http://localhost:4318`.
   */
  readonly endpoint?: string;
  /** OTLP encoding. Overrides `OTEL_EXPORTER_OTLP_PROTOCOL` (and the per-signal ones). Default `http/protobuf`. */
  readonly protocol?: OtlpProtocol;
  /** Extra HTTP headers on every export (e.g. an API key), merged over `OTEL_EXPORTER_OTLP_HEADERS`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Print spans to stdout instead of exporting them: `true` prints each span, `'tree'` (for now the same)
   * will print each trace as a tree. Metrics and logs are then exported only when an endpoint is
   * configured (`endpoint` or an `OTEL_EXPORTER_OTLP_*ENDPOINT` variable), so a laptop without a collector
   * gets no export errors.
   */
  readonly console?: boolean | 'tree';
  /**
   * Also serve metrics for Prometheus to scrape at `http://{host}:{port}/metrics`. `host` defaults to
   * `127.0.0.1`: set `'0.0.0.0'` deliberately to expose it beyond the machine.
   */
  readonly prometheus?: { readonly port: number; readonly host?: string };
  /** How often metrics are pushed over OTLP. Default: `OTEL_METRIC_EXPORT_INTERVAL`, else 60 000 ms. */
  readonly metricExportIntervalMillis?: number;
}

/**
 * What became of a {@link startTelemetry} call:
 * - `started`: it registered its own providers and exports;
 * - `existing`: a tracer provider was already registered (the app runs its own SDK), so it registered
 *   nothing and toolhooks' spans, metrics and logs go through the app's providers;
 * - `disabled`: `OTEL_SDK_DISABLED=true`, nothing was started.
 *
 * @example
 * ```ts
 * const telemetry = await startTelemetry();
 * if (telemetry.status === 'existing') console.log('using the app\'s OpenTelemetry SDK');
 * ```
 */
export type TelemetryStatus = 'started' | 'existing' | 'disabled';

/**
 * Control over what {@link startTelemetry} started.
 *
 * @example
 * ```ts
 * const telemetry = await startTelemetry();
 * process.once('beforeExit', () => void telemetry.shutdown());
 * ```
 */
export interface TelemetryHandle {
  readonly status: TelemetryStatus;
  /** Exports everything recorded so far. Never rejects: export failures are reported through `diag`. */
  forceFlush(): Promise<void>;
  /**
   * Flushes and stops every signal, closes the Prometheus endpoint and unregisters the global providers
   * it registered (so `startTelemetry()` may be called again). Idempotent: later calls return the same
   * promise. Never rejects. With status `existing` or `disabled` it does nothing: the app owns its SDK.
   */
  shutdown(): Promise<void>;
}

const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const PROBE_KEY = createContextKey('toolhooks.probe');
let running: { readonly handle: TelemetryHandle; readonly tracerProvider: TracerProvider } | undefined;
let existingReported = false;

/**
 * Starts the OpenTelemetry Node SDK with OTLP/HTTP exporters for traces, metrics and logs, so that the
 * spans of the toolhooks runner and the records of `MetricsHook` and `LoggingHook` leave the process.
 * Call it once, early, and `await` it: it is asynchronous so that a Prometheus port already in use is
 * reported before it returns. Reads the standard variables (`OTEL_SERVICE_NAME`,
 * `OTEL_EXPORTER_OTLP_ENDPOINT` and per-signal endpoints, `OTEL_EXPORTER_OTLP_PROTOCOL`,
 * `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_METRIC_EXPORT_INTERVAL`, `OTEL_SDK_DISABLED`, `OTEL_LOG_LEVEL`...);
 * options override them.
 *
 * When the app already registered a tracer provider, it starts nothing and says so once through `diag`:
 * the hooks then use the app's providers. A collector that is down, slow or answers with errors never
 * affects tool calls: exports are retried as the SDK does, then dropped, and each outage is reported once
 * through `diag` with the number of items dropped (set `OTEL_LOG_LEVEL=warn` to see diag output).
 *
 * @throws Error naming the option (or variable) and its value: an endpoint that is not an http(s) URL, a
 *   protocol other than `http/protobuf` / `http/json`, a Prometheus port that is invalid or in use.
 * @example
 * ```ts
 * import { startTelemetry } from 'toolhooks/node';
 *
 * const telemetry = await startTelemetry({ serviceName: 'my-agent', prometheus: { port: 9464 } });
 * process.on('SIGTERM', () => void telemetry.shutdown());
 * ```
 */
export async function startTelemetry(options: StartTelemetryOptions = {}): Promise<TelemetryHandle> {
  const checked = checkOptions(options);

  if (getBooleanFromEnv('OTEL_SDK_DISABLED')) {
    diag.info('toolhooks: OTEL_SDK_DISABLED is set; startTelemetry() starts nothing');
    return inactive('disabled');
  }
  const existing = registeredTracerProvider();
  if (existing !== undefined) {
    reportExisting(existing, checked);
    return inactive('existing');
  }

  const plans = {
    traces: planSignal('traces', checked.endpoint, checked.protocol),
    metrics: planSignal('metrics', checked.endpoint, checked.protocol),
    logs: planSignal('logs', checked.endpoint, checked.protocol),
  };
  const headers = checked.headers;
  const consoleMode = checked.console;
  const hadContextManager = hasContextManager();
  const hadPropagator = propagation.fields().length > 0;
  const hadMeterProvider = metrics.getMeterProvider().getMeter('toolhooks') !== createNoopMeter();
  const hadLoggerProvider = logs.getLoggerProvider().constructor.name !== 'ProxyLoggerProvider';
  const reporters: DropReporter[] = [];

  let prometheus: PrometheusExporter | undefined;
  if (checked.prometheus !== undefined && hadMeterProvider) {
    diag.warn('toolhooks: a MeterProvider is already registered; startTelemetry() cannot add a Prometheus endpoint to it');
  } else if (checked.prometheus !== undefined) {
    prometheus = await servePrometheus(checked.prometheus.port, checked.prometheus.host ?? '127.0.0.1');
  }

  const config: Partial<NodeSDKConfiguration> = {};
  if (checked.serviceName !== undefined) config.serviceName = checked.serviceName;

  if (consoleMode === false && exporterIsNone('OTEL_TRACES_EXPORTER')) {
    config.spanProcessors = [];
  } else if (consoleMode === false) {
    // Built here rather than by NodeSDK (from `traceExporter`) so that its queue limit is counted too.
    const settings = batchSpanSettings();
    const spans = reporter('span', 'spans');
    const gate = new QueueGate(settings.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE, spans);
    const exporter = new ReportingSpanExporter(traceExporter(plans.traces, headers), spans, gate);
    config.spanProcessors = [new GatedSpanProcessor(new BatchSpanProcessor({ exporter, ...settings }), gate)];
  } else {
    config.spanProcessors = [new SimpleSpanProcessor({ exporter: createConsoleSpanExporter(consoleMode) })];
  }

  const readers: IMetricReader[] = [];
  if (!hadMeterProvider && !exporterIsNone('OTEL_METRICS_EXPORTER') && (consoleMode === false || plans.metrics.endpointConfigured)) {
    const timing = metricTiming(checked.metricExportIntervalMillis);
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new ReportingMetricExporter(
          metricExporter(plans.metrics, headers, metricExporterTimeout(timing.timeoutMillis)),
          reporter('metric', 'data points'),
        ),
        exportIntervalMillis: timing.intervalMillis,
        exportTimeoutMillis: timing.timeoutMillis,
      }),
    );
  }
  if (prometheus !== undefined) readers.push(prometheus);
  // An empty list keeps NodeSDK from building readers of its own from OTEL_METRICS_EXPORTER.
  config.metricReaders = readers;

  const logProcessors: LogRecordProcessor[] = [];
  if (!hadLoggerProvider && !exporterIsNone('OTEL_LOGS_EXPORTER') && (consoleMode === false || plans.logs.endpointConfigured)) {
    const settings = batchLogSettings();
    const records = reporter('log', 'log records');
    const gate = new QueueGate(settings.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE, records);
    const exporter = new ReportingLogRecordExporter(logExporter(plans.logs, headers), records, gate);
    logProcessors.push(new GatedLogRecordProcessor(new BatchLogRecordProcessor({ exporter, ...settings }), gate));
  }
  config.logRecordProcessors = logProcessors;

  let sdk: NodeSDK;
  try {
    sdk = new NodeSDK(config);
    sdk.start();
  } catch (error) {
    await prometheus?.shutdown().catch(() => undefined);
    throw error;
  }
  const tracerProvider = registeredTracerProvider() ?? NOOP_TRACER_PROVIDER;
  const handle = new RunningTelemetry({
    sdk,
    reporters,
    flushables: [
      tracerProvider,
      readers.length > 0 ? metrics.getMeterProvider() : undefined,
      logProcessors.length > 0 ? logs.getLoggerProvider() : undefined,
    ],
    unregister: () => {
      if (registeredTracerProvider() === tracerProvider) trace.disable();
      if (!hadMeterProvider && readers.length > 0) metrics.disable();
      if (!hadLoggerProvider) logs.disable();
      if (!hadContextManager) context.disable();
      if (!hadPropagator) propagation.disable();
      if (running?.handle === handle) running = undefined;
    },
  });
  running = { handle, tracerProvider };
  return handle;

  function reporter(signal: string, unit: string): DropReporter {
    const created = new DropReporter(signal, unit);
    reporters.push(created);
    return created;
  }
}

/**
 * Whether the standard `OTEL_{TRACES,METRICS,LOGS}_EXPORTER` variable turns that signal's OTLP export
 * off (`none`), e.g. an app that only serves metrics to Prometheus. Other values are left to OTLP.
 */
function exporterIsNone(variable: string): boolean {
  return (process.env[variable] ?? '').split(',').some((value) => value.trim().toLowerCase() === 'none');
}

/** Calls `forceFlush()` on an SDK provider; the API's provider types do not declare it. */
function flush(provider: object | undefined): Promise<unknown> | undefined {
  const method = (provider as { forceFlush?: unknown } | undefined)?.forceFlush;
  return typeof method === 'function' ? (method as () => Promise<unknown>).call(provider) : undefined;
}

class RunningTelemetry implements TelemetryHandle {
  readonly status = 'started' as const;
  readonly #sdk: NodeSDK;
  readonly #reporters: readonly DropReporter[];
  readonly #flushables: readonly (object | undefined)[];
  readonly #unregister: () => void;
  #shutdown: Promise<void> | undefined;

  constructor(parts: {
    sdk: NodeSDK;
    reporters: readonly DropReporter[];
    flushables: readonly (object | undefined)[];
    unregister: () => void;
  }) {
    this.#sdk = parts.sdk;
    this.#reporters = parts.reporters;
    this.#flushables = parts.flushables;
    this.#unregister = parts.unregister;
  }

  async forceFlush(): Promise<void> {
    if (this.#shutdown !== undefined) return;
    const results = await Promise.allSettled(this.#flushables.map(flush));
    for (const result of results) {
      if (result.status === 'rejected') diag.warn('toolhooks: telemetry flush failed', result.reason);
    }
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#stop();
    return this.#shutdown;
  }

  async #stop(): Promise<void> {
    try {
      await this.#sdk.shutdown();
    } catch (error) {
      diag.warn('toolhooks: telemetry shutdown failed', error);
    }
    for (const reporter of this.#reporters) reporter.reportOutstanding();
    this.#unregister();
  }
}

interface CheckedOptions {
  serviceName?: string;
  endpoint?: string;
  protocol?: OtlpProtocol;
  headers?: Record<string, string>;
  console: false | true | 'tree';
  prometheus?: { port: number; host?: string };
  metricExportIntervalMillis?: number;
}

/** Validates options given by JavaScript callers as strictly as the types do for TypeScript ones. */
function checkOptions(options: StartTelemetryOptions): CheckedOptions {
  if (options === null || typeof options !== 'object') invalid('options', options, 'an object');
  const checked: CheckedOptions = { console: false };
  const { serviceName, endpoint, protocol, headers, console, prometheus, metricExportIntervalMillis } = options;
  if (serviceName !== undefined) {
    if (typeof serviceName !== 'string' || serviceName.trim() === '') invalid('options.serviceName', serviceName, 'a non-empty string');
    checked.serviceName = serviceName;
  }
  if (endpoint !== undefined) {
    if (typeof endpoint !== 'string' || !isHttpUrl(endpoint)) invalid('options.endpoint', endpoint, 'an http(s) URL such as "http://localhost:4318"');
    checked.endpoint = endpoint;
  }
  if (protocol !== undefined) checked.protocol = checkProtocol('options.protocol', protocol);
  if (headers !== undefined) {
    if (headers === null || typeof headers !== 'object' || Object.values(headers).some((v) => typeof v !== 'string')) {
      invalid('options.headers', headers, 'an object of string header values');
    }
    checked.headers = { ...headers };
  }
  if (console !== undefined) {
    if (console !== true && console !== false && console !== 'tree') invalid('options.console', console, 'true, false or "tree"');
    checked.console = console;
  }
  if (prometheus !== undefined) {
    if (prometheus === null || typeof prometheus !== 'object') invalid('options.prometheus', prometheus, 'an object { port, host? }');
    const { port, host } = prometheus;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) {
      invalid('options.prometheus.port', port, 'an integer from 1 to 65535');
    }
    if (host !== undefined && (typeof host !== 'string' || host === '')) invalid('options.prometheus.host', host, 'a host name or IP address');
    checked.prometheus = host === undefined ? { port } : { port, host };
  }
  if (metricExportIntervalMillis !== undefined) {
    if (typeof metricExportIntervalMillis !== 'number' || !Number.isFinite(metricExportIntervalMillis) || metricExportIntervalMillis <= 0) {
      invalid('options.metricExportIntervalMillis', metricExportIntervalMillis, 'a positive number of milliseconds');
    }
    checked.metricExportIntervalMillis = metricExportIntervalMillis;
  }
  return checked;
}

interface ExporterConfig {
  url?: string;
  headers?: Record<string, string>;
  timeoutMillis?: number;
}

function exporterConfig(plan: SignalPlan, headers: Record<string, string> | undefined, timeoutMillis?: number): ExporterConfig {
  const config: ExporterConfig = {};
  if (plan.url !== undefined) config.url = plan.url;
  if (headers !== undefined) config.headers = headers;
  if (timeoutMillis !== undefined) config.timeoutMillis = timeoutMillis;
  return config;
}

function traceExporter(plan: SignalPlan, headers: Record<string, string> | undefined): SpanExporter {
  const config = exporterConfig(plan, headers);
  return plan.protocol === 'http/json' ? new OTLPTraceExporterJson(config) : new OTLPTraceExporterProto(config);
}

function metricExporter(plan: SignalPlan, headers: Record<string, string> | undefined, timeoutMillis: number | undefined): PushMetricExporter {
  const config = exporterConfig(plan, headers, timeoutMillis);
  return plan.protocol === 'http/json' ? new OTLPMetricExporterJson(config) : new OTLPMetricExporterProto(config);
}

function logExporter(plan: SignalPlan, headers: Record<string, string> | undefined): LogRecordExporter {
  const config = exporterConfig(plan, headers);
  return plan.protocol === 'http/json' ? new OTLPLogExporterJson(config) : new OTLPLogExporterProto(config);
}

/** Binds the Prometheus endpoint before anything else starts, so that a port in use fails the call. */
async function servePrometheus(port: number, host: string): Promise<PrometheusExporter> {
  const exporter = new PrometheusExporter({ port, host, preventServerStart: true });
  try {
    await exporter.startServer();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EADDRINUSE') {
      throw new Error(`startTelemetry: options.prometheus.port ${port} is already in use on ${host}; choose another port`, { cause: error });
    }
    throw new Error(
      `startTelemetry: cannot serve Prometheus metrics on options.prometheus ${JSON.stringify({ host, port })}: ${String(code ?? error)}`,
      { cause: error },
    );
  }
  return exporter;
}

/** The globally registered tracer provider, or `undefined` when only the API's no-op one is there. */
function registeredTracerProvider(): TracerProvider | undefined {
  const global: TracerProvider = trace.getTracerProvider();
  const delegate = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  if (delegate === NOOP_TRACER_PROVIDER || delegate.constructor.name === 'NoopTracerProvider') return undefined;
  return delegate;
}

/** Whether a context manager is registered: without one, `context.with` does not change the active context. */
function hasContextManager(): boolean {
  return context.with(context.active().setValue(PROBE_KEY, true), () => context.active().getValue(PROBE_KEY) === true);
}

function reportExisting(provider: TracerProvider, checked: CheckedOptions): void {
  if (running !== undefined && running.tracerProvider === provider) {
    diag.warn('toolhooks: startTelemetry() was already called and is still running; this call starts nothing');
    return;
  }
  if (!existingReported) {
    existingReported = true;
    diag.info(
      'toolhooks: a tracer provider is already registered (the app runs its own OpenTelemetry SDK); ' +
        'startTelemetry() registers nothing and toolhooks uses the existing providers',
    );
  }
  if (checked.prometheus !== undefined) {
    diag.warn('toolhooks: startTelemetry() did not start the Prometheus endpoint: add a PrometheusExporter to your own MeterProvider');
  }
}

function inactive(status: Exclude<TelemetryStatus, 'started'>): TelemetryHandle {
  return { status, forceFlush: () => Promise.resolve(), shutdown: () => Promise.resolve() };
}
