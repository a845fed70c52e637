/**
 * Where telemetry failures go: a tracer, span or exporter that throws is reported through OTel's
 * `diag` — once, then counted (see warn-once.ts) — and never reaches the tool path. The guarded span
 * operations that report here are in span.ts.
 * @internal
 */
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
