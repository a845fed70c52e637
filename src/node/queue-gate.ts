/**
 * The batch processors' queue limit, kept in front of them so that what a full queue drops is counted
 * by the signal's {@link DropReporter}. The SDK's batch span processor would instead warn once per export
 * timeout for as long as a collector hangs, and its log record processor would drop without a word.
 * @internal
 */
import type { Context } from '@opentelemetry/api';
import { TraceFlags } from '@opentelemetry/api';
import type { DropReporter } from './drop-reporter.js';
import type { LogRecordProcessor, ReadableSpan, ReadWriteLogRecord, Span, SpanProcessor } from './sdk-parts.js';

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

  /** Items accepted and not yet handed to the exporter. */
  get held(): number {
    return this.#held;
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

/** What the span and log record processors behind a gate share: flush, shutdown, the stopped flag. */
abstract class GatedProcessor<P extends { forceFlush(): Promise<void>; shutdown(): Promise<void> }> {
  protected readonly inner: P;
  protected readonly gate: QueueGate;
  protected stopped = false;

  constructor(inner: P, gate: QueueGate) {
    this.inner = inner;
    this.gate = gate;
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    this.stopped = true;
    return this.inner.shutdown();
  }
}

/** A batch span processor behind a {@link QueueGate}. */
export class GatedSpanProcessor extends GatedProcessor<SpanProcessor> implements SpanProcessor {
  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }

  onEnd(span: ReadableSpan): void {
    // The batch processor queues only sampled spans, and nothing once it is shut down.
    const queued = !this.stopped && (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
    if (queued && !this.gate.admit()) return;
    this.inner.onEnd(span);
  }
}

/** A batch log record processor behind a {@link QueueGate}. */
export class GatedLogRecordProcessor extends GatedProcessor<LogRecordProcessor> implements LogRecordProcessor {
  onEmit(logRecord: ReadWriteLogRecord, context?: Context): void {
    if (!this.stopped && !this.gate.admit()) return;
    this.inner.onEmit(logRecord, context);
  }
}
