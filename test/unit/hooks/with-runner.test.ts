/**
 * MetricsHook and LoggingHook fed by the real runner and flows (their own tests feed them events by hand).
 */
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { HookRunner, abort, executeTool, redirect, skip } from '../../../src/index.js';
import { LoggingHook, MetricsHook } from '../../../src/hooks/index.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();

async function collect(exporter: InMemoryMetricExporter, reader: PeriodicExportingMetricReader) {
  await reader.forceFlush();
  const all = exporter.getMetrics().at(-1)?.scopeMetrics.flatMap((s) => s.metrics) ?? [];
  return (name: string) => all.find((m) => m.descriptor.name === name)?.dataPoints ?? [];
}

describe('MetricsHook with the real runner', () => {
  it('counts calls by outcome, decisions with the shadowed flag and hook errors — registered after the aborting hook', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      hooks: [
        { name: 'gate', beforeTool: (_t, args) => (args.cmd === 'rm' ? abort('no') : undefined) },
        { name: 'cache', beforeTool: (_t, args) => (args.cmd === 'cached' ? skip('hit') : undefined) },
        { name: 'late', beforeTool: (_t, args) => (args.cmd === 'cached' ? redirect({ newArgs: { x: 1 } }) : undefined) },
        {
          name: 'broken',
          beforeTool: () => {
            throw new Error('bug');
          },
        },
        new MetricsHook({ meter: provider.getMeter('toolhooks') }),
      ],
    });
    const run = (cmd: string) => executeTool({ hooks, toolName: 'shell', args: { cmd }, execute: () => 'ok' }).catch(() => 'aborted');
    for (const cmd of ['ls', 'rm', 'rm', 'cached']) await run(cmd);
    const points = await collect(exporter, reader);

    const calls = Object.fromEntries(points('toolhooks.tool.calls').map((p) => [p.attributes['toolhooks.outcome'], p.value]));
    expect(calls).toEqual({ completed: 1, aborted: 2, skipped: 1 });
    const durations = points('gen_ai.execute_tool.duration');
    const aborted = durations.find((p) => p.attributes['toolhooks.outcome'] === 'aborted');
    expect(aborted?.attributes['error.type']).toBe('HookAbortError');
    const shadowed = points('toolhooks.hook.decisions').filter((p) => p.attributes['toolhooks.decision.shadowed'] === true);
    expect(shadowed.map((p) => [p.attributes['toolhooks.hook.name'], p.attributes['toolhooks.decision'], p.value])).toEqual([['late', 'redirect', 1]]);
    const errors = points('toolhooks.hook.errors');
    // The broken hook ran on the 2 calls that were not aborted before it.
    expect(errors.map((p) => [p.attributes['toolhooks.hook.name'], p.attributes['toolhooks.hook.error.kind'], p.value])).toEqual([['broken', 'threw', 2]]);
    await provider.shutdown();
  });
});

describe('LoggingHook with the real runner', () => {
  it('writes records whose trace and span ids are those of the spans they describe', async () => {
    const lines: string[] = [];
    const logger = pino({}, { write: (line: string) => void lines.push(line) });
    tracing.reset();
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      hooks: [{ name: 'gate', beforeTool: () => abort('denied') }, new LoggingHook({ logger })],
    });
    await executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 1 }).catch(() => undefined);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const root = tracing.spansNamed('execute_tool shell')[0]!;
    const phase = tracing.spansNamed('toolhooks.before_tool')[0]!;
    const decision = records.find((r) => r.msg === 'hook decided abort')!;
    const outcome = records.find((r) => r.msg === 'tool call aborted')!;
    expect(decision).toMatchObject({ trace_id: phase.spanContext().traceId, span_id: phase.spanContext().spanId, 'toolhooks.decision.reason': 'denied' });
    expect(outcome).toMatchObject({ trace_id: root.spanContext().traceId, span_id: root.spanContext().spanId, level: 40 });
  });
});
