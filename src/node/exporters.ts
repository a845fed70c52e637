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
import { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { LogRecordExporter, LogRecordProcessor } from '@opentelemetry/sdk-logs';
import { PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { IMetricReader, PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { ConsoleSpanProcessor } from './console-exporter.js';
import { DropReporter } from './drop-reporter.js';
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

/** One signal's OTLP export, as the shutdown needs it. */
export interface SignalExport {
  readonly reporter: DropReporter;
  /** The batch processor's queue gate (traces and logs). */
  readonly gate?: QueueGate;
  /** Switches the export to its short-timeout exporter. */
  beginShutdown(): void;
  /** Where the exporter sends to, for messages. */
  readonly target: string;
}

/** What the SDK is configured with, and the OTLP exports behind it. */
export interface Pipelines {
  readonly spanProcessors: SpanProcessor[];
  readonly metricReaders: IMetricReader[];
  readonly logRecordProcessors: LogRecordProcessor[];
  readonly exports: SignalExport[];
}

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
  const headers = checked.headers;
  // The shutdown exporters give up in time for shutdown to report why, within its deadline.
  const shutdownTimeout = Math.max(1, Math.floor(checked.shutdownTimeoutMillis * 0.75));
  const consoleMode = checked.console;

  let spanProcessors: SpanProcessor[];
  if (consoleMode !== false) {
    spanProcessors = [new ConsoleSpanProcessor(consoleMode)];
  } else if (exporterIsNone('OTEL_TRACES_EXPORTER')) {
    spanProcessors = [];
  } else {
    // Built here rather than by NodeSDK (from `traceExporter`) so that its queue limit is counted too.
    const settings = batchSpanSettings();
    const reporter = new DropReporter('span', 'spans');
    const gate = new QueueGate(settings.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE, reporter);
    const exporter = new ReportingSpanExporter({
      exporter: traceExporter(plans.traces, headers),
      shutdownExporter: traceExporter(plans.traces, headers, shutdownTimeout),
      reporter,
      gate,
    });
    exports.push({ reporter, gate, beginShutdown: () => exporter.beginShutdown(), target: plans.traces.target });
    spanProcessors = [new GatedSpanProcessor(new BatchSpanProcessor({ exporter, ...settings }), gate)];
  }

  const metricReaders: IMetricReader[] = [];
  if (!existing.meterProvider && !exporterIsNone('OTEL_METRICS_EXPORTER') && (consoleMode === false || plans.metrics.endpointConfigured)) {
    const timing = metricTiming(checked.metricExportIntervalMillis);
    const reporter = new DropReporter('metric', 'data points');
    const exporter = new ReportingMetricExporter({
      exporter: metricExporter(plans.metrics, headers, metricExporterTimeout(timing.timeoutMillis)),
      shutdownExporter: metricExporter(plans.metrics, headers, shutdownTimeout),
      reporter,
    });
    exports.push({ reporter, beginShutdown: () => exporter.beginShutdown(), target: plans.metrics.target });
    metricReaders.push(
      new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: timing.intervalMillis, exportTimeoutMillis: timing.timeoutMillis }),
    );
  }

  const logRecordProcessors: LogRecordProcessor[] = [];
  if (!existing.loggerProvider && !exporterIsNone('OTEL_LOGS_EXPORTER') && (consoleMode === false || plans.logs.endpointConfigured)) {
    const settings = batchLogSettings();
    const reporter = new DropReporter('log', 'log records');
    const gate = new QueueGate(settings.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE, reporter);
    const exporter = new ReportingLogRecordExporter({
      exporter: logExporter(plans.logs, headers),
      shutdownExporter: logExporter(plans.logs, headers, shutdownTimeout),
      reporter,
      gate,
    });
    exports.push({ reporter, gate, beginShutdown: () => exporter.beginShutdown(), target: plans.logs.target });
    logRecordProcessors.push(new GatedLogRecordProcessor(new BatchLogRecordProcessor({ exporter, ...settings }), gate));
  }

  return { spanProcessors, metricReaders, logRecordProcessors, exports };
}

interface ExporterConfig {
  url?: string;
  headers?: Record<string, string>;
  timeoutMillis?: number;
}

function exporterConfig(plan: SignalPlan, headers: Record<string, string> | undefined, timeoutMillis: number | undefined): ExporterConfig {
  const config: ExporterConfig = {};
  if (plan.url !== undefined) config.url = plan.url;
  if (headers !== undefined) config.headers = headers;
  if (timeoutMillis !== undefined) config.timeoutMillis = timeoutMillis;
  return config;
}

function traceExporter(plan: SignalPlan, headers: Record<string, string> | undefined, timeoutMillis?: number): SpanExporter {
  const config = exporterConfig(plan, headers, timeoutMillis);
  return plan.protocol === 'http/json' ? new OTLPTraceExporterJson(config) : new OTLPTraceExporterProto(config);
}

function metricExporter(plan: SignalPlan, headers: Record<string, string> | undefined, timeoutMillis: number | undefined): PushMetricExporter {
  const config = exporterConfig(plan, headers, timeoutMillis);
  return plan.protocol === 'http/json' ? new OTLPMetricExporterJson(config) : new OTLPMetricExporterProto(config);
}

function logExporter(plan: SignalPlan, headers: Record<string, string> | undefined, timeoutMillis?: number): LogRecordExporter {
  const config = exporterConfig(plan, headers, timeoutMillis);
  return plan.protocol === 'http/json' ? new OTLPLogExporterJson(config) : new OTLPLogExporterProto(config);
}
