/**
 * The exporter wrappers startTelemetry() builds: a failed export is counted and reported once per outage
 * (the processor is told it succeeded, so the SDK does not log every batch), an exporter that throws is a
 * failed export, and shutdown switches to the short-timeout exporter.
 */
import { AggregationTemporality, AggregationType, InstrumentType } from '@opentelemetry/sdk-metrics';
import type { ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DropReporter } from '../../../src/node/drop-reporter.js';
import { QueueGate } from '../../../src/node/queue-gate.js';
import { ReportingLogRecordExporter, ReportingMetricExporter, ReportingSpanExporter } from '../../../src/node/reporting-exporters.js';
import { ExportResultCode } from '../../../src/node/sdk-parts.js';
import type { ExportResult, ReadableLogRecord, ReadableSpan } from '../../../src/node/sdk-parts.js';
import { recordDiag } from '../../support/diag.js';

const diag = recordDiag();
beforeEach(() => diag.start());
afterEach(() => diag.stop());

/** An exporter answering every export with `result` (or throwing it), remembering what it was given. */
function fakeExporter(result: ExportResult | Error) {
  const fake = {
    batches: [] as unknown[],
    flushed: 0,
    shut: 0,
    export(items: unknown, done: (result: ExportResult) => void): void {
      fake.batches.push(items);
      if (result instanceof Error) throw result;
      done(result);
    },
    forceFlush: async () => void (fake.flushed += 1),
    shutdown: async () => void (fake.shut += 1),
  };
  return fake;
}

const spans = (n: number): ReadableSpan[] => Array.from({ length: n }, () => ({}) as ReadableSpan);
const failed = (message: string): ExportResult => ({ code: ExportResultCode.FAILED, error: new Error(message) });

function exportSync(exporter: { export(items: never, done: (result: ExportResult) => void): void }, items: unknown): ExportResult {
  let seen: ExportResult | undefined;
  exporter.export(items as never, (result) => (seen = result));
  if (seen === undefined) throw new Error('the export did not call back');
  return seen;
}

describe('ReportingSpanExporter', () => {
  it('passes a successful export through', () => {
    const reporter = new DropReporter('span', 'spans');
    const inner = fakeExporter({ code: ExportResultCode.SUCCESS });
    expect(exportSync(new ReportingSpanExporter({ exporter: inner, reporter }), spans(2))).toEqual({ code: ExportResultCode.SUCCESS });
    expect(inner.batches).toHaveLength(1);
    expect(reporter.dropped).toBe(0);
  });

  it('counts a failed export as dropped, says why once, and tells the processor it is done', () => {
    const reporter = new DropReporter('span', 'spans');
    const exporter = new ReportingSpanExporter({ exporter: fakeExporter(failed('connect ECONNREFUSED 127.0.0.1:4318')), reporter });
    expect(exportSync(exporter, spans(3)).code).toBe(ExportResultCode.SUCCESS);
    expect(exportSync(exporter, spans(2)).code).toBe(ExportResultCode.SUCCESS);
    expect(reporter.dropped).toBe(5);
    expect(diag.messages).toHaveLength(1);
    expect(diag.messages[0]).toMatch(/span export failed .*ECONNREFUSED/);
  });

  it('treats an exporter that throws as a failed export', () => {
    const reporter = new DropReporter('span', 'spans');
    const exporter = new ReportingSpanExporter({ exporter: fakeExporter(new Error('serializer bug')), reporter });
    expect(() => exportSync(exporter, spans(1))).not.toThrow();
    expect(reporter.dropped).toBe(1);
    expect(diag.messages[0]).toMatch(/serializer bug/);
  });

  it('frees the queue gate for what it hands to the exporter', () => {
    const reporter = new DropReporter('span', 'spans');
    const gate = new QueueGate(2, reporter);
    gate.admit();
    gate.admit();
    exportSync(new ReportingSpanExporter({ exporter: fakeExporter({ code: ExportResultCode.SUCCESS }), reporter, gate }), spans(2));
    expect(gate.held).toBe(0);
  });

  it('sends to the shutdown exporter once shutdown begins, and shuts both down', async () => {
    const reporter = new DropReporter('span', 'spans');
    const normal = fakeExporter({ code: ExportResultCode.SUCCESS });
    const short = fakeExporter({ code: ExportResultCode.SUCCESS });
    const exporter = new ReportingSpanExporter({ exporter: normal, shutdownExporter: short, reporter });
    exportSync(exporter, spans(1));
    exporter.beginShutdown();
    exportSync(exporter, spans(1));
    await exporter.forceFlush();
    await exporter.shutdown();
    expect([normal.batches.length, short.batches.length]).toEqual([1, 1]);
    expect([normal.flushed, short.flushed]).toEqual([0, 1]);
    expect([normal.shut, short.shut]).toEqual([1, 1]);
  });
});

describe('ReportingLogRecordExporter and ReportingMetricExporter', () => {
  it('counts log records, and metric data points, as dropped', () => {
    const logs = new DropReporter('log', 'log records');
    exportSync(new ReportingLogRecordExporter({ exporter: fakeExporter(failed('down')), reporter: logs }), [{}, {}] as ReadableLogRecord[]);
    expect(logs.dropped).toBe(2);

    const metrics = new DropReporter('metric', 'data points');
    const resourceMetrics = { scopeMetrics: [{ metrics: [{ dataPoints: [1, 2] }, { dataPoints: [3] }] }, { metrics: [{ dataPoints: [4] }] }] } as unknown as ResourceMetrics;
    exportSync(new ReportingMetricExporter({ exporter: fakeExporter(failed('down')), reporter: metrics }), resourceMetrics);
    expect(metrics.dropped).toBe(4);
  });

  it("keeps the metric exporter's temporality and aggregation, with the SDK defaults when it has none", () => {
    const reporter = new DropReporter('metric', 'data points');
    const plain = new ReportingMetricExporter({ exporter: fakeExporter({ code: ExportResultCode.SUCCESS }), reporter });
    expect(plain.selectAggregationTemporality(InstrumentType.COUNTER)).toBe(AggregationTemporality.CUMULATIVE);
    expect(plain.selectAggregation(InstrumentType.HISTOGRAM)).toEqual({ type: AggregationType.DEFAULT });
    const delta = {
      ...fakeExporter({ code: ExportResultCode.SUCCESS }),
      selectAggregationTemporality: () => AggregationTemporality.DELTA,
      selectAggregation: () => ({ type: AggregationType.DROP }),
    };
    const wrapped = new ReportingMetricExporter({ exporter: delta, reporter });
    expect(wrapped.selectAggregationTemporality(InstrumentType.COUNTER)).toBe(AggregationTemporality.DELTA);
    expect(wrapped.selectAggregation(InstrumentType.COUNTER)).toEqual({ type: AggregationType.DROP });
  });
});
