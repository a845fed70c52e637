/**
 * Where telemetry failures go: a tracer, span or exporter that throws is reported through OTel's
 * `diag` — once, then counted (see warn-once.ts) — and never reaches the tool path. Also the guarded span start and end
 * that the phase and call spans share.
 * @internal
 */
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { SpanKind } from '@opentelemetry/api';
import { FailureCounter } from './warn-once.js';

const failures = new FailureCounter('the tool call is unaffected');

/** Reports a telemetry failure: the first through `diag.warn`, later ones with a running count. */
export function reportTelemetryFailure(where: string, error: unknown): void {
  failures.report(`telemetry failed in ${where}`, error);
}

/** How many telemetry failures this process has seen. */
export function telemetryFailureCount(): number {
  return failures.count;
}

/**
 * Starts an INTERNAL span, or returns undefined when the tracer throws or the span would not record
 * (no SDK, or sampled out): callers then skip every attribute and event. Never throws.
 */
export function startRecordingSpan(tracer: Tracer, name: string, attributes: Attributes): Span | undefined {
  try {
    const span = tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes });
    if (span.isRecording()) return span;
    span.end();
    return undefined;
  } catch (error) {
    reportTelemetryFailure('startSpan', error);
    return undefined;
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
