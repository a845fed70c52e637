/**
 * The public shapes of `toolhooks/node`: the options of {@link startTelemetry}, {@link terminalApprover} and
 * {@link TreeSpanExporter}, and the handle startTelemetry() returns. See docs/telemetry.md.
 */
import type { Readable, Writable } from 'node:stream';

/**
 * Options of {@link startTelemetry}. Every one is optional; the standard `OTEL_*` variables fill the gaps.
 *
 * @example
 * ```ts
 * startTelemetry({ serviceName: 'my-agent', endpoint: 'http://otel-collector:4318', prometheus: { port: 9464 } });
 * ```
 */
export interface StartTelemetryOptions {
  /** `service.name` of everything exported. Default: `OTEL_SERVICE_NAME`, else `unknown_service:node`. */
  readonly serviceName?: string;
  /**
   * Base URL of an OTLP/HTTP receiver, e.g. `http://localhost:4318`; `/v1/traces`, `/v1/metrics` and
   * `/v1/logs` are appended. Overrides `OTEL_EXPORTER_OTLP_ENDPOINT` and the per-signal variables.
   * Default: those variables, else `http://localhost:4318`.
   */
  readonly endpoint?: string;
  /** OTLP encoding. Overrides `OTEL_EXPORTER_OTLP_PROTOCOL` (and the per-signal ones). Default `http/protobuf`. */
  readonly protocol?: OtlpProtocol;
  /** Extra HTTP headers on every export (e.g. an API key), merged over `OTEL_EXPORTER_OTLP_HEADERS`. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Print spans to stdout instead of exporting them: `true` prints each span as an object, `'tree'` prints
   * each trace as an indented tree with its decisions (see `TreeSpanExporter`). Control characters
   * in names, reasons and messages are printed escaped. Metrics and logs are then exported only when an
   * endpoint is configured (`endpoint` or an `OTEL_EXPORTER_OTLP_*ENDPOINT` variable), so a laptop without
   * a collector gets no export errors.
   */
  readonly console?: boolean | 'tree';
  /**
   * Append traces to this file as OTLP/JSON lines (one `ExportTraceServiceRequest` per line), the format
   * the Collector's `otlpjsonfile` receiver and `toolhooks replay` read; relative to the current directory.
   * Overrides `TOOLHOOKS_TRACES_FILE`. Traces then go to the file (and to the console with `console`), and
   * over OTLP only when an endpoint is configured; so do metrics and logs. A file that cannot be written
   * is said once, naming the path, and tool calls go on.
   */
  readonly file?: string;
  /**
   * Also serve metrics for Prometheus to scrape at `http://{host}:{port}/metrics`. `host` defaults to
   * `127.0.0.1`: set `'0.0.0.0'` deliberately to expose it beyond the machine.
   */
  readonly prometheus?: { readonly port: number; readonly host?: string };
  /** How often metrics are pushed over OTLP. Default: `OTEL_METRIC_EXPORT_INTERVAL`, else 60 000 ms. */
  readonly metricExportIntervalMillis?: number;
  /**
   * How long `shutdown()` may take to deliver what is still buffered before it gives up, drops the rest
   * and says so on one line. Default 2000 ms: a collector that is down then costs 2 s at exit, not the
   * exporters' full retry timeout (`OTEL_EXPORTER_OTLP_TIMEOUT`, 10 s).
   */
  readonly shutdownTimeoutMillis?: number;
  /**
   * Install the event-to-span-event bridge (`EventToSpanEventProcessor`) in the LoggerProvider it
   * starts, so that decision records written as log events (the runner's `decisionRecords: 'log-events'`)
   * also show as span events on their phase spans. Default `false`.
   */
  readonly eventBridge?: boolean;
}

/**
 * The OTLP/HTTP encodings startTelemetry can export with.
 *
 * @example
 * ```ts
 * await startTelemetry({ protocol: 'http/json' });
 * ```
 */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

/**
 * What became of a {@link startTelemetry} call:
 * - `started`: it registered its own providers and exports;
 * - `existing`: a tracer provider was already registered (the app runs its own SDK), so it registered
 *   nothing and toolhooks' spans, metrics and logs go through the app's providers;
 * - `disabled`: `OTEL_SDK_DISABLED=true`, nothing was started.
 *
 * @example
 * ```ts
 * const telemetry = startTelemetry();
 * if (telemetry.status === 'existing') console.log('using the app\'s OpenTelemetry SDK');
 * ```
 */
export type TelemetryStatus = 'started' | 'existing' | 'disabled';

/**
 * Control over what {@link startTelemetry} started.
 *
 * @example
 * ```ts
 * const telemetry = startTelemetry({ prometheus: { port: 9464 } });
 * await telemetry.ready; // optional: rejects when the Prometheus port cannot be bound
 * process.once('beforeExit', () => void telemetry.shutdown());
 * ```
 */
export interface TelemetryHandle {
  readonly status: TelemetryStatus;
  /**
   * Resolves when every endpoint startTelemetry() opened listens (today: the Prometheus endpoint; at once
   * without one). Rejects, with an error naming the port, when one cannot listen, and says so once through
   * `diag.error`. Awaiting it is optional: a rejection nobody awaits does not crash the process.
   */
  readonly ready: Promise<void>;
  /** Exports everything recorded so far. Never rejects: export failures are reported through `diag`. */
  forceFlush(): Promise<void>;
  /**
   * Waits for tool calls still running (half of `shutdownTimeoutMillis` at most; what ends meanwhile is
   * delivered, spans and log records), then flushes and stops every signal (waiting until console output
   * has left the process), closes the Prometheus endpoint and unregisters the global providers it
   * registered (so `startTelemetry()` may be called again). Gives up after `shutdownTimeoutMillis` (2 s by
   * default): what was not delivered by then is dropped, and what was dropped and why — spans of calls
   * still running included — is said once, on one line (a process warning with code
   * `TOOLHOOKS_TELEMETRY_DROPPED`, or `diag.warn` when a diag logger is registered). Once it resolves,
   * nothing of toolhooks keeps the process alive: exports still trying a dead collector are given up.
   * Idempotent: later calls return the same promise. Never rejects. With status `existing` or `disabled`
   * it does nothing: the app owns its SDK.
   */
  shutdown(): Promise<void>;
}

/**
 * Options of {@link terminalApprover}.
 *
 * @example
 * ```ts
 * terminalApprover({ timeoutMs: 60_000 }); // process.stdin / process.stdout, a minute per request
 * ```
 */
export interface TerminalApproverOptions {
  /** Where answers are read. Default `process.stdin`. */
  readonly input?: Readable;
  /** Where requests are shown. Default `process.stdout`. */
  readonly output?: Writable;
  /** How long one request waits for an answer once shown; then it is denied. Default: no limit of its own. */
  readonly timeoutMs?: number;
}

/**
 * Options of a {@link TreeSpanExporter}.
 *
 * @example
 * ```ts
 * new TreeSpanExporter({ write: (text) => process.stderr.write(text), color: false });
 * ```
 */
export interface TreeSpanExporterOptions {
  /** Where the text goes. Default: `process.stdout`. */
  write?: (text: string) => void;
  /** Colour the output with ANSI codes. Default: when writing to a TTY stdout. */
  color?: boolean;
}
