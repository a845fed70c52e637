/**
 * Where telemetry failures go: a tracer, span or exporter that throws is reported through OTel's
 * `diag` — once, then counted — and never reaches the tool path.
 * @internal
 */
import { diag } from '@opentelemetry/api';

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
