/**
 * Undoes every global an OpenTelemetry setup registers, so the next test starts from the bare API.
 */
import * as api from '@opentelemetry/api';
import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';

/** Where `@opentelemetry/api-logs` (the SDK 2 line's Logs API) keeps its global LoggerProvider. */
const API_LOGS_GLOBAL = Symbol.for('io.opentelemetry.js.api.logs');

/** Unregisters the global tracer, meter and logger providers, context manager, propagator and diag logger. */
export function resetOtelGlobals(): void {
  trace.disable();
  metrics.disable();
  // The Logs API of `@opentelemetry/api` 1.10 (absent on 1.9), and `@opentelemetry/api-logs`' global slot.
  ((api as unknown as Record<string, unknown>)['logs'] as { disable(): void } | undefined)?.disable();
  delete (globalThis as Record<symbol, unknown>)[API_LOGS_GLOBAL];
  context.disable();
  propagation.disable();
  diag.disable();
}
