/**
 * The environment of startTelemetry(): checks the OTLP environment variables, and decides per signal which
 * protocol and endpoint to use. Everything the exporters can read from the environment themselves
 * (endpoints, headers, timeouts, compression) is left to them; only what decides which exporter to build,
 * and what must fail loudly when wrong, is read here.
 * @internal
 */
import { quoteValue } from '../internal/describe.js';
import { getNumberFromEnv, getStringFromEnv } from './sdk-parts.js';
import type { OtlpProtocol } from './types.js';

type Signal = 'traces' | 'metrics' | 'logs';

const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json'];
const DEFAULT_PROTOCOL: OtlpProtocol = 'http/protobuf';
const DEFAULT_METRIC_INTERVAL_MS = 60_000;
const DEFAULT_METRIC_TIMEOUT_MS = 30_000;

/** What an OTLP exporter for one signal is built with. */
export interface SignalPlan {
  readonly protocol: OtlpProtocol;
  /** The full URL, when the `endpoint` option sets it; otherwise the exporter reads the environment. */
  readonly url?: string;
  /** Whether an endpoint was configured at all (option or environment), rather than the default. */
  readonly endpointConfigured: boolean;
  /** The URL the exporter sends to, as it will resolve it: for messages. */
  readonly target: string;
}

/** The OTLP/HTTP receiver the exporters send to when nothing is configured. */
const DEFAULT_ENDPOINT = 'http://localhost:4318';

/** Throws an error naming the option and its value. */
export function invalid(option: string, value: unknown, expected: string): never {
  throw new Error(`startTelemetry: ${option} must be ${expected}, got ${quoteValue(value)}`);
}

/** Whether `value` is an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** Checks the `endpoint` / `protocol` choice and the environment for one signal. */
export function planSignal(signal: Signal, endpoint: string | undefined, protocol: OtlpProtocol | undefined): SignalPlan {
  const upper = signal.toUpperCase();
  const signalEndpointVar = `OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`;
  const signalEndpoint = getStringFromEnv(signalEndpointVar);
  const baseEndpoint = getStringFromEnv('OTEL_EXPORTER_OTLP_ENDPOINT');
  // Checked even when the option overrides them: a broken deployment setting should not go unnoticed.
  if (signalEndpoint !== undefined && !isHttpUrl(signalEndpoint)) invalid(signalEndpointVar, signalEndpoint, 'an http(s) URL');
  if (baseEndpoint !== undefined && !isHttpUrl(baseEndpoint)) invalid('OTEL_EXPORTER_OTLP_ENDPOINT', baseEndpoint, 'an http(s) URL');

  let chosen = protocol;
  if (chosen === undefined) {
    const signalProtocolVar = `OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`;
    const fromSignal = getStringFromEnv(signalProtocolVar);
    const fromBase = getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL');
    const [variable, value] = fromSignal !== undefined ? [signalProtocolVar, fromSignal] : ['OTEL_EXPORTER_OTLP_PROTOCOL', fromBase];
    if (value !== undefined) chosen = checkProtocol(variable, value);
  }
  const url = endpoint === undefined ? undefined : signalUrl(endpoint, signal);
  const plan: { protocol: OtlpProtocol; url?: string; endpointConfigured: boolean; target: string } = {
    protocol: chosen ?? DEFAULT_PROTOCOL,
    endpointConfigured: endpoint !== undefined || signalEndpoint !== undefined || baseEndpoint !== undefined,
    target: url ?? signalEndpoint ?? signalUrl(baseEndpoint ?? DEFAULT_ENDPOINT, signal),
  };
  if (url !== undefined) plan.url = url;
  return plan;
}

function signalUrl(base: string, signal: Signal): string {
  return `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

/** `TOOLHOOKS_TRACES_FILE`: the file startTelemetry() appends traces to when `options.file` is not given. */
export function tracesFileFromEnv(): string | undefined {
  return getStringFromEnv('TOOLHOOKS_TRACES_FILE');
}

/**
 * Whether the standard `OTEL_{TRACES,METRICS,LOGS}_EXPORTER` variable turns that signal's OTLP export
 * off (`none`), e.g. an app that only serves metrics to Prometheus. Other values are left to OTLP.
 */
export function exporterIsNone(variable: string): boolean {
  return (process.env[variable] ?? '').split(',').some((value) => value.trim().toLowerCase() === 'none');
}

/** Checks a protocol value from an option or a variable. */
export function checkProtocol(name: string, value: unknown): OtlpProtocol {
  if (typeof value === 'string' && PROTOCOLS.includes(value)) return value as OtlpProtocol;
  if (value === 'grpc') {
    throw new Error(
      `startTelemetry: ${name}=grpc is not supported: startTelemetry exports over OTLP/HTTP. ` +
        'Use http/protobuf (port 4318) or http/json, or set up NodeSDK with the gRPC exporters yourself.',
    );
  }
  return invalid(name, value, '"http/protobuf" or "http/json"');
}

/** The metric export interval and timeout: option, else OTEL_METRIC_EXPORT_INTERVAL/_TIMEOUT, else 60 s / 30 s. */
export function metricTiming(intervalOption: number | undefined): { intervalMillis: number; timeoutMillis: number } {
  const intervalMillis = intervalOption ?? positive(getNumberFromEnv('OTEL_METRIC_EXPORT_INTERVAL')) ?? DEFAULT_METRIC_INTERVAL_MS;
  const timeout = positive(getNumberFromEnv('OTEL_METRIC_EXPORT_TIMEOUT')) ?? DEFAULT_METRIC_TIMEOUT_MS;
  // The reader refuses a timeout longer than the interval.
  return { intervalMillis, timeoutMillis: Math.min(timeout, intervalMillis) };
}

/** The OTLP exporters' own default export timeout (retries included), per the OTLP exporter spec. */
const DEFAULT_OTLP_TIMEOUT_MS = 10_000;

/**
 * The timeout to give the OTLP metric exporter so that it gives up (and reports the drop) before the
 * periodic reader does: the reader's timeout is capped at the export interval, so with an interval below
 * the exporter's timeout (10 s by default) a hanging or retrying export would outlive the reader, which
 * then logs a `diag.error` every interval and starts a new export next to the one still pending.
 * Undefined when the exporter's own setting (`OTEL_EXPORTER_OTLP_METRICS_TIMEOUT`, else
 * `OTEL_EXPORTER_OTLP_TIMEOUT`, else 10 s) already fits.
 */
export function metricExporterTimeout(readerTimeoutMillis: number): number | undefined {
  const own =
    positive(getNumberFromEnv('OTEL_EXPORTER_OTLP_METRICS_TIMEOUT')) ??
    positive(getNumberFromEnv('OTEL_EXPORTER_OTLP_TIMEOUT')) ??
    DEFAULT_OTLP_TIMEOUT_MS;
  // The reader's clock starts before the exporter's (collection and serialisation come first), and when the
  // loop is busy both timers can come due in the same turn: keep a margin of 10 %, at least 250 ms (but no
  // more than half the timeout), so the exporter's own timeout settles the export first. 100 ms was lost to
  // event-loop lag on a loaded 2-core machine: the reader then reported its own timeout as an error.
  const margin = Math.min(Math.max(readerTimeoutMillis * 0.1, 250), readerTimeoutMillis / 2);
  const fitting = Math.max(1, Math.floor(readerTimeoutMillis - margin));
  return own > fitting ? fitting : undefined;
}

/** Settings of a batch span or log record processor; absent ones take the SDK defaults. */
interface BatchSettings {
  maxQueueSize?: number;
  maxExportBatchSize?: number;
  scheduledDelayMillis?: number;
  exportTimeoutMillis?: number;
}

/** The SDK's default queue size of both batch processors. */
export const DEFAULT_MAX_QUEUE_SIZE = 2048;

/** Batch log processor settings from OTEL_BLRP_*, which the 0.223 processor does not read itself. */
export function batchLogSettings(): BatchSettings {
  return batchSettings('OTEL_BLRP');
}

/**
 * Batch span processor settings from OTEL_BSP_*, read the way NodeSDK reads them for the processor it
 * would build (startTelemetry builds its own, to bound and count its queue).
 */
export function batchSpanSettings(): BatchSettings {
  return batchSettings('OTEL_BSP');
}

function batchSettings(prefix: 'OTEL_BLRP' | 'OTEL_BSP'): BatchSettings {
  const settings: BatchSettings = {};
  const maxQueueSize = positive(getNumberFromEnv(`${prefix}_MAX_QUEUE_SIZE`));
  const maxExportBatchSize = positive(getNumberFromEnv(`${prefix}_MAX_EXPORT_BATCH_SIZE`));
  const scheduledDelayMillis = positive(getNumberFromEnv(`${prefix}_SCHEDULE_DELAY`));
  const exportTimeoutMillis = positive(getNumberFromEnv(`${prefix}_EXPORT_TIMEOUT`));
  if (maxQueueSize !== undefined) settings.maxQueueSize = maxQueueSize;
  if (maxExportBatchSize !== undefined) settings.maxExportBatchSize = maxExportBatchSize;
  if (scheduledDelayMillis !== undefined) settings.scheduledDelayMillis = scheduledDelayMillis;
  if (exportTimeoutMillis !== undefined) settings.exportTimeoutMillis = exportTimeoutMillis;
  return settings;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}
