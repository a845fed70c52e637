/**
 * A limit hook's telemetry through the real runner, MetricsHook and LoggingHook: its decision events carry
 * the limit's attributes, `toolhooks.limit.exceeded` counts each call a limit stopped, and the key (a
 * user or session id) appears in no exported span, event, metric or log.
 */
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { LoggingHook, MetricsHook } from '../../../src/hooks/index.js';
import { limitHook } from '../../../src/limits/index.js';
import { ATTR_GEN_AI_TOOL_NAME, ATTR_HOOK_NAME, METRIC_LIMIT_EXCEEDED } from '../../../src/telemetry/semconv.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
const SECRET_KEY = 'session-5b9d1c-alice@example.com';

describe('limit telemetry', () => {
  it('counts stopped calls in toolhooks.limit.exceeded and never records the key anywhere', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const lines: string[] = [];
    const logger = pino({}, { write: (line: string) => void lines.push(line) });
    const hooks = new HookRunner<{ session: string }>({
      tracer: tracing.tracer,
      hooks: [
        limitHook({ name: 'would_rate', limit: 1, mode: 'audit', key: (_t, _a, s) => s.session }),
        limitHook({ name: 'send_email', tools: ['send_email'], limit: 2, windowMs: 60_000, key: (_t, _a, s) => s.session }),
        limitHook({ name: 'skipper', tools: ['search'], limit: 1, onExceeded: 'skip', key: (_t, _a, s) => s.session }),
        new MetricsHook({ meter: provider.getMeter('toolhooks') }),
        new LoggingHook({ logger }),
      ],
    });
    const run = (toolName: string) => executeTool({ hooks, toolName, args: { body: 'hi' }, state: { session: SECRET_KEY }, execute: () => 'ok' }).catch(() => 'aborted');
    for (let i = 0; i < 4; i += 1) await run('send_email');
    await run('search');
    await run('search');

    await reader.forceFlush();
    const metrics = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    const exceeded = metrics.find((m) => m.descriptor.name === METRIC_LIMIT_EXCEEDED);
    expect(exceeded?.descriptor.unit).toBe('{call}');
    expect(exceeded?.dataPoints.map((p) => [p.attributes[ATTR_HOOK_NAME], p.attributes[ATTR_GEN_AI_TOOL_NAME], p.value])).toEqual([
      ['send_email', 'send_email', 2],
      ['skipper', 'search', 1],
    ]);

    const everything = JSON.stringify({
      spans: tracing.spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })),
      metrics,
      logs: lines,
    });
    expect(everything).toContain('toolhooks.limit.used');
    expect(everything).not.toContain(SECRET_KEY);
    expect(everything).not.toContain('alice');
    await provider.shutdown();
  });
});
