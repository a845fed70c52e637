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
 * Starts an INTERNAL span, recording or not; undefined only when the tracer throws. Never throws.
 * A span that does not record (sampled out) is still returned: made active, it passes its sampling
 * decision on to the spans started under it.
 */
export function startSpanSafely(tracer: Tracer, name: string, attributes: Attributes): Span | undefined {
  try {
    return tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes });
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
