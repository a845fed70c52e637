/**
 * The version of this package. It is the version reported by the `toolhooks` tracer and meter.
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * import { VERSION } from 'toolhooks';
 * const tracer = trace.getTracer('toolhooks', VERSION);
 * ```
 */
export const VERSION = '0.1.0';
