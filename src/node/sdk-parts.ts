/**
 * The OpenTelemetry SDK classes, enums, helpers and types that startTelemetry() builds its pipelines from,
 * taken from `@opentelemetry/sdk-node`'s own re-exports (`core`, `logs`, `metrics`, `tracing`) rather than
 * from `@opentelemetry/core`, `sdk-logs`, `sdk-metrics` and `sdk-trace` directly. They are then the very
 * copies NodeSDK runs on, and toolhooks need not declare those packages: an app whose own SDK packages are
 * a patch release ahead of the versions sdk-node pins gets no further copy (docs/installation.md).
 * @internal
 */
import { core, logs, metrics, tracing } from '@opentelemetry/sdk-node';

export const { ExportResultCode, getBooleanFromEnv, getNumberFromEnv, getStringFromEnv } = core;
export type ExportResult = core.ExportResult;

export const { BatchLogRecordProcessor } = logs;
export type LogRecordExporter = logs.LogRecordExporter;
export type LogRecordProcessor = logs.LogRecordProcessor;
export type ReadableLogRecord = logs.ReadableLogRecord;
export type ReadWriteLogRecord = logs.ReadWriteLogRecord;

export const { AggregationTemporality, AggregationType, PeriodicExportingMetricReader } = metrics;
export type AggregationTemporality = metrics.AggregationTemporality;
export type AggregationOption = metrics.AggregationOption;
export type IMetricReader = metrics.IMetricReader;
export type InstrumentType = metrics.InstrumentType;
export type PushMetricExporter = metrics.PushMetricExporter;
export type ResourceMetrics = metrics.ResourceMetrics;

// sdk-node marks `tracing` (@opentelemetry/sdk-trace-base) deprecated in favour of importing
// @opentelemetry/sdk-trace, which it does not re-export. sdk-trace-base re-exports sdk-trace's
// ConsoleSpanExporter and span types as they are; its BatchSpanProcessor is sdk-trace's, plus OTEL_BSP_*
// fallbacks for settings left out (see SPAN_BATCH_DEFAULTS in exporters.ts).
export const { BatchSpanProcessor, ConsoleSpanExporter } = tracing;
export type ReadableSpan = tracing.ReadableSpan;
export type Span = tracing.Span;
export type SpanExporter = tracing.SpanExporter;
export type SpanProcessor = tracing.SpanProcessor;
