/**
 * The options of startTelemetry(), and their checking: JavaScript callers get the same strictness as the
 * types give TypeScript ones, with errors naming the option and its value.
 */
import { resolve } from 'node:path';
import { anything, duration, readOptions } from '../internal/validate.js';
import { checkProtocol, invalid, isHttpUrl, tracesFileFromEnv } from './environment.js';
import type { OtlpProtocol, StartTelemetryOptions } from './types.js';

/** Default `shutdownTimeoutMillis`. */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 2000;

/** Options as checked: the console mode resolved, the shutdown deadline defaulted. */
export interface CheckedOptions {
  serviceName?: string;
  endpoint?: string;
  protocol?: OtlpProtocol;
  headers?: Record<string, string>;
  console: false | true | 'tree';
  /** The traces file, as an absolute path. */
  file?: string;
  prometheus?: { port: number; host?: string };
  metricExportIntervalMillis?: number;
  shutdownTimeoutMillis: number;
  eventBridge?: boolean;
}

/**
 * Every option, for the shared option helper's unknown-name check; each value is checked below.
 */
const OPTION_CHECKS = {
  serviceName: anything,
  endpoint: anything,
  protocol: anything,
  headers: anything,
  console: anything,
  file: anything,
  prometheus: anything,
  metricExportIntervalMillis: anything,
  shutdownTimeoutMillis: anything,
  eventBridge: anything,
} as const;

/** A duration a timer can hold (the positive-number check comes first). */
const TIMER = duration(0);

/** Validates options given by JavaScript callers as strictly as the types do for TypeScript ones. */
export function checkOptions(options: StartTelemetryOptions): CheckedOptions {
  if (options === null || typeof options !== 'object') invalid('options', options, 'an object');
  // Each option read once, for its check and its use: a getter cannot pass the check and then change.
  const given = readOptions(options, 'startTelemetry(options)', 'startTelemetry', OPTION_CHECKS) as StartTelemetryOptions;
  const checked: CheckedOptions = { console: false, shutdownTimeoutMillis: DEFAULT_SHUTDOWN_TIMEOUT_MS };
  const { serviceName, endpoint, protocol, headers, console, file, prometheus, metricExportIntervalMillis, shutdownTimeoutMillis, eventBridge } = given;
  if (eventBridge !== undefined) {
    if (typeof eventBridge !== 'boolean') invalid('options.eventBridge', eventBridge, 'true or false');
    checked.eventBridge = eventBridge;
  }
  if (serviceName !== undefined) {
    if (typeof serviceName !== 'string' || serviceName.trim() === '') invalid('options.serviceName', serviceName, 'a non-empty string');
    checked.serviceName = serviceName;
  }
  if (endpoint !== undefined) {
    if (typeof endpoint !== 'string' || !isHttpUrl(endpoint)) invalid('options.endpoint', endpoint, 'an http(s) URL such as "http://localhost:4318"');
    checked.endpoint = endpoint;
  }
  if (protocol !== undefined) checked.protocol = checkProtocol('options.protocol', protocol);
  if (headers !== undefined) {
    if (headers === null || typeof headers !== 'object') invalid('options.headers', headers, 'an object of string header values');
    // Named header by header: the message quotes only the value that is wrong, never the others (a token).
    for (const [name, value] of Object.entries(headers)) if (typeof value !== 'string') invalid(`options.headers[${JSON.stringify(name)}]`, value, 'a string');
    checked.headers = { ...headers };
  }
  if (console !== undefined) {
    if (console !== true && console !== false && console !== 'tree') invalid('options.console', console, 'true, false or "tree"');
    checked.console = console;
  }
  const tracesFile = file ?? tracesFileFromEnv();
  if (tracesFile !== undefined) {
    const name = file === undefined ? 'TOOLHOOKS_TRACES_FILE' : 'options.file';
    if (typeof tracesFile !== 'string' || tracesFile.trim() === '' || tracesFile.includes('\0')) invalid(name, tracesFile, 'a file path such as "traces.jsonl"');
    checked.file = resolve(tracesFile);
  }
  if (prometheus !== undefined) {
    if (prometheus === null || typeof prometheus !== 'object') invalid('options.prometheus', prometheus, 'an object { port, host? }');
    const { port, host } = readOptions(prometheus, 'startTelemetry: prometheus', 'startTelemetry: prometheus', { port: anything, host: anything });
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) {
      invalid('options.prometheus.port', port, 'an integer from 1 to 65535');
    }
    if (host !== undefined && (typeof host !== 'string' || host === '')) invalid('options.prometheus.host', host, 'a host name or IP address');
    checked.prometheus = host === undefined ? { port } : { port, host };
  }
  if (metricExportIntervalMillis !== undefined) {
    if (typeof metricExportIntervalMillis !== 'number' || !Number.isFinite(metricExportIntervalMillis) || metricExportIntervalMillis <= 0) {
      invalid('options.metricExportIntervalMillis', metricExportIntervalMillis, 'a positive number of milliseconds');
    }
    checked.metricExportIntervalMillis = TIMER(metricExportIntervalMillis, 'startTelemetry: options.metricExportIntervalMillis');
  }
  if (shutdownTimeoutMillis !== undefined) {
    if (typeof shutdownTimeoutMillis !== 'number' || !Number.isFinite(shutdownTimeoutMillis) || shutdownTimeoutMillis <= 0) {
      invalid('options.shutdownTimeoutMillis', shutdownTimeoutMillis, 'a positive number of milliseconds');
    }
    checked.shutdownTimeoutMillis = TIMER(shutdownTimeoutMillis, 'startTelemetry: options.shutdownTimeoutMillis');
  }
  return checked;
}

