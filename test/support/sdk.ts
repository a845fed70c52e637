/**
 * The real OpenTelemetry SDK a test builds its providers from, on either line the library supports. The
 * main lane runs on SDK 3 (`@opentelemetry/sdk-trace` 3.x, `{ exporter }` processors, the Logs API in
 * `@opentelemetry/api` 1.10). The SDK 2 lane (`npm run test:sdk2`, vitest project `sdk2`) resolves
 * `@opentelemetry/sdk-trace` to `@opentelemetry/sdk-trace-base` 2.12 (`BasicTracerProvider`, processors that
 * take the exporter itself), `@opentelemetry/api` to 1.9 and registers loggers through
 * `@opentelemetry/api-logs` — the packages of test/sdk2/package.json. Tests call these helpers instead of
 * constructing SDK classes whose signatures differ between the lines.
 */
import * as api from '@opentelemetry/api';
import { SDK_INFO } from '@opentelemetry/core';
import * as sdkLogs from '@opentelemetry/sdk-logs';
import * as sdkTrace from '@opentelemetry/sdk-trace';
import type { LogRecordExporter, LogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { Sampler, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';

/** The major version of the SDK the test runs on: 3, or 2 in the SDK 2 lane. */
export const SDK_LINE = Number(String(SDK_INFO['telemetry.sdk.version']).split('.')[0]);
// The lane sets TOOLHOOKS_SDK_LINE: a lane whose packages did not resolve to its line must fail, not pass on SDK 3.
const expectedLine = process.env['TOOLHOOKS_SDK_LINE'] ?? '3';
const apiHasLogs = 'logs' in api;
if (String(SDK_LINE) !== expectedLine || apiHasLogs !== (expectedLine === '3')) {
  throw new Error(`this test lane expects the OpenTelemetry SDK ${expectedLine} line; it resolved SDK ${SDK_LINE} (API with logs: ${apiHasLogs})`);
}

type TracerProviderClass = typeof sdkTrace.TracerProvider;
type ProcessorClass = new (options: unknown, settings?: unknown) => SpanProcessor;

const namespace = sdkTrace as unknown as Record<string, unknown>;
const TracerProviderImpl = (namespace['TracerProvider'] ?? namespace['BasicTracerProvider']) as TracerProviderClass;

/** The SDK's tracer provider class on this line (`TracerProvider`; `BasicTracerProvider` on SDK 2). */
export type TestTracerProvider = InstanceType<TracerProviderClass>;

/** A tracer provider with these processors (and sampler, and span limits), not registered globally. */
export function newTracerProvider(
  options: { spanProcessors?: SpanProcessor[]; sampler?: Sampler; spanLimits?: { attributeValueLengthLimit?: number; eventCountLimit?: number } } = {},
): TestTracerProvider {
  return new TracerProviderImpl(options);
}

/** The SDK's SimpleSpanProcessor for this exporter. */
export function simpleSpanProcessor(exporter: SpanExporter): SpanProcessor {
  const Processor = sdkTrace.SimpleSpanProcessor as unknown as ProcessorClass;
  return SDK_LINE >= 3 ? new Processor({ exporter }) : new Processor(exporter);
}

/** The SDK's BatchSpanProcessor for this exporter, with batch settings. */
export function batchSpanProcessor(exporter: SpanExporter, settings: Record<string, number> = {}): SpanProcessor {
  const Processor = sdkTrace.BatchSpanProcessor as unknown as ProcessorClass;
  return SDK_LINE >= 3 ? new Processor({ exporter, ...settings }) : new Processor(exporter, settings);
}

/** The SDK's SimpleLogRecordProcessor for this exporter (both lines take `{ exporter }`). */
export function simpleLogRecordProcessor(exporter: LogRecordExporter): LogRecordProcessor {
  return new sdkLogs.SimpleLogRecordProcessor({ exporter });
}

/** What the global Logs API offers a test: register a provider, unregister it. */
interface GlobalLogs {
  setGlobalLoggerProvider(provider: unknown): unknown;
  disable(): void;
}

/** `logs` of `@opentelemetry/api` 1.10 (SDK 3); `undefined` on API 1.9. */
const API_LOGS = (api as unknown as Record<string, unknown>)['logs'] as GlobalLogs | undefined;

/**
 * The global Logs API the app's SDK registers its LoggerProvider through: `@opentelemetry/api`'s `logs`
 * on SDK 3, `@opentelemetry/api-logs` on SDK 2.
 */
export async function globalLogs(): Promise<GlobalLogs> {
  if (SDK_LINE >= 3 && API_LOGS !== undefined) return API_LOGS;
  const { logs } = await import('@opentelemetry/api-logs');
  return logs;
}

/** Registers this LoggerProvider globally the way the SDK of this line does. */
export async function registerLoggerProvider(provider: sdkLogs.LoggerProvider): Promise<void> {
  (await globalLogs()).setGlobalLoggerProvider(provider);
}

/** Unregisters the global LoggerProvider of both Logs APIs. */
export async function disableGlobalLogs(): Promise<void> {
  API_LOGS?.disable();
  if (SDK_LINE < 3) (await globalLogs()).disable();
}
