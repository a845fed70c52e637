/**
 * The OpenTelemetry SDK set-up of the SDK scenarios: what a production process registers, with an
 * exporter that counts and discards so that the benchmark measures the instrumentation, not a network.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { PushMetricExporter, ResourceMetrics, ScopeMetrics } from '@opentelemetry/sdk-metrics';
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { INSTRUMENTATION_NAME } from '../src/telemetry/semconv.js';
import { VERSION } from '../src/version.js';
import type { Tracer } from '@opentelemetry/api';
import { AlwaysOffSampler, TracerProvider, BatchSpanProcessor, ParentBasedSampler } from '@opentelemetry/sdk-trace';
import { logs } from '@opentelemetry/api';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';

/** A log record exporter that drops what it is given (the log-events scenario's records end here). */
class DiscardingLogRecordExporter implements LogRecordExporter {
  export(_records: ReadableLogRecord[], resultCallback: (result: ExportResult) => void): void {
    resultCallback({ code: ExportResultCode.SUCCESS });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** A span exporter that counts what it is given and drops it, answering at once. */
export class DiscardingSpanExporter implements SpanExporter {
  exported = 0;
  /** When set, every exported span is also handed here (the smoke test reads them back). */
  keep: ((span: ReadableSpan) => void) | undefined;

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exported += spans.length;
    if (this.keep !== undefined) for (const span of spans) this.keep(span);
    resultCallback({ code: ExportResultCode.SUCCESS });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** A metric exporter that drops what it is given. */
class DiscardingMetricExporter implements PushMetricExporter {
  export(_metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    resultCallback({ code: ExportResultCode.SUCCESS });
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** A registered SDK: tracer provider and its exporter, meter provider. */
export interface TracingSdk {
  readonly provider: TracerProvider;
  readonly meterProvider: MeterProvider;
  readonly exporter: DiscardingSpanExporter;
  flush(): Promise<void>;
  /** What the meters recorded so far, by instrumentation scope name (the smoke test compares them). */
  collectMetrics(): Promise<Map<string, ScopeMetrics>>;
  shutdown(): Promise<void>;
}

/**
 * Registers a TracerProvider with a BatchSpanProcessor (default settings: 512-span batches, a
 * 2048-span queue), the AsyncLocalStorage context manager and a MeterProvider with one periodic reader
 * as the process-wide globals. Once per process: the no-SDK scenarios must run before this.
 */
export function installTracingSdk(): TracingSdk {
  const exporter = new DiscardingSpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] });
  if (!context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())) {
    throw new Error('a global context manager was already registered');
  }
  if (!trace.setGlobalTracerProvider(provider)) throw new Error('a global tracer provider was already registered');
  // A reader as in production (the minute-long interval never fires during a run): recording costs the same.
  const reader = new PeriodicExportingMetricReader({ exporter: new DiscardingMetricExporter(), exportIntervalMillis: 60_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  if (!metrics.setGlobalMeterProvider(meterProvider)) throw new Error('a global meter provider was already registered');
  // Only toolhooks' log-based decision records (the runner's decisionRecords option) use it; LoggingHook
  // writes through the scenarios' own pino destinations.
  const loggerProvider = new LoggerProvider({ processors: [new BatchLogRecordProcessor({ exporter: new DiscardingLogRecordExporter() })] });
  logs.setGlobalLoggerProvider(loggerProvider);
  return {
    provider,
    meterProvider,
    exporter,
    flush: () => provider.forceFlush(),
    collectMetrics: async () => {
      const { resourceMetrics } = await reader.collect();
      return new Map(resourceMetrics.scopeMetrics.map((scope) => [scope.scope.name, scope]));
    },
    shutdown: async () => {
      await provider.shutdown();
      await meterProvider.shutdown();
      await loggerProvider.shutdown();
    },
  };
}

/**
 * A tracer from an SDK provider whose sampler drops every root span (`ParentBased(AlwaysOff)`), as an
 * app sampling at a low rate does for most calls: the common production case of a call that is not
 * recorded. Spans it would export go to a discarding exporter behind a BatchSpanProcessor, as in
 * production; none should reach it.
 */
export function sampledOutTracer(): { tracer: Tracer; exporter: DiscardingSpanExporter; provider: TracerProvider } {
  const exporter = new DiscardingSpanExporter();
  const provider = new TracerProvider({
    sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  return { tracer: provider.getTracer(INSTRUMENTATION_NAME, VERSION), exporter, provider };
}
