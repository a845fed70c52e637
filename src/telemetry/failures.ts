/**
 * Where telemetry failures go: a tracer, span or exporter that throws is reported through OTel's
 * `diag` — once, then counted — and never reaches the tool path. Also the guarded span start and end
 * that the phase and call spans share.
 * @internal
 */
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { SpanKind, diag } from '@opentelemetry/api';

let failures = 0;

/** Reports a telemetry failure: the first through `diag.warn`, later ones with a running count. */
export function reportTelemetryFailure(where: string, error: unknown): void {
  failures += 1;
  try {
    if (failures === 1 || Number.isInteger(Math.log10(failures))) {
      diag.warn(`toolhooks: telemetry failed in ${where} (${failures} failure(s) so far); the tool call is unaffected`, error);
    }
  } catch {
    // diag itself failed: nothing more can be done safely
  }
}

/** How many telemetry failures this process has seen. */
export function telemetryFailureCount(): number {
  return failures;
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
