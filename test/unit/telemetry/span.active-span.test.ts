/**
 * recordingActiveSpan, the one guarded read of the active span that the adapters' `execute_tool` span
 * look-ups share: it gives the span only when it records and passes the caller's test, and a context, span
 * or test that throws is reported once under the caller's label and gives undefined.
 */
import type { Context, Span } from '@opentelemetry/api';
import { INVALID_SPAN_CONTEXT, context, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { recordingActiveSpan } from '../../../src/telemetry/span.js';
import { telemetryFailuresDuring } from '../../support/diag.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

type Seen = [string | undefined, Readonly<Record<string, unknown>> | undefined, string, number];

/** Runs `read` with `span` active. */
const within = <T>(span: Span, read: () => T): T => context.with(trace.setSpan(context.active(), span), read);

/** A test that keeps what it was given and answers `pass`. */
function keeping(seen: Seen[], pass: boolean): (name: string | undefined, attributes: Readonly<Record<string, unknown>> | undefined, a: string, b: number) => boolean {
  return (name, attributes, a, b) => {
    seen.push([name, attributes, a, b]);
    return pass;
  };
}

describe('recordingActiveSpan', () => {
  it('gives the active span when it records and passes the test, which gets its name, attributes and the two arguments', () => {
    const span = tracing.tracer.startSpan('execute_tool search', { attributes: { 'gen_ai.tool.call.id': 'c1' } });
    const seen: Seen[] = [];
    expect(within(span, () => recordingActiveSpan('where', keeping(seen, true), 'search', 7))).toBe(span);
    expect(seen).toEqual([['execute_tool search', { 'gen_ai.tool.call.id': 'c1' }, 'search', 7]]);
    expect(within(span, () => recordingActiveSpan('where', keeping([], false), 'search', 7))).toBeUndefined();
    span.end();
  });

  it('gives undefined, without running the test, when no span is active or the active one does not record', () => {
    const seen: Seen[] = [];
    expect(recordingActiveSpan('where', keeping(seen, true), 'a', 1)).toBeUndefined();
    const ended = tracing.tracer.startSpan('execute_tool search');
    ended.end();
    expect(within(ended, () => recordingActiveSpan('where', keeping(seen, true), 'a', 1))).toBeUndefined();
    expect(within(trace.wrapSpanContext(ended.spanContext()), () => recordingActiveSpan('where', keeping(seen, true), 'a', 1))).toBeUndefined();
    expect(seen).toEqual([]);
  });

  it('with unwrap, reads the span it gives for the active one, and the active one when it gives none', () => {
    const run = tracing.tracer.startSpan('toolhooks.execute');
    const call = tracing.tracer.startSpan('execute_tool search');
    const seen: Seen[] = [];
    expect(within(run, () => recordingActiveSpan('where', keeping(seen, true), 'a', 1, (active) => (active === run ? call : undefined)))).toBe(call);
    expect(within(run, () => recordingActiveSpan('where', keeping(seen, true), 'a', 1, () => undefined))).toBe(run);
    expect(seen.map(([name]) => name)).toEqual(['execute_tool search', 'toolhooks.execute']);
    run.end();
    call.end();
  });

  const throwing = (): never => {
    throw new Error('broken');
  };
  const brokenContext = { getValue: throwing, setValue: throwing, deleteValue: throwing } as Context;
  const brokenSpan = { isRecording: throwing, spanContext: () => INVALID_SPAN_CONTEXT } as unknown as Span;
  it.each([
    ['the active context', () => context.with(brokenContext, () => recordingActiveSpan('test span', () => true, 'a', 1))],
    ['isRecording', () => within(brokenSpan, () => recordingActiveSpan('test span', () => true, 'a', 1))],
    ['unwrap', () => within(trace.wrapSpanContext(INVALID_SPAN_CONTEXT), () => recordingActiveSpan('test span', () => true, 'a', 1, throwing))],
    ['the test', () => within(tracing.tracer.startSpan('execute_tool search'), () => recordingActiveSpan('test span', throwing, 'a', 1))],
  ])('when %s throws: undefined, one failure reported under the caller\'s label', async (_what, read) => {
    expect(await telemetryFailuresDuring(read)).toEqual({ value: undefined, failures: 1, messages: [expect.stringContaining('telemetry failed in test span (')] });
  });
});
