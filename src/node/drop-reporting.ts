/**
 * Exporter wrappers that turn failed exports into one diag report per outage, with a count.
 *
 * The 0.223 OTLP exporters retry what the spec calls retryable (429, 502, 503, 504, with backoff) and then
 * hand the batch processors a FAILED result, which the processors pass to the global error handler: one
 * `diag.error` per batch, every few seconds, for as long as the collector is down. These wrappers report
 * the first failure of an outage once (`diag.warn`, with what was dropped), count silently after that,
 * and say how much was dropped in total when exports succeed again or at shutdown. The processors are
 * told SUCCESS for a batch that was already dropped: they would not retry it either way.
 * @internal
 */
import { diag } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { AggregationTemporality, AggregationType } from '@opentelemetry/sdk-metrics';
import type { AggregationOption, InstrumentType, PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';

/** Counts what one signal's exporter dropped and reports it through diag, once per outage. */
export class DropReporter {
  readonly #signal: string;
  readonly #unit: string;
  #failing = false;
  #droppedInOutage = 0;
  #reportedInOutage = 0;
  #droppedTotal = 0;

  constructor(signal: string, unit: string) {
    this.#signal = signal;
    this.#unit = unit;
  }

  /** Everything dropped since this reporter was created. */
  get dropped(): number {
    return this.#droppedTotal;
  }

  /** Records one export's result; returns the result the processor should see. */
  settle(result: ExportResult, count: number): ExportResult {
    if (result.code === ExportResultCode.SUCCESS) {
      if (this.#failing) {
        diag.info(
          `toolhooks: ${this.#signal} export recovered; ${this.#droppedInOutage} ${this.#unit} were dropped while it failed`,
        );
        this.#failing = false;
        this.#droppedInOutage = 0;
      }
      return result;
    }
    this.#droppedInOutage += count;
    this.#droppedTotal += count;
    if (!this.#failing) {
      this.#failing = true;
      this.#reportedInOutage = this.#droppedInOutage;
      diag.warn(
        `toolhooks: ${this.#signal} export failed (${describe(result.error)}); dropped ${count} ${this.#unit}. ` +
          'Further drops are counted and reported when export recovers or at shutdown.',
      );
    }
    return { code: ExportResultCode.SUCCESS };
  }

  /** At shutdown: reports what was dropped since the last report, if the outage is still going on. */
  reportOutstanding(): void {
    if (this.#failing && this.#droppedInOutage > this.#reportedInOutage) {
      diag.warn(
        `toolhooks: ${this.#signal} export was still failing at shutdown; ${this.#droppedInOutage} ${this.#unit} were dropped in all`,
      );
    }
    this.#reportedInOutage = this.#droppedInOutage;
  }
}

/** A span exporter whose failures go to a {@link DropReporter}. */
export class ReportingSpanExporter implements SpanExporter {
  readonly #inner: SpanExporter;
  readonly #reporter: DropReporter;

  constructor(inner: SpanExporter, reporter: DropReporter) {
    this.#inner = inner;
    this.#reporter = reporter;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    guardedExport(this.#reporter, spans.length, resultCallback, (cb) => this.#inner.export(spans, cb));
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** A push metric exporter whose failures go to a {@link DropReporter}; counts data points. */
export class ReportingMetricExporter implements PushMetricExporter {
  readonly #inner: PushMetricExporter;
  readonly #reporter: DropReporter;

  constructor(inner: PushMetricExporter, reporter: DropReporter) {
    this.#inner = inner;
    this.#reporter = reporter;
  }

  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    guardedExport(this.#reporter, countDataPoints(metrics), resultCallback, (cb) => this.#inner.export(metrics, cb));
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }

  selectAggregationTemporality(instrumentType: InstrumentType): AggregationTemporality {
    return this.#inner.selectAggregationTemporality?.(instrumentType) ?? AggregationTemporality.CUMULATIVE;
  }

  selectAggregation(instrumentType: InstrumentType): AggregationOption {
    return this.#inner.selectAggregation?.(instrumentType) ?? { type: AggregationType.DEFAULT };
  }
}

/** A log record exporter whose failures go to a {@link DropReporter}. */
export class ReportingLogRecordExporter implements LogRecordExporter {
  readonly #inner: LogRecordExporter;
  readonly #reporter: DropReporter;

  constructor(inner: LogRecordExporter, reporter: DropReporter) {
    this.#inner = inner;
    this.#reporter = reporter;
  }

  export(logs: ReadableLogRecord[], resultCallback: (result: ExportResult) => void): void {
    guardedExport(this.#reporter, logs.length, resultCallback, (cb) => this.#inner.export(logs, cb));
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush();
  }
}

function guardedExport(
  reporter: DropReporter,
  count: number,
  resultCallback: (result: ExportResult) => void,
  run: (cb: (result: ExportResult) => void) => void,
): void {
  try {
    run((result) => resultCallback(reporter.settle(result, count)));
  } catch (error) {
    resultCallback(reporter.settle({ code: ExportResultCode.FAILED, error: toError(error) }, count));
  }
}

function countDataPoints(metrics: ResourceMetrics): number {
  let points = 0;
  for (const scope of metrics.scopeMetrics) {
    for (const metric of scope.metrics) points += metric.dataPoints.length;
  }
  return points;
}

function describe(error: Error | undefined): string {
  if (error === undefined) return 'no reason given';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
