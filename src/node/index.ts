/**
 * toolhooks/node — {@link startTelemetry}, the one-call OpenTelemetry SDK setup that sends toolhooks'
 * traces, metrics and logs over OTLP/HTTP (and optionally serves metrics to Prometheus),
 * {@link TreeSpanExporter}, which prints each trace as a tree, and {@link terminalApprover}, which asks a
 * person at the terminal before a call runs.
 *
 * @example
 * ```ts
 * import { startTelemetry } from 'toolhooks/node';
 *
 * const telemetry = startTelemetry({ serviceName: 'my-agent' }); // OTLP to http://localhost:4318
 * // ... run the agent ...
 * await telemetry.shutdown();
 * ```
 * @packageDocumentation
 */
// First: an unsupported Node or API fails here with one clear error, before any SDK code runs.
import './platform.js';
export { startTelemetry } from './start-telemetry.js';
export { TreeSpanExporter } from './tree-exporter.js';
export { EventToSpanEventProcessor } from './event-bridge.js';
export { terminalApprover } from './terminal-approver.js';
export type {
  OtlpProtocol,
  StartTelemetryOptions,
  TelemetryHandle,
  TelemetryStatus,
  TerminalApproverOptions,
  TreeSpanExporterOptions,
} from './types.js';
