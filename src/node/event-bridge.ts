/**
 * The "event to span event" bridge of the OpenTelemetry logs SDK specification, which the JS SDK does not
 * ship yet: a log record with an event name, emitted in the context of a span that is recording, is added
 * to that span as a span event with the record's attributes and time. With the runner's
 * `decisionRecords: 'log-events'`, decision records then reach log backends as events and still show on the
 * phase spans in Jaeger (docs/telemetry.md, "Decision records as log events").
 */
import type { Attributes, Context, HrTime, SpanContext } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import { FailureCounter } from '../telemetry/warn-once.js';

/** The parts of an SDK log record the bridge reads (SDK 3's and SDK 2's `ReadWriteLogRecord` alike). */
interface BridgedLogRecord {
  readonly eventName?: string | undefined;
  readonly spanContext?: SpanContext | undefined;
  readonly attributes: Attributes;
  readonly hrTime: HrTime;
}

/**
 * A `LogRecordProcessor` that copies every log-based event onto the span it was emitted in, following the
 * specification's rules: only records with a non-empty event name, only when the context's span is
 * recording and is the record's own span (same trace and span id). Records are never changed or held; it
 * never throws. `startTelemetry({ eventBridge: true })` installs it; add it to a LoggerProvider of your own
 * the same way.
 *
 * @example
 * ```ts
 * import { LoggerProvider } from '@opentelemetry/sdk-logs';
 * import { EventToSpanEventProcessor } from 'toolhooks/node';
 *
 * const loggerProvider = new LoggerProvider({ processors: [new EventToSpanEventProcessor(), batchProcessor] });
 * ```
 */
export class EventToSpanEventProcessor {
  readonly #failures = new FailureCounter('the log record is exported as it was');

  /** Adds the record to its span as a span event when the rules above allow. */
  onEmit(logRecord: BridgedLogRecord, context?: Context): void {
    try {
      const name = logRecord.eventName;
      if (name === undefined || name === '' || context === undefined) return;
      const span = trace.getSpan(context);
      if (span === undefined || !span.isRecording()) return;
      const own = logRecord.spanContext;
      const current = span.spanContext();
      if (own === undefined || own.spanId !== current.spanId || own.traceId !== current.traceId) return;
      span.addEvent(name, logRecord.attributes, logRecord.hrTime);
    } catch (error) {
      this.#failures.report('EventToSpanEventProcessor could not add a span event', error);
    }
  }

  /** Nothing is held: resolves at once. */
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  /** Nothing to release: resolves at once. */
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
