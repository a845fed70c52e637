/**
 * Where telemetry failures go: a tracer, span or exporter that throws is reported through OTel's
 * `diag` — once, then counted (see warn-once.ts) — and never reaches the tool path. Also the guarded span start and end
 * that the phase and call spans share.
 * @internal
 */
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
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
 * Starts an INTERNAL span, recording or not; undefined only when the tracer throws. Never throws.
 * A span that does not record (sampled out) is still returned: made active, it passes its sampling
 * decision on to the spans started under it.
 */
export function startSpanSafely(tracer: Tracer, name: string, attributes: Attributes, parent?: Context): Span | undefined {
  try {
    return tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes }, parent);
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
