/**
 * The Prometheus pull endpoint of startTelemetry(): created at once (it is a metric reader the SDK needs
 * at start), bound in the background, with the outcome of the bind as `ready`.
 * @internal
 */
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { report } from '../telemetry/warn-once.js';

/** The endpoint and the promise of its bind. */
export interface PrometheusEndpoint {
  readonly exporter: PrometheusExporter;
  /** Resolves once the port listens; rejects with an error naming the port (also reported by `diag.error`). */
  readonly ready: Promise<void>;
}

/**
 * Starts serving `http://{host}:{port}/metrics`. A port in use (or any other bind failure) rejects `ready`
 * with an error that names the port and the fix, and is said once through `diag.error`.
 *
 * @example
 * ```ts
 * const { exporter, ready } = servePrometheus(9464, '127.0.0.1');
 * await ready; // Error: startTelemetry: options.prometheus.port 9464 is already in use on 127.0.0.1; ...
 * ```
 */
export function servePrometheus(port: number, host: string): PrometheusEndpoint {
  const exporter = new PrometheusExporter({ port, host, preventServerStart: true });
  const ready = exporter.startServer().catch((error: unknown) => {
    const failure = bindError(port, host, error);
    report('error', failure.message);
    throw failure;
  });
  return { exporter, ready };
}

function bindError(port: number, host: string, error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') {
    return new Error(`startTelemetry: options.prometheus.port ${port} is already in use on ${host}; choose another port`, { cause: error });
  }
  return new Error(
    `startTelemetry: cannot serve Prometheus metrics on options.prometheus ${JSON.stringify({ host, port })}: ${String(code ?? error)}`,
    { cause: error },
  );
}
