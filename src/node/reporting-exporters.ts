/**
 * Exporter wrappers whose failures go to a {@link DropReporter}: the processors are told SUCCESS for a
 * batch that was already dropped (they would not retry it either way), so the SDK's one `diag.error` per
 * failed batch gives way to one report per outage. Each wrapper can also switch, when shutdown begins, to
 * a second exporter with a short timeout, so that a collector that is down cannot hold shutdown for the
 * exporters' full retry timeout (10 s by default).
 * @internal
 */
import { warnVisibly } from '../telemetry/warn-once.js';
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
  /** Callbacks of exports under way: {@link release} answers them, so no processor waits on its timer. */
  readonly #pending = new Set<(result: ExportResult) => void>();
  #released = false;

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
    let answered = false;
    const answer = (result: ExportResult): void => {
      if (answered) return;
      answered = true;
      this.#pending.delete(answer);
      resultCallback(reporter.settle(result, count, ticket));
    };
    if (this.#released) {
      answer({ code: ExportResultCode.FAILED, error: new Error('telemetry was shut down') });
      return;
    }
    this.#pending.add(answer);
    try {
      this.current.export(items, answer);
    } catch (error) {
      answer({ code: ExportResultCode.FAILED, error: toError(error) });
    }
  }

  /**
   * Shutdown is over and has reported what it dropped: exports still under way are answered now (the
   * reporter already counted them as abandoned), so that the batch processors clear their export
   * timers (30 s by default) instead of holding the process; later exports fail at once.
   */
  release(): void {
    this.#released = true;
    for (const answer of [...this.#pending]) answer({ code: ExportResultCode.FAILED, error: new Error('telemetry was shut down') });
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

/**
 * A push metric exporter whose failures go to a {@link DropReporter}; counts data points, and says once
 * when the SDK's cardinality limit merged series into `otel.metric.overflow`.
 */
export class ReportingMetricExporter extends ReportingExporter<ResourceMetrics, PushMetricExporter> implements PushMetricExporter {
  #overflowReported = false;

  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    if (!this.#overflowReported) this.#reportOverflow(metrics);
    this.guardedExport(metrics, countDataPoints(metrics), resultCallback);
  }

  /**
   * The SDK keeps at most 2,000 series (attribute sets) per metric and merges the rest into one series
   * marked `otel.metric.overflow=true`, without a word; a per-tool alert then stops seeing new tools.
   */
  #reportOverflow(metrics: ResourceMetrics): void {
    const names = overflowingMetrics(metrics);
    if (names.length === 0) return;
    this.#overflowReported = true;
    warnVisibly(
      `toolhooks: ${names.join(', ')} reached the SDK's limit of ${DEFAULT_CARDINALITY_LIMIT} series per metric; ` +
        `new attribute sets are merged into one series with ${OVERFLOW_ATTRIBUTE}=true, so per-tool queries and alerts miss them. ` +
        'Bound tool names (pass registered tool names, not raw model output) or raise the limit with a view (docs/telemetry.md#metric-cardinality)',
      'TOOLHOOKS_METRIC_OVERFLOW',
    );
  }

  selectAggregationTemporality(instrumentType: InstrumentType): AggregationTemporality {
    return this.parts.exporter.selectAggregationTemporality?.(instrumentType) ?? AggregationTemporality.CUMULATIVE;
  }

  selectAggregation(instrumentType: InstrumentType): AggregationOption {
    return this.parts.exporter.selectAggregation?.(instrumentType) ?? { type: AggregationType.DEFAULT };
  }
}

/** The attribute the SDK puts on the series that merges everything past the cardinality limit. */
const OVERFLOW_ATTRIBUTE = 'otel.metric.overflow';
/** The SDK's default cardinality limit per metric (per reader). */
const DEFAULT_CARDINALITY_LIMIT = 2000;

/** Names of the metrics that have an overflow series in this export; never throws. */
function overflowingMetrics(metrics: ResourceMetrics): string[] {
  const names: string[] = [];
  try {
    for (const scope of metrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        const points: readonly { readonly attributes: Record<string, unknown> }[] = metric.dataPoints;
        if (points.some((point) => point.attributes[OVERFLOW_ATTRIBUTE] === true)) names.push(metric.descriptor.name);
      }
    }
  } catch {
    // an unexpected shape: nothing to report
  }
  return names;
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
