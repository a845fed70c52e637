/**
 * toolhooks/node — {@link startTelemetry}, the one-call OpenTelemetry SDK setup that sends toolhooks'
 * traces, metrics and logs over OTLP/HTTP (and optionally serves metrics to Prometheus).
 *
 * @example
 * ```ts
 * import { startTelemetry } from 'toolhooks/node';
 *
 * const telemetry = await startTelemetry({ serviceName: 'my-agent' }); // OTLP to http://localhost:4318
 * // ... run the agent ...
 * await telemetry.shutdown();
 * ```
 * @packageDocumentation
 */
export { startTelemetry } from './start-telemetry.js';
export type { StartTelemetryOptions, TelemetryHandle, TelemetryStatus } from './start-telemetry.js';
export type { OtlpProtocol } from './config.js';
export { TreeSpanExporter } from './tree-exporter.js';
export type { TreeSpanExporterOptions } from './tree-exporter.js';
