/**
 * Undoes every global an OpenTelemetry setup registers, so the next test starts from the bare API.
 */
import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';

/** Unregisters the global tracer, meter and logger providers, context manager, propagator and diag logger. */
export function resetOtelGlobals(): void {
  trace.disable();
  metrics.disable();
  logs.disable();
  context.disable();
  propagation.disable();
  diag.disable();
}
