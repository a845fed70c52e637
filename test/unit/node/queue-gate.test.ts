/**
 * The queue limit kept in front of the batch processors: what does not fit is dropped and counted by the
 * signal's DropReporter, and the processors behind the gate see only what was admitted.
 */
import type { Context } from '@opentelemetry/api';
import { ROOT_CONTEXT, TraceFlags } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DropReporter } from '../../../src/node/drop-reporter.js';
import { GatedLogRecordProcessor, GatedSpanProcessor, QueueGate } from '../../../src/node/queue-gate.js';
import type { LogRecordProcessor, ReadableSpan, ReadWriteLogRecord, Span, SpanProcessor } from '../../../src/node/sdk-parts.js';
import { recordDiag } from '../../support/diag.js';

const diag = recordDiag();
beforeEach(() => diag.start());
afterEach(() => diag.stop());

describe('QueueGate', () => {
  it('admits up to maxQueueSize items not yet handed to the exporter, and counts the rest as dropped', () => {
    const reporter = new DropReporter('span', 'spans');
    const gate = new QueueGate(3, reporter);
    expect([gate.admit(), gate.admit(), gate.admit(), gate.admit(), gate.admit()]).toEqual([true, true, true, false, false]);
    expect(reporter.dropped).toBe(2);
    expect(diag.messages).toEqual([expect.stringContaining('span export cannot keep up (queue full at maxQueueSize 3); dropped 1 spans')]);
    gate.release(2); // a batch of two went to the exporter
    expect([gate.admit(), gate.admit(), gate.admit()]).toEqual([true, true, false]);
    expect(reporter.dropped).toBe(3);
  });
});

/** A processor that records what reached it. */
function recordingProcessor(): SpanProcessor & LogRecordProcessor & { ended: unknown[]; emitted: unknown[]; started: number; flushed: number; shut: number } {
  const processor = {
    ended: [] as unknown[],
    emitted: [] as unknown[],
    started: 0,
    flushed: 0,
    shut: 0,
    onStart: () => void (processor.started += 1),
    onEnd: (span: ReadableSpan) => void processor.ended.push(span),
    onEmit: (record: ReadWriteLogRecord, _context?: Context) => void processor.emitted.push(record),
    forceFlush: async () => void (processor.flushed += 1),
    shutdown: async () => void (processor.shut += 1),
  };
  return processor;
}

const span = (traceFlags: number): ReadableSpan & Span => ({ spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags }) }) as unknown as ReadableSpan & Span;
const record = {} as ReadWriteLogRecord;

describe('GatedSpanProcessor', () => {
  it('passes sampled spans while they fit, drops and counts the rest', () => {
    const reporter = new DropReporter('span', 'spans');
    const inner = recordingProcessor();
    const processor = new GatedSpanProcessor(inner, new QueueGate(1, reporter));
    processor.onStart(span(TraceFlags.SAMPLED), ROOT_CONTEXT);
    processor.onEnd(span(TraceFlags.SAMPLED));
    processor.onEnd(span(TraceFlags.SAMPLED));
    expect(inner.started).toBe(1);
    expect(inner.ended).toHaveLength(1);
    expect(reporter.dropped).toBe(1);
  });

  it('does not count unsampled spans against the queue (the batch processor never queues them)', () => {
    const reporter = new DropReporter('span', 'spans');
    const inner = recordingProcessor();
    const gate = new QueueGate(1, reporter);
    const processor = new GatedSpanProcessor(inner, gate);
    for (let i = 0; i < 5; i += 1) processor.onEnd(span(TraceFlags.NONE));
    expect(gate.held).toBe(0);
    expect(reporter.dropped).toBe(0);
    expect(inner.ended).toHaveLength(5);
  });

  it('counts nothing after shutdown, and passes flush and shutdown on', async () => {
    const reporter = new DropReporter('span', 'spans');
    const inner = recordingProcessor();
    const gate = new QueueGate(1, reporter);
    const processor = new GatedSpanProcessor(inner, gate);
    await processor.forceFlush();
    await processor.shutdown();
    processor.onEnd(span(TraceFlags.SAMPLED));
    processor.onEnd(span(TraceFlags.SAMPLED));
    expect([inner.flushed, inner.shut, gate.held, reporter.dropped]).toEqual([1, 1, 0, 0]);
  });
});

describe('GatedLogRecordProcessor', () => {
  it('passes log records while they fit, drops and counts the rest, and none after shutdown', async () => {
    const reporter = new DropReporter('log', 'log records');
    const inner = recordingProcessor();
    const processor = new GatedLogRecordProcessor(inner, new QueueGate(2, reporter));
    for (let i = 0; i < 3; i += 1) processor.onEmit(record);
    expect(inner.emitted).toHaveLength(2);
    expect(reporter.dropped).toBe(1);
    await processor.shutdown();
    processor.onEmit(record);
    expect(reporter.dropped).toBe(1);
  });
});
