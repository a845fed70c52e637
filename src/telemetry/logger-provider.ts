/**
 * The LoggerProvider the app registered, wherever its SDK registered it: SDK 3 registers it through the
 * Logs API in `@opentelemetry/api` 1.10 (`logs`), SDK 2 through `@opentelemetry/api-logs`, which keeps its
 * own global. toolhooks reads both, so its records reach the app's provider on either line without
 * depending on `@opentelemetry/api-logs` (docs/installation.md).
 * @internal
 */
import * as api from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { apiGlobalRegistrations, apiLogsGlobalGetter } from './otel-private.js';

/** A log record as both Logs APIs take it (the fields toolhooks sets). */
export interface EmittedLogRecord {
  /** A log-based event's name (both Logs APIs take it: SDK 3, and SDK 2's api-logs from 0.200 on). */
  eventName?: string;
  timestamp?: number;
  severityNumber?: number;
  severityText?: string;
  body?: string;
  attributes?: Record<string, unknown>;
  exception?: unknown;
  context?: Context;
}

/** What toolhooks uses of a Logger, from either Logs API. */
export interface EmittingLogger {
  emit(record: EmittedLogRecord): void;
}

/** What toolhooks uses of a LoggerProvider, from either Logs API. */
export interface EmittingLoggerProvider {
  getLogger(name: string, version?: string): EmittingLogger;
}

/** What toolhooks uses of `@opentelemetry/api` 1.10's `logs`. */
interface LogsApi {
  getLoggerProvider(): EmittingLoggerProvider;
  disable(): void;
}

/** The compatibility version `@opentelemetry/api-logs`' getter answers to (it returns a no-op otherwise). */
const API_LOGS_COMPATIBILITY = 1;

/**
 * `logs` of the `@opentelemetry/api` in use: present from 1.10 on, `undefined` on 1.9. Read from the
 * namespace, never as a named import, which would fail to link on 1.9 before any check could run.
 */
export const API_LOGS: LogsApi | undefined = logsOf(api);

const NOOP_LOGGER: EmittingLogger = { emit: () => undefined };
const NOOP_PROVIDER: EmittingLoggerProvider = { getLogger: () => NOOP_LOGGER };

function logsOf(namespace: object): LogsApi | undefined {
  // Read as a plain property: `@opentelemetry/api` 1.9 has no `logs` export.
  const value: unknown = (namespace as Record<string, unknown>)['logs'];
  return typeof value === 'object' && value !== null && 'getLoggerProvider' in value ? (value as LogsApi) : undefined;
}

function isProvider(value: unknown): value is EmittingLoggerProvider {
  return typeof value === 'object' && value !== null && typeof (value as { getLogger?: unknown }).getLogger === 'function';
}

/** Whether a LoggerProvider is registered through `@opentelemetry/api` 1.10's `logs`. */
function registeredThroughApi(): boolean {
  return API_LOGS !== undefined && apiGlobalRegistrations().logs;
}

/** The LoggerProvider registered through `@opentelemetry/api-logs`, if any. */
function registeredThroughApiLogs(): EmittingLoggerProvider | undefined {
  const getter = apiLogsGlobalGetter();
  if (getter === undefined) return undefined;
  const provider: unknown = getter(API_LOGS_COMPATIBILITY);
  return isProvider(provider) ? provider : undefined;
}

/**
 * The LoggerProvider the app registered — through `@opentelemetry/api` 1.10's `logs` first, else through
 * `@opentelemetry/api-logs` — or `undefined` when neither has one.
 *
 * @example
 * ```ts
 * registeredLoggerProvider()?.getLogger('toolhooks').emit({ body: 'hello' });
 * ```
 */
export function registeredLoggerProvider(): EmittingLoggerProvider | undefined {
  if (registeredThroughApi() && API_LOGS !== undefined) return API_LOGS.getLoggerProvider();
  return registeredThroughApiLogs();
}

/**
 * The registered LoggerProvider, or one that drops every record when none is registered.
 *
 * @example
 * ```ts
 * currentLoggerProvider().getLogger('toolhooks').emit({ body: 'dropped until an SDK registers a provider' });
 * ```
 */
export function currentLoggerProvider(): EmittingLoggerProvider {
  return registeredLoggerProvider() ?? NOOP_PROVIDER;
}
