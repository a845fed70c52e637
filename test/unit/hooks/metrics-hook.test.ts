import { diag, metrics } from '@opentelemetry/api';
import type { Attributes, DiagLogger, Meter } from '@opentelemetry/api';
import {
  AggregationTemporality,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { MetricData } from '@opentelemetry/sdk-metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MetricsHook } from '../../../src/hooks/index.js';
import {
  APPROVAL_DURATION_BUCKETS,
  ATTR_APPROVAL_OUTCOME,
  ATTR_GATED,
  ATTR_DECISION,
  ATTR_DECISION_SHADOWED,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  ATTR_OUTCOME,
  ATTR_PHASE,
  HOOK_DURATION_BUCKETS,
  INSTRUMENTATION_NAME,
  METRIC_APPROVAL_DURATION,
  METRIC_APPROVAL_REQUESTS,
  METRIC_HOOK_DECISIONS,
  METRIC_HOOK_DURATION,
  METRIC_HOOK_ERRORS,
  METRIC_TOOL_CALLS,
  METRIC_TOOL_DURATION,
  TOOL_DURATION_BUCKETS,
} from '../../../src/telemetry/semconv.js';
import { VERSION } from '../../../src/version.js';
import { approvalEvent, busyPhase, phaseEvent, toolEvent } from '../../support/events.js';

interface Point {
  readonly attributes: Attributes;
  readonly value: number;
  readonly count?: number;
  readonly boundaries?: readonly number[];
}

class Metrics {
  readonly exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  readonly reader = new PeriodicExportingMetricReader({ exporter: this.exporter, exportIntervalMillis: 3_600_000 });
  readonly provider = new MeterProvider({ readers: [this.reader] });

  meter(): Meter {
    return this.provider.getMeter(INSTRUMENTATION_NAME, VERSION);
  }

  async collect(): Promise<Map<string, MetricData>> {
    await this.reader.forceFlush();
    const byName = new Map<string, MetricData>();
    const last = this.exporter.getMetrics().at(-1);
    for (const scope of last?.scopeMetrics ?? []) {
      for (const metric of scope.metrics) byName.set(metric.descriptor.name, metric);
    }
    return byName;
  }

  async points(name: string): Promise<Point[]> {
    const metric = (await this.collect()).get(name);
    if (metric === undefined) return [];
    return metric.dataPoints.map((p): Point => {
      const value = p.value;
      if (typeof value === 'number') return { attributes: p.attributes, value };
      const boundaries = 'buckets' in value && 'boundaries' in value.buckets ? value.buckets.boundaries : undefined;
      const point: Point = { attributes: p.attributes, value: value.sum ?? Number.NaN, count: value.count };
      return boundaries === undefined ? point : { ...point, boundaries };
    });
  }
}

function find(points: Point[], attributes: Attributes): Point | undefined {
  return points.find((p) => sameAttributes(p.attributes, attributes));
}

function sameAttributes(a: Attributes, b: Attributes): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

describe('MetricsHook', () => {
  let m: Metrics;
  beforeEach(() => {
    m = new Metrics();
  });
  afterEach(async () => {
    await m.provider.shutdown();
    metrics.disable();
    diag.disable();
  });

  it('is an observer only: a name and onEvent, no decision methods', () => {
    const hook = new MetricsHook({ meter: m.meter() });
    expect(hook.name).toBe('MetricsHook');
    expect(typeof hook.onEvent).toBe('function');
    expect('beforeTool' in hook || 'afterTool' in hook || 'onError' in hook).toBe(false);
  });

  it('counts tool calls by tool and outcome, without error.type on the counter', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    hook.onEvent(toolEvent({ toolName: 'search', outcome: 'completed' }));
    hook.onEvent(toolEvent({ toolName: 'search', outcome: 'completed' }));
    hook.onEvent(toolEvent({ toolName: 'shell', outcome: 'aborted', errorType: 'HookAbortError', reason: 'rm -rf is not allowed' }));

    const metric = (await m.collect()).get(METRIC_TOOL_CALLS);
    expect(metric?.descriptor.unit).toBe('{call}');
    expect(metric?.dataPointType).toBe(DataPointType.SUM);
    const points = await m.points(METRIC_TOOL_CALLS);
    expect(points).toHaveLength(2);
    expect(find(points, { [ATTR_GEN_AI_TOOL_NAME]: 'search', [ATTR_OUTCOME]: 'completed', [ATTR_GATED]: false })?.value).toBe(2);
    expect(find(points, { [ATTR_GEN_AI_TOOL_NAME]: 'shell', [ATTR_OUTCOME]: 'aborted', [ATTR_GATED]: false })?.value).toBe(1);
  });

  it('flags calls an enforce-mode hook gated, and counts denied calls as their own outcome', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    hook.onEvent(toolEvent({ toolName: 'send_email', outcome: 'completed', gated: true }));
    hook.onEvent(toolEvent({ toolName: 'send_email', outcome: 'denied', gated: true }));
    hook.onEvent(toolEvent({ toolName: 'send_email', outcome: 'completed', gated: false }));
    const points = await m.points(METRIC_TOOL_CALLS);
    expect(points).toHaveLength(3);
    const tool = { [ATTR_GEN_AI_TOOL_NAME]: 'send_email' };
    expect(find(points, { ...tool, [ATTR_OUTCOME]: 'completed', [ATTR_GATED]: true })?.value).toBe(1);
    expect(find(points, { ...tool, [ATTR_OUTCOME]: 'denied', [ATTR_GATED]: true })?.value).toBe(1);
    expect(find(points, { ...tool, [ATTR_OUTCOME]: 'completed', [ATTR_GATED]: false })?.value).toBe(1);
  });

  it('a call recorded without any phase (no gated on its event) is counted without toolhooks.gated: never as ungated', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    const { gated: _gated, ...unphased } = toolEvent({ toolName: 'send_email', outcome: 'failed' });
    hook.onEvent(unphased);
    const points = await m.points(METRIC_TOOL_CALLS);
    expect(points.map((point) => point.attributes)).toEqual([{ [ATTR_GEN_AI_TOOL_NAME]: 'send_email', [ATTR_OUTCOME]: 'failed' }]);
  });

  it('counts approvals by tool, asking hook and outcome, and records the wait in seconds', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    hook.onEvent(approvalEvent({ outcome: 'approved', durationMs: 4200, approver: 'on-call' }));
    hook.onEvent(approvalEvent({ outcome: 'expired', durationMs: 300_000 }));
    hook.onEvent(approvalEvent({ outcome: 'expired', durationMs: 300_000 }));

    const collected = await m.collect();
    expect(collected.get(METRIC_APPROVAL_REQUESTS)?.descriptor.unit).toBe('{request}');
    expect(collected.get(METRIC_APPROVAL_DURATION)?.descriptor.unit).toBe('s');
    const base = { [ATTR_GEN_AI_TOOL_NAME]: 'send_email', [ATTR_HOOK_NAME]: 'mail-gate' };
    const requests = await m.points(METRIC_APPROVAL_REQUESTS);
    expect(find(requests, { ...base, [ATTR_APPROVAL_OUTCOME]: 'approved' })?.value).toBe(1);
    expect(find(requests, { ...base, [ATTR_APPROVAL_OUTCOME]: 'expired' })?.value).toBe(2);
    const durations = await m.points(METRIC_APPROVAL_DURATION);
    const approved = find(durations, { ...base, [ATTR_APPROVAL_OUTCOME]: 'approved' });
    expect(approved).toMatchObject({ value: 4.2, count: 1 });
    expect(approved?.boundaries).toEqual(APPROVAL_DURATION_BUCKETS);
    // The approver's reference is a name from outside: it stays off the metrics (series stay bounded).
    expect(JSON.stringify(requests)).not.toContain('on-call');
  });

  it('records tool durations in seconds with the GenAI bucket boundaries and error.type when present', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    hook.onEvent(toolEvent({ toolName: 'search', durationMs: 250 }));
    hook.onEvent(toolEvent({ toolName: 'fetch', outcome: 'failed', errorType: 'TimeoutError', durationMs: 1500 }));

    const metric = (await m.collect()).get(METRIC_TOOL_DURATION);
    expect(metric?.descriptor.unit).toBe('s');
    expect(metric?.dataPointType).toBe(DataPointType.HISTOGRAM);
    const points = await m.points(METRIC_TOOL_DURATION);
    const tool = { [ATTR_GEN_AI_TOOL_TYPE]: 'function' };
    const ok = find(points, { ...tool, [ATTR_GEN_AI_TOOL_NAME]: 'search', [ATTR_OUTCOME]: 'completed' });
    expect(ok).toMatchObject({ value: 0.25, count: 1 });
    expect(ok?.boundaries).toEqual(TOOL_DURATION_BUCKETS);
    const failed = find(points, { ...tool, [ATTR_GEN_AI_TOOL_NAME]: 'fetch', [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'TimeoutError' });
    expect(failed).toMatchObject({ value: 1.5, count: 1 });
  });

  it('counts every invoked hook decision once, flags the shadowed one, and leaves errors to the error counter', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    hook.onEvent(busyPhase());

    const metric = (await m.collect()).get(METRIC_HOOK_DECISIONS);
    expect(metric?.descriptor.unit).toBe('{decision}');
    const points = await m.points(METRIC_HOOK_DECISIONS);
    const base = { [ATTR_PHASE]: 'before_tool', [ATTR_GEN_AI_TOOL_NAME]: 'search', [ATTR_HOOK_MODE]: 'enforce' };
    expect(points).toHaveLength(3);
    expect(find(points, { ...base, [ATTR_HOOK_NAME]: 'audit', [ATTR_DECISION]: 'continue', [ATTR_DECISION_SHADOWED]: false })?.value).toBe(1);
    expect(find(points, { ...base, [ATTR_HOOK_NAME]: 'cache', [ATTR_DECISION]: 'skip', [ATTR_DECISION_SHADOWED]: false })?.value).toBe(1);
    expect(find(points, { ...base, [ATTR_HOOK_NAME]: 'policy', [ATTR_DECISION]: 'redirect', [ATTR_DECISION_SHADOWED]: true })?.value).toBe(1);

    const errors = await m.points(METRIC_HOOK_ERRORS);
    expect((await m.collect()).get(METRIC_HOOK_ERRORS)?.descriptor.unit).toBe('{error}');
    expect(errors).toEqual([
      expect.objectContaining({
        attributes: { [ATTR_PHASE]: 'before_tool', [ATTR_HOOK_NAME]: 'broken', [ATTR_HOOK_ERROR_KIND]: 'threw', [ATTR_HOOK_MODE]: 'enforce' },
        value: 1,
      }),
    ]);
  });

  it('tells a shadowed decision from an identical winning one by position', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    // Two hooks with the same name and decision: the first wins, the second is shadowed.
    hook.onEvent(
      phaseEvent({
        decision: 'skip',
        winner: 'cache',
        hooks: [
          { hook: 'cache', decision: 'skip', durationMs: 1 },
          { hook: 'cache', decision: 'skip', durationMs: 1, shadowedBy: 'cache' },
        ],
        shadowed: [{ hook: 'cache', decision: 'skip' }],
      }),
    );
    const points = await m.points(METRIC_HOOK_DECISIONS);
    expect(points.map((p) => [p.attributes[ATTR_DECISION_SHADOWED], p.value]).sort()).toEqual([
      [false, 1],
      [true, 1],
    ]);
  });

  it('records every invoked hook duration, errors included, in seconds with small-latency buckets', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    hook.onEvent(busyPhase());
    hook.onEvent(busyPhase({ phase: 'after_tool' }));

    const metric = (await m.collect()).get(METRIC_HOOK_DURATION);
    expect(metric?.descriptor.unit).toBe('s');
    const points = await m.points(METRIC_HOOK_DURATION);
    expect(points).toHaveLength(8);
    expect(points.every((p) => Object.keys(p.attributes).sort().join() === [ATTR_HOOK_NAME, ATTR_PHASE].sort().join())).toBe(true);
    const policy = find(points, { [ATTR_PHASE]: 'before_tool', [ATTR_HOOK_NAME]: 'policy' });
    expect(policy).toMatchObject({ value: 0.004, count: 1 });
    expect(policy?.boundaries).toEqual(HOOK_DURATION_BUCKETS);
    expect(find(points, { [ATTR_PHASE]: 'after_tool', [ATTR_HOOK_NAME]: 'broken' })?.count).toBe(1);
  });

  it('keeps reasons, redirect targets and error messages out of every attribute', async () => {
    const hook = new MetricsHook({ meter: m.meter() });
    hook.onEvent(busyPhase());
    hook.onEvent(toolEvent({ outcome: 'aborted', errorType: 'HookAbortError', reason: 'secret reason' }));
    const values = [...(await m.collect()).values()].flatMap((metric) =>
      metric.dataPoints.flatMap((p) => Object.values(p.attributes)),
    );
    for (const leaked of ['cache hit', 'use the sandbox', 'sandbox_search', 'secret reason', 'cannot read properties of undefined']) {
      expect(values).not.toContain(leaked);
    }
  });

  it('records into the global MeterProvider registered after the hook was built', async () => {
    const hook = new MetricsHook();
    hook.onEvent(toolEvent()); // before registration: a no-op meter, nothing to see
    metrics.setGlobalMeterProvider(m.provider);
    hook.onEvent(toolEvent({ outcome: 'skipped' }));

    const collected = await m.collect();
    const calls = await m.points(METRIC_TOOL_CALLS);
    expect(calls).toEqual([
      expect.objectContaining({ attributes: { [ATTR_GEN_AI_TOOL_NAME]: 'search', [ATTR_OUTCOME]: 'skipped', [ATTR_GATED]: false }, value: 1 }),
    ]);
    expect(m.exporter.getMetrics().at(-1)?.scopeMetrics[0]?.scope).toEqual({ name: INSTRUMENTATION_NAME, version: VERSION, schemaUrl: undefined });
    expect(collected.has(METRIC_TOOL_DURATION)).toBe(true);
  });

  it('never throws: a failing meter or a malformed event is reported once through diag', () => {
    const warn = vi.fn();
    const logger: DiagLogger = { error: vi.fn(), warn, info: vi.fn(), debug: vi.fn(), verbose: vi.fn() };
    diag.setLogger(logger);
    const failingInstrument = {
      add: () => {
        throw new Error('exporter bug');
      },
      record: () => {
        throw new Error('exporter bug');
      },
    };
    const throwingMeter = {
      createCounter: () => failingInstrument,
      createHistogram: () => failingInstrument,
    } as unknown as Meter;
    const hook = new MetricsHook({ meter: throwingMeter });
    expect(() => hook.onEvent(toolEvent())).not.toThrow();
    expect(() => hook.onEvent(busyPhase())).not.toThrow();
    const healthy = new MetricsHook({ meter: m.meter() });
    expect(() => healthy.onEvent({ type: 'phase' } as never)).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2); // once per hook instance
    expect(String(warn.mock.calls[0]?.[0])).toContain('MetricsHook could not record an event');
  });
});
