/**
 * Exporter wrappers whose failures go to a {@link DropReporter}: the processors are told SUCCESS for a
 * batch that was already dropped (they would not retry it either way), so the SDK's one `diag.error` per
 * failed batch gives way to one report per outage. Each wrapper can also switch, when shutdown begins, to
 * a second exporter with a short timeout, so that a collector that is down cannot hold shutdown for the
 * exporters' full retry timeout (10 s by default).
 * @internal
 */
import type { DropReporter } from './drop-reporter.js';
import type { QueueGate } from './queue-gate.js';
import { AggregationTemporality, AggregationType, ExportResultCode } from './sdk-parts.js';
import type {
  AggregationOption,
  ExportResult,
  InstrumentType,
  LogRecordExporter,
  PushMetricExporter,
  ReadableLogRecord,
  ReadableSpan,
  ResourceMetrics,
  SpanExporter,
} from './sdk-parts.js';

interface Exporter<T> {
  export(items: T, resultCallback: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/** The wrapped exporter(s), the reporter and, for the batch processors, the gate in front of their queue. */
export interface ReportingParts<E> {
  readonly exporter: E;
  /** Used instead of `exporter` once {@link ReportingExporter.beginShutdown} was called. */
  readonly shutdownExporter?: E;
  readonly reporter: DropReporter;
  readonly gate?: QueueGate;
}

/** What the three wrappers share: the guarded export, the shutdown switch, flush and shutdown. */
abstract class ReportingExporter<T, E extends Exporter<T>> {
  protected readonly parts: ReportingParts<E>;
  #shuttingDown = false;

  constructor(parts: ReportingParts<E>) {
    this.parts = parts;
  }

  /** From now on exports go to the shutdown exporter (when there is one). */
  beginShutdown(): void {
    this.#shuttingDown = true;
  }

  protected get current(): E {
    return this.#shuttingDown ? (this.parts.shutdownExporter ?? this.parts.exporter) : this.parts.exporter;
  }

  protected guardedExport(items: T, count: number, resultCallback: (result: ExportResult) => void): void {
    this.parts.gate?.release(count);
    const reporter = this.parts.reporter;
    const ticket = reporter.exportStarted(count);
    try {
      this.current.export(items, (result) => resultCallback(reporter.settle(result, count, ticket)));
    } catch (error) {
      resultCallback(reporter.settle({ code: ExportResultCode.FAILED, error: toError(error) }, count, ticket));
    }
  }

  async shutdown(): Promise<void> {
    const { exporter, shutdownExporter } = this.parts;
    await Promise.all([exporter.shutdown(), shutdownExporter?.shutdown()]);
  }

  forceFlush(): Promise<void> {
    return this.current.forceFlush?.() ?? Promise.resolve();
  }
}

/** A span exporter whose failures go to a {@link DropReporter}. */
export class ReportingSpanExporter extends ReportingExporter<ReadableSpan[], SpanExporter> implements SpanExporter {
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.guardedExport(spans, spans.length, resultCallback);
  }
}

/** A log record exporter whose failures go to a {@link DropReporter}. */
export class ReportingLogRecordExporter extends ReportingExporter<ReadableLogRecord[], LogRecordExporter> implements LogRecordExporter {
  export(logs: ReadableLogRecord[], resultCallback: (result: ExportResult) => void): void {
    this.guardedExport(logs, logs.length, resultCallback);
  }
}

/** A push metric exporter whose failures go to a {@link DropReporter}; counts data points. */
export class ReportingMetricExporter extends ReportingExporter<ResourceMetrics, PushMetricExporter> implements PushMetricExporter {
  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    this.guardedExport(metrics, countDataPoints(metrics), resultCallback);
  }

  selectAggregationTemporality(instrumentType: InstrumentType): AggregationTemporality {
    return this.parts.exporter.selectAggregationTemporality?.(instrumentType) ?? AggregationTemporality.CUMULATIVE;
  }

  selectAggregation(instrumentType: InstrumentType): AggregationOption {
    return this.parts.exporter.selectAggregation?.(instrumentType) ?? { type: AggregationType.DEFAULT };
  }
}

function countDataPoints(metrics: ResourceMetrics): number {
  let points = 0;
  for (const scope of metrics.scopeMetrics) {
    for (const metric of scope.metrics) points += metric.dataPoints.length;
  }
  return points;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
