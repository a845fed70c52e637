/**
 * Exporter and processor wrappers that turn dropped telemetry into one diag report per outage, with a count.
 *
 * The 0.223 OTLP exporters retry what the spec calls retryable (429, 502, 503, 504, with backoff) and then
 * hand the batch processors a FAILED result, which the processors pass to the global error handler: one
 * `diag.error` per batch, every few seconds, for as long as the collector is down. These wrappers report
 * the first failure of an outage once (`diag.warn`, with what was dropped), count silently after that,
 * and say how much was dropped in total when exports succeed again or at shutdown. The processors are
 * told SUCCESS for a batch that was already dropped: they would not retry it either way.
 *
 * The batch processors also drop at their queue limit while an export is slow or hanging: the span
 * processor with a `diag.warn` each time the queue has room again (every export timeout, for as long as
 * the collector hangs), the log record processor without a word. {@link QueueGate} keeps the same limit in
 * front of them, so that those drops are counted by the same reporter and the processors never drop on
 * their own.
 * @internal
 */
import { diag } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { Context } from '@opentelemetry/api';
import { TraceFlags } from '@opentelemetry/api';
import type { LogRecordExporter, LogRecordProcessor, ReadableLogRecord, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';
import { AggregationTemporality, AggregationType } from '@opentelemetry/sdk-metrics';
import type { AggregationOption, InstrumentType, PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';

/**
 * Counts what one signal dropped and reports it through diag, once per outage: a `diag.warn` at the first
 * drop, silence while the outage lasts, a `diag.info` with the total once exports work again (or a
 * `diag.warn` with the total at shutdown if they never did).
 *
 * An outage ends when an export succeeds without the queue overflowing meanwhile, and every export that
 * was already under way by then has settled: an export sent to a hanging collector can fail well after a
 * later one succeeded, and its loss belongs to the outage being closed, not to a new one.
 */
export class DropReporter {
  readonly #signal: string;
  readonly #unit: string;
  #failing = false;
  #droppedInOutage = 0;
  #reportedInOutage = 0;
  #droppedTotal = 0;
  #queueDrops = 0;
  #lastTicket = 0;
  #lastFailedTicket = 0;
  /** Exports under way: ticket → the queue-drop count when it began. */
  readonly #pending = new Map<number, number>();
  /** Set once an export succeeded during the outage: the last ticket issued by then. */
  #recoveredThrough: number | undefined;

  constructor(signal: string, unit: string) {
    this.#signal = signal;
    this.#unit = unit;
  }

  /** Everything dropped since this reporter was created. */
  get dropped(): number {
    return this.#droppedTotal;
  }

  /** Notes that an export began; pass the ticket to {@link settle}. */
  exportStarted(): number {
    this.#lastTicket += 1;
    this.#pending.set(this.#lastTicket, this.#queueDrops);
    return this.#lastTicket;
  }

  /** Records items dropped because the processor's queue was full. */
  dropQueued(count: number, maxQueueSize: number): void {
    this.#queueDrops += count;
    this.#recoveredThrough = undefined; // still overflowing: not recovered yet
    this.#drop(count, () => `export cannot keep up (queue full at maxQueueSize ${maxQueueSize})`);
  }

  /** Records one export's result; returns the result the processor should see. */
  settle(result: ExportResult, count: number, ticket: number): ExportResult {
    const queueDropsAtStart = this.#pending.get(ticket) ?? this.#queueDrops;
    this.#pending.delete(ticket);
    if (result.code === ExportResultCode.SUCCESS) {
      // Evidence of recovery: begun after the latest failed export, and no queue overflow while under way.
      if (this.#failing && this.#recoveredThrough === undefined && ticket > this.#lastFailedTicket && queueDropsAtStart === this.#queueDrops) {
        this.#recoveredThrough = this.#lastTicket;
      }
    } else {
      // A failure of an export begun after the recovery was seen means the collector is failing again.
      if (this.#recoveredThrough !== undefined && ticket > this.#recoveredThrough) this.#recoveredThrough = undefined;
      this.#lastFailedTicket = Math.max(this.#lastFailedTicket, ticket);
      this.#drop(count, () => `export failed (${describe(result.error)})`);
    }
    this.#reportRecovery();
    return result.code === ExportResultCode.SUCCESS ? result : { code: ExportResultCode.SUCCESS };
  }

  /** At shutdown: closes the outage report, if one is open. */
  reportOutstanding(): void {
    if (!this.#failing) return;
    if (this.#recoveredThrough !== undefined) {
      this.#pending.clear();
      this.#reportRecovery();
      return;
    }
    if (this.#droppedInOutage > this.#reportedInOutage) {
      diag.warn(
        `toolhooks: ${this.#signal} export was still failing at shutdown; ${this.#droppedInOutage} ${this.#unit} were dropped in all`,
      );
    }
    this.#reportedInOutage = this.#droppedInOutage;
  }

  #drop(count: number, reason: () => string): void {
    this.#droppedInOutage += count;
    this.#droppedTotal += count;
    if (this.#failing) return;
    this.#failing = true;
    this.#reportedInOutage = this.#droppedInOutage;
    diag.warn(
      `toolhooks: ${this.#signal} ${reason()}; dropped ${count} ${this.#unit}. ` +
        'Further drops are counted and reported when export recovers or at shutdown.',
    );
  }

  #reportRecovery(): void {
    const through = this.#recoveredThrough;
    if (!this.#failing || through === undefined) return;
    for (const ticket of this.#pending.keys()) if (ticket <= through) return; // older exports still under way
    diag.info(`toolhooks: ${this.#signal} export recovered; ${this.#droppedInOutage} ${this.#unit} were dropped while it failed`);
    this.#failing = false;
    this.#droppedInOutage = 0;
    this.#reportedInOutage = 0;
    this.#recoveredThrough = undefined;
  }
}

/**
 * Keeps a batch processor's queue limit in front of it: counts what the processor holds (accepted, not yet
 * handed to the exporter) and drops, counting into the reporter, what would not fit.
 */
export class QueueGate {
  readonly #maxQueueSize: number;
  readonly #reporter: DropReporter;
  #held = 0;

  constructor(maxQueueSize: number, reporter: DropReporter) {
    this.#maxQueueSize = maxQueueSize;
    this.#reporter = reporter;
  }

  /** Whether one more item fits; when it does not, the drop is counted. */
  admit(): boolean {
    if (this.#held >= this.#maxQueueSize) {
      this.#reporter.dropQueued(1, this.#maxQueueSize);
      return false;
    }
    this.#held += 1;
    return true;
  }

  /** The processor handed `count` items to the exporter: they have left its queue. */
  release(count: number): void {
    this.#held = Math.max(0, this.#held - count);
  }
}

/** A span exporter whose failures go to a {@link DropReporter}. */
export class ReportingSpanExporter implements SpanExporter {
  readonly #inner: SpanExporter;
  readonly #reporter: DropReporter;
  readonly #gate: QueueGate | undefined;

  constructor(inner: SpanExporter, reporter: DropReporter, gate?: QueueGate) {
    this.#inner = inner;
    this.#reporter = reporter;
    this.#gate = gate;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.#gate?.release(spans.length);
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
  readonly #gate: QueueGate | undefined;

  constructor(inner: LogRecordExporter, reporter: DropReporter, gate?: QueueGate) {
    this.#inner = inner;
    this.#reporter = reporter;
    this.#gate = gate;
  }

  export(logs: ReadableLogRecord[], resultCallback: (result: ExportResult) => void): void {
    this.#gate?.release(logs.length);
    guardedExport(this.#reporter, logs.length, resultCallback, (cb) => this.#inner.export(logs, cb));
  }

  shutdown(): Promise<void> {
    return this.#inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush();
  }
}

/** A batch span processor behind a {@link QueueGate}. */
export class GatedSpanProcessor implements SpanProcessor {
  readonly #inner: SpanProcessor;
  readonly #gate: QueueGate;
  #stopped = false;

  constructor(inner: SpanProcessor, gate: QueueGate) {
    this.#inner = inner;
    this.#gate = gate;
  }

  onStart(span: Span, parentContext: Context): void {
    this.#inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    // The batch processor queues only sampled spans, and nothing once it is shut down.
    const queued = !this.#stopped && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    if (queued && !this.#gate.admit()) return;
    this.#inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush();
  }

  shutdown(): Promise<void> {
    this.#stopped = true;
    return this.#inner.shutdown();
  }
}

/** A batch log record processor behind a {@link QueueGate}. */
export class GatedLogRecordProcessor implements LogRecordProcessor {
  readonly #inner: LogRecordProcessor;
  readonly #gate: QueueGate;
  #stopped = false;

  constructor(inner: LogRecordProcessor, gate: QueueGate) {
    this.#inner = inner;
    this.#gate = gate;
  }

  onEmit(logRecord: ReadWriteLogRecord, context?: Context): void {
    if (!this.#stopped && !this.#gate.admit()) return;
    this.#inner.onEmit(logRecord, context);
  }

  forceFlush(): Promise<void> {
    return this.#inner.forceFlush();
  }

  shutdown(): Promise<void> {
    this.#stopped = true;
    return this.#inner.shutdown();
  }
}

function guardedExport(
  reporter: DropReporter,
  count: number,
  resultCallback: (result: ExportResult) => void,
  run: (cb: (result: ExportResult) => void) => void,
): void {
  const ticket = reporter.exportStarted();
  try {
    run((result) => resultCallback(reporter.settle(result, count, ticket)));
  } catch (error) {
    resultCallback(reporter.settle({ code: ExportResultCode.FAILED, error: toError(error) }, count, ticket));
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
