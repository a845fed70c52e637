/**
 * The pino destination that forwards records to the app's OTel LoggerProvider: how a pino record maps
 * to an OTel log record, and that a bad line or a broken provider never throws into the code that logs.
 * (LoggingHook's records through it: logging-hook.test.ts.)
 */
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { otelDestination } from '../../../src/hooks/index.js';
import { INSTRUMENTATION_NAME } from '../../../src/telemetry/semconv.js';
import { recordDiag } from '../../support/diag.js';
import { disableGlobalLogs, registerLoggerProvider } from '../../support/sdk.js';

const diag = recordDiag();
let exporter: InMemoryLogRecordExporter;

beforeEach(async () => {
  diag.start();
  exporter = new InMemoryLogRecordExporter();
  await registerLoggerProvider(new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] }));
});
afterEach(async () => {
  diag.stop();
  await disableGlobalLogs();
});

const write = (fields: Record<string, unknown>, destination = otelDestination()): void => destination.write(`${JSON.stringify(fields)}\n`);
const only = () => {
  const records = exporter.getFinishedLogRecords();
  expect(records).toHaveLength(1);
  return records[0] as (typeof records)[number];
};

describe('otelDestination', () => {
  it("maps msg to the body, pino's levels to OTel severities, and time to the timestamp", () => {
    const levels = [10, 20, 30, 40, 50, 60];
    const destination = otelDestination();
    for (const level of levels) write({ level, time: '2026-01-01T00:00:00.000Z', msg: `at ${level}` }, destination);
    const records = exporter.getFinishedLogRecords();
    expect(records.map((r) => [r.severityNumber, r.severityText, r.body])).toEqual([
      [1, 'trace', 'at 10'],
      [5, 'debug', 'at 20'],
      [9, 'info', 'at 30'],
      [13, 'warn', 'at 40'],
      [17, 'error', 'at 50'],
      [21, 'fatal', 'at 60'],
    ]);
    expect(records[0]?.hrTime).toEqual([Date.parse('2026-01-01T00:00:00.000Z') / 1000, 0]);
  });

  it('places a custom level on the same scale, within 1..24', () => {
    const destination = otelDestination();
    write({ level: 35, msg: 'notice' }, destination);
    write({ level: 1000, msg: 'beyond' }, destination);
    expect(exporter.getFinishedLogRecords().map((r) => [r.severityNumber, r.severityText])).toEqual([
      [11, '35'],
      [24, '1000'],
    ]);
  });

  it("keeps every other field as an attribute, leaving out pid and hostname (resource attributes in OTel)", () => {
    write({ level: 30, msg: 'm', pid: 1, hostname: 'box', tool: 'search', nested: { a: 1 } });
    expect(only().attributes).toEqual({ tool: 'search', nested: { a: 1 } });
  });

  it("turns pino's err into exception attributes", () => {
    write({ level: 50, msg: 'failed', err: { type: 'RangeError', message: 'too big', stack: 'RangeError: too big\n    at x' } });
    expect(only().attributes).toMatchObject({ 'exception.type': 'RangeError', 'exception.message': 'too big', 'exception.stacktrace': 'RangeError: too big\n    at x' });
  });

  it('names the logger toolhooks unless loggerName says otherwise, and rejects an unknown option', () => {
    write({ level: 30, msg: 'a' }, otelDestination({ loggerName: 'my-agent' }));
    expect(only().instrumentationScope.name).toBe('my-agent');
    exporter.reset();
    write({ level: 30, msg: 'b' });
    expect(only().instrumentationScope.name).toBe(INSTRUMENTATION_NAME);
    expect(() => otelDestination({ logerName: 'x' } as never)).toThrow(/loggerName/);
  });

  it('ignores a line that is not a JSON object, and never throws', () => {
    const destination = otelDestination();
    for (const line of ['not json\n', '[1,2]\n', 'null\n', '"text"\n']) expect(() => destination.write(line)).not.toThrow();
    expect(exporter.getFinishedLogRecords()).toHaveLength(0);
  });

  it('follows a provider registered after it was made', async () => {
    const destination = otelDestination();
    write({ level: 30, msg: 'first' }, destination);
    const later = new InMemoryLogRecordExporter();
    await disableGlobalLogs();
    await registerLoggerProvider(new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter: later })] }));
    write({ level: 30, msg: 'second' }, destination);
    expect(exporter.getFinishedLogRecords().map((r) => r.body)).toEqual(['first']);
    expect(later.getFinishedLogRecords().map((r) => r.body)).toEqual(['second']);
  });

  it('reports a provider that throws once through diag, and does not throw into the code that logs', async () => {
    await disableGlobalLogs();
    const broken = new LoggerProvider({
      processors: [{ onEmit: () => { throw new Error('processor down'); }, forceFlush: async () => undefined, shutdown: async () => undefined }],
    });
    await registerLoggerProvider(broken);
    const destination = otelDestination();
    expect(() => {
      write({ level: 30, msg: 'a' }, destination);
      write({ level: 30, msg: 'b' }, destination);
    }).not.toThrow();
    expect(diag.messages).toEqual([expect.stringMatching(/could not forward a pino record to OpenTelemetry \(1 failure\(s\) so far\); the record still went to the other destinations/)]);
  });
});
