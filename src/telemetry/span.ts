/**
 * The one guarded way toolhooks touches a tracer or a span: the call span, the phase spans, the
 * execute spans and every adapter's spans (which are call spans) go through these functions, so a
 * tracer or span method that throws is reported (`reportTelemetryFailure`) and never reaches a caller —
 * not through the flows, and not through `runBefore` / `runAfter` / `runError`. The adapters' look-ups of an
 * `execute_tool` span to record on read the active span through `recordingActiveSpan`.
 * @internal
 */
import type { Attributes, Context, Link, Span, SpanContext, TimeInput, Tracer } from '@opentelemetry/api';
import { INVALID_TRACEID, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { reportTelemetryFailure } from './failures.js';
import { sdkSpanNameAndAttributes } from './otel-private.js';

/**
 * Starts an INTERNAL span, recording or not; undefined only when the tracer throws. Never throws.
 * A span that does not record (sampled out) is still returned: made active, it passes its sampling
 * decision on to the spans started under it.
 */
export function startSpan(tracer: Tracer, name: string, attributes: Attributes, parent?: Context, links?: Link[]): Span | undefined {
  try {
    return tracer.startSpan(name, links === undefined ? { kind: SpanKind.INTERNAL, attributes } : { kind: SpanKind.INTERNAL, attributes, links }, parent);
  } catch (error) {
    reportTelemetryFailure('startSpan', error);
    return undefined;
  }
}

/** Whether the span records; false when it throws (it is then treated as not recording). Never throws. */
export function isRecording(span: Span): boolean {
  try {
    return span.isRecording() === true;
  } catch (error) {
    reportTelemetryFailure('span.isRecording', error);
    return false;
  }
}

/**
 * Whether the span has a real trace id: false for the API's no-op span (no SDK, all-zero trace id),
 * and false when `spanContext()` throws. Never throws.
 */
export function hasTraceId(span: Span): boolean {
  try {
    return span.spanContext().traceId !== INVALID_TRACEID;
  } catch (error) {
    reportTelemetryFailure('span.spanContext', error);
    return false;
  }
}

/**
 * Whether the context's span is one the app's sampler dropped: a valid span context without the sampled
 * flag. Only the flag decides, never `isRecording()`: a sampled remote parent (a server continuing its
 * caller's trace after `propagation.extract`, a queue consumer) does not record locally, and neither does a
 * request span that already ended — both are sampled, and the call is traced under them. Never throws.
 */
export function isDroppedSpanIn(parent: Context): boolean {
  try {
    const spanContext = trace.getSpan(parent)?.spanContext();
    return spanContext !== undefined && spanContext.traceId !== INVALID_TRACEID && (spanContext.traceFlags & TraceFlags.SAMPLED) === 0;
  } catch {
    return false;
  }
}

/** The active span's context, when there is one; undefined when reading it throws. Never throws. */
export function activeSpanContext(): SpanContext | undefined {
  try {
    return trace.getActiveSpan()?.spanContext();
  } catch (error) {
    reportTelemetryFailure('span.spanContext', error);
    return undefined;
  }
}

/**
 * What `recordingActiveSpan` asks of a span: given the name it was started with and its attributes so far
 * (each undefined when the span does not say: not an SDK span), and the caller's `a` and `b`, whether it is
 * the span sought. May throw: it runs inside the guard.
 */
type ActiveSpanTest<A, B> = (name: string | undefined, attributes: Readonly<Record<string, unknown>> | undefined, a: A, b: B) => boolean;

/**
 * The active span when it records and `test(name, attributes, a, b)` passes, else undefined. With
 * `unwrap`, the span it gives for the active one (when it gives one) is read instead. An ended span does
 * not record (the API's own answer), so only its name and attributes need the SDK's private state. A
 * failure anywhere (the context manager, `isRecording`, a hostile getter, the test) is reported under
 * `where` and gives undefined; the test gets its arguments as `a` and `b`, so a call makes no closure.
 * Never throws.
 *
 * @example
 * ```ts
 * const isToolSpan = (name: string | undefined, _attributes: unknown, tool: string): boolean => name === `execute_tool ${tool}`;
 * const span = recordingActiveSpan('framework execute_tool span', isToolSpan, 'search', undefined);
 * ```
 */
export function recordingActiveSpan<A, B>(where: string, test: ActiveSpanTest<A, B>, a: A, b: B, unwrap?: (active: Span) => Span | undefined): Span | undefined {
  try {
    const active = trace.getActiveSpan();
    if (active === undefined) return undefined;
    const span = unwrap === undefined ? active : (unwrap(active) ?? active);
    if (!span.isRecording()) return undefined;
    const { name, attributes } = sdkSpanNameAndAttributes(span);
    return test(name, attributes, a, b) ? span : undefined;
  } catch (error) {
    reportTelemetryFailure(where, error);
    return undefined;
  }
}

/**
 * Adds an event to a span, its attributes built by `build(a, b)` inside the guard (no closure per
 * event), at `time` when given (an event written later than it happened); a failure to build or add it
 * is reported, never propagated.
 */
export function addSpanEvent<A, B>(span: Span, name: string, build: (a: A, b: B) => Attributes, a: A, b: B, time?: TimeInput): void {
  try {
    span.addEvent(name, build(a, b), time);
  } catch (error) {
    reportTelemetryFailure('addEvent', error);
  }
}

/** Sets attributes and, with `errorMessage`, status ERROR; `where` names the step in a failure report. Never throws. */
export function setSpanAttributes(span: Span, where: string, attributes: Attributes, errorMessage?: string): void {
  try {
    span.setAttributes(attributes);
    if (errorMessage !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage });
  } catch (error) {
    reportTelemetryFailure(where, error);
  }
}

/** Adds a link to a span already started (a framework's); spans of an API without `addLink` get none. Never throws. */
export function addSpanLink(span: Span, link: Link): void {
  try {
    if (typeof span.addLink === 'function') span.addLink(link);
  } catch (error) {
    reportTelemetryFailure('span.addLink', error);
  }
}

/** Ends a span; a span that throws is reported, never propagated. */
export function endSpan(span: Span): void {
  try {
    span.end();
  } catch (error) {
    reportTelemetryFailure('span.end', error);
  }
}
