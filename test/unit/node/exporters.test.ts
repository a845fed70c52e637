/**
 * Which export pipelines startTelemetry() gives the SDK: per signal an OTLP export (bounded and counted),
 * left out when the app already has that provider, when OTEL_*_EXPORTER=none, or in console mode without
 * an endpoint. Nothing is exported here: the pipelines are built and shut down empty.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsoleSpanProcessor } from '../../../src/node/console-exporter.js';
import { planSignal } from '../../../src/node/environment.js';
import type { Pipelines, SignalPlans } from '../../../src/node/exporters.js';
import { buildPipelines } from '../../../src/node/exporters.js';
import type { CheckedOptions } from '../../../src/node/options.js';
import { checkOptions } from '../../../src/node/options.js';
import { GatedLogRecordProcessor, GatedSpanProcessor } from '../../../src/node/queue-gate.js';

const VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT', 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT', 'OTEL_TRACES_EXPORTER', 'OTEL_METRICS_EXPORTER', 'OTEL_LOGS_EXPORTER'];
beforeEach(() => {
  for (const name of VARIABLES) vi.stubEnv(name, undefined);
});
afterEach(() => vi.unstubAllEnvs());

const built: Pipelines[] = [];
afterEach(async () => {
  for (const pipelines of built.splice(0)) {
    await Promise.allSettled([...pipelines.spanProcessors, ...pipelines.logRecordProcessors, ...pipelines.metricReaders].map((part) => part.shutdown()));
  }
});

function plans(endpoint?: string): SignalPlans {
  return {
    traces: planSignal('traces', endpoint, undefined),
    metrics: planSignal('metrics', endpoint, undefined),
    logs: planSignal('logs', endpoint, undefined),
  };
}

function build(checked: CheckedOptions, signalPlans: SignalPlans, existing = { meterProvider: false, loggerProvider: false }): Pipelines {
  const pipelines = buildPipelines(checked, signalPlans, existing);
  built.push(pipelines);
  return pipelines;
}

describe('buildPipelines', () => {
  it('exports traces, metrics and logs over OTLP by default, each through a counted queue', () => {
    const pipelines = build(checkOptions({}), plans());
    expect(pipelines.spanProcessors).toHaveLength(1);
    expect(pipelines.spanProcessors[0]).toBeInstanceOf(GatedSpanProcessor);
    expect(pipelines.metricReaders).toHaveLength(1);
    expect(pipelines.logRecordProcessors).toHaveLength(1);
    expect(pipelines.logRecordProcessors[0]).toBeInstanceOf(GatedLogRecordProcessor);
    expect(pipelines.exports.map((signal) => signal.target)).toEqual([
      'http://localhost:4318/v1/traces',
      'http://localhost:4318/v1/metrics',
      'http://localhost:4318/v1/logs',
    ]);
  });

  it('leaves metrics and logs to the providers the app registered', () => {
    const pipelines = build(checkOptions({}), plans(), { meterProvider: true, loggerProvider: true });
    expect([pipelines.spanProcessors.length, pipelines.metricReaders.length, pipelines.logRecordProcessors.length]).toEqual([1, 0, 0]);
    expect(pipelines.exports.map((signal) => signal.target)).toEqual(['http://localhost:4318/v1/traces']);
  });

  it('builds nothing for a signal whose OTEL_*_EXPORTER is none', () => {
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'none');
    vi.stubEnv('OTEL_LOGS_EXPORTER', 'none');
    const pipelines = build(checkOptions({}), plans());
    expect([pipelines.spanProcessors.length, pipelines.metricReaders.length, pipelines.logRecordProcessors.length]).toEqual([0, 1, 0]);
  });

  it('prints spans in console mode, and exports metrics and logs only when an endpoint is configured', () => {
    const laptop = build(checkOptions({ console: 'tree' }), plans());
    expect(laptop.spanProcessors[0]).toBeInstanceOf(ConsoleSpanProcessor);
    expect([laptop.metricReaders.length, laptop.logRecordProcessors.length, laptop.exports.length]).toEqual([0, 0, 0]);

    const withCollector = build(checkOptions({ console: true, endpoint: 'http://collector:4318' }), plans('http://collector:4318'));
    expect(withCollector.spanProcessors[0]).toBeInstanceOf(ConsoleSpanProcessor);
    expect(withCollector.exports.map((signal) => signal.target)).toEqual(['http://collector:4318/v1/metrics', 'http://collector:4318/v1/logs']);
  });
});
