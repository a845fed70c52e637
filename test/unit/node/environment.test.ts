/**
 * How startTelemetry() reads the standard OTEL_* variables: which endpoint and protocol each signal
 * exports with, the metric timing and batch settings — and a loud error for a broken setting.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  batchLogSettings,
  batchSpanSettings,
  checkProtocol,
  exporterIsNone,
  isHttpUrl,
  metricExporterTimeout,
  metricTiming,
  planSignal,
} from '../../../src/node/environment.js';

const VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_PROTOCOL',
  'OTEL_EXPORTER_OTLP_METRICS_PROTOCOL',
  'OTEL_EXPORTER_OTLP_TIMEOUT',
  'OTEL_EXPORTER_OTLP_METRICS_TIMEOUT',
  'OTEL_METRIC_EXPORT_INTERVAL',
  'OTEL_METRIC_EXPORT_TIMEOUT',
  'OTEL_TRACES_EXPORTER',
  'OTEL_BSP_MAX_QUEUE_SIZE',
  'OTEL_BSP_SCHEDULE_DELAY',
  'OTEL_BLRP_MAX_EXPORT_BATCH_SIZE',
  'OTEL_BLRP_EXPORT_TIMEOUT',
];

/** Runs with exactly these OTEL_* variables set (the machine's own are hidden). */
function withEnv(values: Record<string, string>): void {
  for (const name of VARIABLES) vi.stubEnv(name, undefined);
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
}
afterEach(() => vi.unstubAllEnvs());

describe('planSignal', () => {
  it('sends to localhost:4318 over http/protobuf when nothing is configured', () => {
    withEnv({});
    expect(planSignal('traces', undefined, undefined)).toEqual({ protocol: 'http/protobuf', endpointConfigured: false, target: 'http://localhost:4318/v1/traces' });
  });

  it('appends the signal path to the endpoint option, which wins over the variables', () => {
    withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318' });
    expect(planSignal('logs', 'http://collector:4318/', undefined)).toEqual({
      protocol: 'http/protobuf',
      url: 'http://collector:4318/v1/logs',
      endpointConfigured: true,
      target: 'http://collector:4318/v1/logs',
    });
  });

  it('uses a per-signal endpoint as given, and the base endpoint with the signal path', () => {
    withEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318' });
    expect(planSignal('traces', undefined, undefined)).toMatchObject({ endpointConfigured: true, target: 'http://traces:4318/custom' });
    expect(planSignal('metrics', undefined, undefined)).toMatchObject({ endpointConfigured: true, target: 'http://base:4318/v1/metrics' });
    expect(planSignal('metrics', undefined, undefined)).not.toHaveProperty('url');
  });

  it('takes the protocol from the option, else the per-signal variable, else the base variable', () => {
    withEnv({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: 'http/protobuf' });
    expect(planSignal('traces', undefined, undefined).protocol).toBe('http/json');
    expect(planSignal('metrics', undefined, undefined).protocol).toBe('http/protobuf');
    expect(planSignal('traces', undefined, 'http/protobuf').protocol).toBe('http/protobuf');
  });

  it('fails loudly on an endpoint variable that is not an http(s) URL, even when the option overrides it', () => {
    withEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' });
    expect(() => planSignal('traces', 'http://ok:4318', undefined)).toThrow('startTelemetry: OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got the string "collector:4318"');
  });
});

describe('checkProtocol', () => {
  it('accepts the two OTLP/HTTP encodings and explains that gRPC is not one', () => {
    expect(checkProtocol('options.protocol', 'http/json')).toBe('http/json');
    expect(() => checkProtocol('OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc')).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported.*http\/protobuf \(port 4318\)/);
    expect(() => checkProtocol('options.protocol', 'http')).toThrow('startTelemetry: options.protocol must be "http/protobuf" or "http/json", got the string "http"');
  });
});

describe('isHttpUrl and exporterIsNone', () => {
  it('accepts only absolute http and https URLs', () => {
    expect([isHttpUrl('http://a:1'), isHttpUrl('https://a'), isHttpUrl('grpc://a'), isHttpUrl('localhost:4318')]).toEqual([true, true, false, false]);
  });

  it('reads "none" in an OTEL_*_EXPORTER list, ignoring case and spaces', () => {
    withEnv({ OTEL_TRACES_EXPORTER: 'console, NONE' });
    expect(exporterIsNone('OTEL_TRACES_EXPORTER')).toBe(true);
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'otlp');
    expect(exporterIsNone('OTEL_TRACES_EXPORTER')).toBe(false);
    expect(exporterIsNone('OTEL_LOGS_EXPORTER_UNSET')).toBe(false);
  });
});

describe('metric timing', () => {
  it('exports every 60 s with a 30 s timeout by default; the option or variable sets the interval', () => {
    withEnv({});
    expect(metricTiming(undefined)).toEqual({ intervalMillis: 60_000, timeoutMillis: 30_000 });
    vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', '20000');
    expect(metricTiming(undefined)).toEqual({ intervalMillis: 20_000, timeoutMillis: 20_000 });
    expect(metricTiming(5000)).toEqual({ intervalMillis: 5000, timeoutMillis: 5000 });
  });

  it("shortens the exporter's timeout only when it would outlive the reader's", () => {
    withEnv({});
    expect(metricExporterTimeout(30_000)).toBeUndefined();
    const fitted = metricExporterTimeout(5000);
    expect(fitted).toBeDefined();
    expect(fitted).toBeLessThan(5000);
    vi.stubEnv('OTEL_EXPORTER_OTLP_METRICS_TIMEOUT', '1000');
    expect(metricExporterTimeout(5000)).toBeUndefined();
  });
});

describe('batch settings', () => {
  it('reads OTEL_BSP_* and OTEL_BLRP_*, keeping only positive numbers', () => {
    withEnv({ OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_BSP_SCHEDULE_DELAY: '-5', OTEL_BLRP_MAX_EXPORT_BATCH_SIZE: '10', OTEL_BLRP_EXPORT_TIMEOUT: '2500' });
    expect(batchSpanSettings()).toEqual({ maxQueueSize: 100 });
    expect(batchLogSettings()).toEqual({ maxExportBatchSize: 10, exportTimeoutMillis: 2500 });
  });
});
