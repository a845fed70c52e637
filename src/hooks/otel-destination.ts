/**
 * A pino destination that forwards every record to the OpenTelemetry Logs API, so that records written
 * through pino also reach the registered LoggerProvider (and its OTLP exporter).
 */
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import type { DestinationStream } from 'pino';
import { currentLoggerProvider } from '../telemetry/logger-provider.js';
import type { EmittedLogRecord, EmittingLogger, EmittingLoggerProvider } from '../telemetry/logger-provider.js';
import { readOptions, string } from '../internal/validate.js';
import { INSTRUMENTATION_NAME, LOG_SPAN_ID, LOG_TRACE_FLAGS, LOG_TRACE_ID } from '../telemetry/semconv.js';
import { FollowGlobal } from '../telemetry/follow-global.js';
import { FailureCounter } from '../telemetry/warn-once.js';
import { VERSION } from '../version.js';
import type { OTelDestinationOptions } from './types.js';

/**
 * pino's default numeric levels, mapped to OTel severity numbers (the Logs data model's TRACE 1, DEBUG 5,
 * INFO 9, WARN 13, ERROR 17, FATAL 21). Others are scaled onto the same 1..24 range.
 */
const SEVERITY_BY_LEVEL: ReadonlyMap<number, readonly [number, string]> = new Map([
  [10, [1, 'trace']],
  [20, [5, 'debug']],
  [30, [9, 'info']],
  [40, [13, 'warn']],
  [50, [17, 'error']],
  [60, [21, 'fatal']],
]);

/**
 * A pino destination that sends each record to the app's global OTel LoggerProvider — registered through
 * `@opentelemetry/api` 1.10's `logs` (SDK 3) or through `@opentelemetry/api-logs` (SDK 2) —
 * with the trace context the record carries (`trace_id`, `span_id`, `trace_flags`, else the context active
 * at write time). Add it to a `pino.multistream` next to your own destination. {@link LoggingHook}'s default
 * logger already includes it; use this when you give LoggingHook a logger of your own and want its records
 * in OTLP too. Until a LoggerProvider is registered, records are dropped at no cost beyond parsing.
 *
 * Mapping: `msg` → body; `level` → severity; `time` → timestamp; `err` → `exception.*` attributes;
 * `trace_id`/`span_id`/`trace_flags` → the record's span context; `pid` and `hostname` are left out (they
 * are resource attributes in OTel); every other field → an attribute of the same name.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * import { LoggingHook, otelDestination } from 'toolhooks/hooks';
 *
 * const logger = pino({}, pino.multistream([{ stream: process.stdout }, { stream: otelDestination() }]));
 * const hook = new LoggingHook({ logger });
 * ```
 */
export function otelDestination(options: OTelDestinationOptions = {}): DestinationStream {
  const { loggerName } = readOptions(options, 'otelDestination(options)', 'otelDestination', { loggerName: string });
  return new OTelDestination(loggerName ?? INSTRUMENTATION_NAME);
}

class OTelDestination implements DestinationStream {
  // getLogger() may be costly, so the logger is kept until the global provider changes.
  readonly #logger: FollowGlobal<EmittingLoggerProvider, EmittingLogger>;
  readonly #failures = new FailureCounter('the record still went to the other destinations');

  constructor(name: string) {
    this.#logger = new FollowGlobal(
      currentLoggerProvider,
      (provider) => provider.getLogger(name, VERSION),
    );
  }

  write(line: string): void {
    try {
      const record: unknown = JSON.parse(line);
      if (record === null || typeof record !== 'object' || Array.isArray(record)) return;
      this.#logger.get().emit(toLogRecord(record as Record<string, unknown>));
    } catch (error) {
      // A logging destination must never throw into the code that logs.
      this.#failures.report('could not forward a pino record to OpenTelemetry', error);
    }
  }
}

function toLogRecord(fields: Record<string, unknown>): EmittedLogRecord {
  const {
    level,
    time,
    msg,
    err,
    pid: _pid,
    hostname: _hostname,
    [LOG_TRACE_ID]: traceId,
    [LOG_SPAN_ID]: spanId,
    [LOG_TRACE_FLAGS]: traceFlags,
    ...attributes
  } = fields;
  const record: EmittedLogRecord = {
    timestamp: toTimestamp(time),
    attributes,
    context: recordContext(traceId, spanId, traceFlags),
  };
  if (typeof level === 'number') {
    const [severityNumber, severityText] = severityOf(level);
    record.severityNumber = severityNumber;
    record.severityText = severityText;
  }
  if (typeof msg === 'string') record.body = msg;
  if (err !== undefined && err !== null) record.exception = toException(err);
  return record;
}

function severityOf(level: number): readonly [number, string] {
  const known = SEVERITY_BY_LEVEL.get(level);
  if (known !== undefined) return known;
  // Custom levels: place them on OTel's 1..24 scale the way pino's 10..60 range maps onto it.
  const scaled = Math.min(24, Math.max(1, Math.round(((level - 10) / 50) * 20) + 1));
  return [scaled, String(level)];
}

function toTimestamp(time: unknown): number {
  if (typeof time === 'number' && Number.isFinite(time)) return time;
  if (typeof time === 'string') {
    const parsed = Date.parse(time);
    if (Number.isFinite(parsed)) return parsed;
  }
  return Date.now();
}

/** The span context the record was written in, so that it links to its span even off the logging thread. */
function recordContext(traceId: unknown, spanId: unknown, flags: unknown): Context {
  const active = context.active();
  if (typeof traceId !== 'string' || typeof spanId !== 'string') return active;
  const traceFlags = typeof flags === 'string' ? Number.parseInt(flags, 16) : typeof flags === 'number' ? flags : 0;
  const spanContext = { traceId, spanId, traceFlags: Number.isInteger(traceFlags) ? traceFlags : 0, isRemote: false };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(active, spanContext) : active;
}

/** pino's err serializer writes `type`; the OTel SDK reads `name` (or `code`) for `exception.type`. */
function toException(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return String(err);
  const e = err as Record<string, unknown>;
  const exception: { name?: string; message?: string; stack?: string } = {};
  const name = typeof e.type === 'string' ? e.type : e.name;
  if (typeof name === 'string') exception.name = name;
  if (typeof e.message === 'string') exception.message = e.message;
  if (typeof e.stack === 'string') exception.stack = e.stack;
  return exception;
}
