/**
 * The OpenTelemetry SDK 3 classes, enums, helpers and types that startTelemetry() builds its pipelines
 * from, in one place: `@opentelemetry/core`, `sdk-logs`, `sdk-metrics` and `sdk-trace` of the release
 * `@opentelemetry/sdk-node` 0.301 runs on. toolhooks does not declare them (docs/installation.md): the app
 * installs `sdk-node`, which depends on each, so they are the very copies NodeSDK installs and runs on.
 * @internal
 */
export { ExportResultCode, getBooleanFromEnv, getNumberFromEnv, getStringFromEnv, SDK_INFO } from '@opentelemetry/core';
export type { ExportResult } from '@opentelemetry/core';

export { BatchLogRecordProcessor } from '@opentelemetry/sdk-logs';
export type { LogRecordExporter, LogRecordProcessor, ReadableLogRecord, ReadWriteLogRecord } from '@opentelemetry/sdk-logs';

export { AggregationTemporality, AggregationType, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
export type { AggregationOption, IMetricReader, InstrumentType, PushMetricExporter, ResourceMetrics } from '@opentelemetry/sdk-metrics';

export { BatchSpanProcessor, ConsoleSpanExporter } from '@opentelemetry/sdk-trace';
export type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
