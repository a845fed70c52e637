/**
 * The export pipelines startTelemetry() gives the SDK: per signal an OTLP/HTTP exporter of the chosen
 * encoding, wrapped so that drops are counted and reported once per outage, behind a queue gate for the
 * batch processors; or, in console mode, the span printer.
 * @internal
 */
import { OTLPLogExporter as OTLPLogExporterJson } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as OTLPLogExporterProto } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as OTLPMetricExporterJson } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as OTLPMetricExporterProto } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as OTLPTraceExporterJson } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPTraceExporterProto } from '@opentelemetry/exporter-trace-otlp-proto';
import { ConsoleSpanProcessor } from './console-exporter.js';
import { DropReporter } from './drop-reporter.js';
import { JsonLinesSpanExporter } from './file-exporter.js';
import { ExportTails } from './export-tails.js';
import {
  batchLogSettings,
  batchSpanSettings,
  DEFAULT_MAX_QUEUE_SIZE,
  exporterIsNone,
  metricExporterTimeout,
  metricTiming,
} from './environment.js';
import type { SignalPlan } from './environment.js';
import type { CheckedOptions } from './options.js';
import { GatedLogRecordProcessor, GatedSpanProcessor, QueueGate } from './queue-gate.js';
import { ReportingLogRecordExporter, ReportingMetricExporter, ReportingSpanExporter } from './reporting-exporters.js';
import type { ReportingParts } from './reporting-exporters.js';
import { BatchLogRecordProcessor, BatchSpanProcessor, PeriodicExportingMetricReader } from './sdk-parts.js';
import type { IMetricReader, LogRecordExporter, LogRecordProcessor, PushMetricExporter, SpanExporter, SpanProcessor } from './sdk-parts.js';

/** One signal's OTLP export, as the shutdown needs it. */
export interface SignalExport {
  readonly reporter: DropReporter;
  /** The batch processor's queue gate (traces and logs). */
  readonly gate?: QueueGate;
  /** Switches the export to its short-timeout exporter. */
  beginShutdown(): void;
  /** Shutdown is over: answers the exports still under way, so that nothing waits on them. */
  release(): void;
  /** Where the exporter sends to, for messages. */
  readonly target: string;
}

/** What the SDK is configured with, and the OTLP exports behind it. */
export interface Pipelines {
  readonly spanProcessors: SpanProcessor[];
  readonly metricReaders: IMetricReader[];
  readonly logRecordProcessors: LogRecordProcessor[];
  readonly exports: SignalExport[];
  /** The OTLP exporters' sockets and retry timers, released when shutdown is over. */
  readonly tails: ExportTails;
}

/**
 * The batch span processor's own defaults, given in full, so that a setting left out (or one
 * batchSpanSettings() ignores as not positive) has the same value on every SDK release.
 */
const SPAN_BATCH_DEFAULTS = {
  maxQueueSize: DEFAULT_MAX_QUEUE_SIZE,
  maxExportBatchSize: 512,
  scheduledDelayMillis: 5_000,
  exportTimeoutMillis: 30_000,
} as const;

/** Each signal's name and unit in drop reports. */
const SIGNAL_NAMES: Readonly<Record<keyof SignalPlans, readonly [string, string]>> = {
  traces: ['span', 'spans'],
  metrics: ['metric', 'data points'],
  logs: ['log', 'log records'],
};

/** The signal plans: per signal the protocol, URL and whether an endpoint was configured. */
export interface SignalPlans {
  readonly traces: SignalPlan;
  readonly metrics: SignalPlan;
  readonly logs: SignalPlan;
}

/**
 * Builds the span processors, metric readers and log record processors. Metrics and logs are left out
 * when the app already registered that provider, when `OTEL_*_EXPORTER=none`, or in console mode without
 * a configured endpoint.
 */
export function buildPipelines(
  checked: CheckedOptions,
  plans: SignalPlans,
  existing: { readonly meterProvider: boolean; readonly loggerProvider: boolean },
): Pipelines {
  const exports: SignalExport[] = [];
  const tails = new ExportTails();
  const headers = checked.headers;
  // The shutdown exporters give up in time for shutdown to report why, within its deadline.
  const shutdownTimeout = Math.max(1, Math.floor(checked.shutdownTimeoutMillis * 0.75));
  const consoleMode = checked.console;
  // Console or file: the traces stay on this machine, and OTLP is used only where an endpoint is configured.
  const local = consoleMode !== false || checked.file !== undefined;

  /** One signal's reporter, queue gate (batch processors only) and wrapped exporter pair, registered in `exports`. */
  const reported = <E, W extends { beginShutdown(): void; release(): void }>(
    signal: keyof SignalPlans,
    build: (timeoutMillis?: number) => E,
    wrap: (parts: ReportingParts<E>) => W,
    maxQueueSize?: number,
  ): { exporter: W; gate: QueueGate } => {
    const [name, unit] = SIGNAL_NAMES[signal];
    const reporter = new DropReporter(name, unit);
    const gate = new QueueGate(maxQueueSize ?? Number.POSITIVE_INFINITY, reporter);
    const parts = { exporter: build(), shutdownExporter: build(shutdownTimeout), reporter };
    const exporter = wrap(maxQueueSize === undefined ? parts : { ...parts, gate });
    exports.push({ reporter, gate, beginShutdown: () => exporter.beginShutdown(), release: () => exporter.release(), target: plans[signal].target });
    return { exporter, gate };
  };

  let spanProcessors: SpanProcessor[];
  if (consoleMode !== false) {
    spanProcessors = [new ConsoleSpanProcessor(consoleMode)];
  } else if (exporterIsNone('OTEL_TRACES_EXPORTER') || (local && !plans.traces.endpointConfigured)) {
    spanProcessors = [];
  } else {
    // Built here rather than by NodeSDK (from `traceExporter`) so that its queue limit is counted too.
    const settings = batchSpanSettings();
    const maxQueueSize = settings.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE;
    const build = (timeout?: number): SpanExporter => tails.adopt(traceExporter(plans.traces, exporterConfig(plans.traces, headers, timeout, tails)));
    const { exporter, gate } = reported('traces', build, (parts) => new ReportingSpanExporter(parts), maxQueueSize);
    spanProcessors = [new GatedSpanProcessor(new BatchSpanProcessor({ exporter, ...SPAN_BATCH_DEFAULTS, ...settings }), gate)];
  }
  if (checked.file !== undefined) {
    spanProcessors.push(new BatchSpanProcessor({ exporter: new JsonLinesSpanExporter(checked.file), ...SPAN_BATCH_DEFAULTS, ...batchSpanSettings() }));
  }

  const metricReaders: IMetricReader[] = [];
  if (!existing.meterProvider && !exporterIsNone('OTEL_METRICS_EXPORTER') && (!local || plans.metrics.endpointConfigured)) {
    const timing = metricTiming(checked.metricExportIntervalMillis);
    const primaryTimeout = metricExporterTimeout(timing.timeoutMillis);
    const build = (timeout?: number): PushMetricExporter =>
      tails.adopt(metricExporter(plans.metrics, exporterConfig(plans.metrics, headers, timeout ?? primaryTimeout, tails)));
    const { exporter } = reported('metrics', build, (parts) => new ReportingMetricExporter(parts));
    metricReaders.push(
      new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: timing.intervalMillis, exportTimeoutMillis: timing.timeoutMillis }),
    );
  }

  const logRecordProcessors: LogRecordProcessor[] = [];
  if (!existing.loggerProvider && !exporterIsNone('OTEL_LOGS_EXPORTER') && (!local || plans.logs.endpointConfigured)) {
    const settings = batchLogSettings();
    const maxQueueSize = settings.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE;
    const build = (timeout?: number): LogRecordExporter => tails.adopt(logExporter(plans.logs, exporterConfig(plans.logs, headers, timeout, tails)));
    const { exporter, gate } = reported('logs', build, (parts) => new ReportingLogRecordExporter(parts), maxQueueSize);
    logRecordProcessors.push(new GatedLogRecordProcessor(new BatchLogRecordProcessor({ exporter, ...settings }), gate));
  }

  return { spanProcessors, metricReaders, logRecordProcessors, exports, tails };
}

interface ExporterConfig {
  url?: string;
  headers?: Record<string, string>;
  timeoutMillis?: number;
  /** Our agents, so that their sockets can be released after shutdown (see export-tails.ts). */
  httpAgentOptions: ExportTails['agentFactory'];
}

function exporterConfig(plan: SignalPlan, headers: Record<string, string> | undefined, timeoutMillis: number | undefined, tails: ExportTails): ExporterConfig {
  const config: ExporterConfig = { httpAgentOptions: tails.agentFactory };
  if (plan.url !== undefined) config.url = plan.url;
  if (headers !== undefined) config.headers = headers;
  if (timeoutMillis !== undefined) config.timeoutMillis = timeoutMillis;
  return config;
}

function traceExporter(plan: SignalPlan, config: ExporterConfig): SpanExporter {
  return plan.protocol === 'http/json' ? new OTLPTraceExporterJson(config) : new OTLPTraceExporterProto(config);
}

function metricExporter(plan: SignalPlan, config: ExporterConfig): PushMetricExporter {
  return plan.protocol === 'http/json' ? new OTLPMetricExporterJson(config) : new OTLPMetricExporterProto(config);
}

function logExporter(plan: SignalPlan, config: ExporterConfig): LogRecordExporter {
  return plan.protocol === 'http/json' ? new OTLPLogExporterJson(config) : new OTLPLogExporterProto(config);
}
