/**
 * toolhooks/hooks — built-in observer hooks: {@link MetricsHook} records the metrics listed in docs/telemetry.md and
 * {@link LoggingHook} writes structured pino records linked to their spans (and to OTLP through
 * {@link otelDestination}).
 *
 * @example
 * ```ts
 * import { HookRunner } from 'toolhooks';
 * import { LoggingHook, MetricsHook } from 'toolhooks/hooks';
 *
 * const hooks = new HookRunner([policyHook, new MetricsHook(), new LoggingHook()]);
 * ```
 * @packageDocumentation
 */
export { MetricsHook } from './metrics-hook.js';
export { LoggingHook } from './logging-hook.js';
export { otelDestination } from './otel-destination.js';
export type { LoggingHookOptions, MetricsHookOptions, OTelDestinationOptions } from './types.js';
