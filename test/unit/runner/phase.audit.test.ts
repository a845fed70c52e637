/**
 * Audit mode: an audit hook runs in its place and is recorded everywhere a user looks — span events,
 * observer records, metrics, logs, the tree printer — while the call goes exactly as without it.
 */
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PhaseEvent, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, executeTool, skip } from '../../../src/index.js';
import { LoggingHook, MetricsHook } from '../../../src/hooks/index.js';
import { TreeSpanExporter } from '../../../src/node/index.js';
import {
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISIONS_SHADOWED,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  METRIC_HOOK_DECISIONS,
  METRIC_HOOK_ERRORS,
  SPAN_BEFORE_TOOL,
} from '../../../src/telemetry/semconv.js';
import { createTestTracing, eventsOf } from '../../support/tracing.js';

const tracing = createTestTracing();

const policyV2: ToolHook = { name: 'policy-v2', mode: 'audit', beforeTool: (_tool, args) => (args.cmd === 'rm' ? abort('v2 refuses rm') : undefined) };
const cache: ToolHook = { name: 'cache', beforeTool: () => skip('cached', 'stub') };

describe('an audit hook', () => {
  it('never takes effect: its Abort neither stops later hooks nor the call, and it shadows nothing', async () => {
    tracing.reset();
    const ran: string[] = [];
    const later: ToolHook = { name: 'later', beforeTool: () => void ran.push('later') };
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [policyV2, later] });
    await expect(executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' })).resolves.toBe('ran');
    expect(ran).toEqual(['later']);
    const [phase] = tracing.spansNamed(SPAN_BEFORE_TOOL);
    expect(phase?.attributes[ATTR_DECISION]).toBe('continue');
    expect(phase?.attributes[ATTR_DECISION_HOOK]).toBeUndefined();
    const decisions = eventsOf(phase!, EVENT_HOOK_DECISION);
    expect(decisions.map((e) => [e.attributes[ATTR_HOOK_NAME], e.attributes[ATTR_DECISION], e.attributes[ATTR_HOOK_MODE]])).toEqual([
      ['policy-v2', 'abort', 'audit'],
      ['later', 'continue', undefined],
    ]);
  });

  it('is never shadowed and shadows nothing, even when it decides first', async () => {
    tracing.reset();
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [{ ...policyV2, beforeTool: () => skip('v2 would cache') }, cache] });
    await expect(executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'ran' })).resolves.toBe('stub');
    const [phase] = tracing.spansNamed(SPAN_BEFORE_TOOL);
    expect(phase?.attributes[ATTR_DECISION_HOOK]).toBe('cache');
    expect(phase?.attributes[ATTR_DECISIONS_SHADOWED]).toBe(0);
    expect(eventsOf(phase!, EVENT_HOOK_DECISION_SHADOWED)).toEqual([]);
  });

  it('fails without aborting even when fail-closed, and its error event carries the mode', async () => {
    tracing.reset();
    const broken: ToolHook = {
      name: 'v2-broken',
      mode: 'audit',
      failureMode: 'closed',
      beforeTool: () => {
        throw new Error('policy service down');
      },
    };
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [broken] });
    await expect(executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 'ran' })).resolves.toBe('ran');
    const [phase] = tracing.spansNamed(SPAN_BEFORE_TOOL);
    const [error] = eventsOf(phase!, EVENT_HOOK_ERROR);
    expect(error?.attributes[ATTR_HOOK_MODE]).toBe('audit');
    // What a fail-closed hook would have made of it, recorded, not enforced.
    expect(eventsOf(phase!, EVENT_HOOK_DECISION)[0]?.attributes[ATTR_DECISION]).toBe('abort');
    expect(phase?.attributes[ATTR_DECISION]).toBe('continue');
  });

  it('does not change an enforced Abort that follows it', async () => {
    const hooks = new HookRunner([policyV2, { name: 'gate', beforeTool: () => abort('no') }]);
    const error = await executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookAbortError);
    expect((error as HookAbortError).sourceHook).toBe('gate');
  });

  it('shows its mode to observers on its hook record and its failures', async () => {
    const phases: PhaseEvent[] = [];
    const observer: ToolHook = { name: 'obs', onEvent: (event: ToolHookEvent) => void (event.type === 'phase' && phases.push(event)) };
    const throwing: ToolHook = { name: 'v2-throws', mode: 'audit', beforeTool: () => Promise.reject(new Error('x')) };
    const hooks = new HookRunner([policyV2, cache, throwing, observer]);
    await executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' });
    const [before] = phases;
    expect(before?.hooks.map((r) => [r.hook, r.decision, r.mode, r.shadowedBy])).toEqual([
      ['policy-v2', 'abort', 'audit', undefined],
      ['cache', 'skip', 'enforce', undefined],
      ['v2-throws', 'error', 'audit', undefined],
    ]);
    expect(before?.errors.map((f) => [f.hook, f.mode])).toEqual([['v2-throws', 'audit']]);
    expect(before?.decision).toBe('skip');
    expect(before?.winner).toBe('cache');
  });

  it("is counted by MetricsHook with toolhooks.hook.mode, so 'would abort' is one query", async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const failing: ToolHook = { name: 'v2-throws', mode: 'audit', beforeTool: () => Promise.reject(new Error('x')) };
    const hooks = new HookRunner([policyV2, failing, new MetricsHook({ meter: provider.getMeter('t') })]);
    await executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' });
    await reader.forceFlush();
    const all = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    const decisions = all.find((m) => m.descriptor.name === METRIC_HOOK_DECISIONS);
    expect(decisions?.dataPointType).toBe(DataPointType.SUM);
    expect(decisions?.dataPoints.map((p) => [p.attributes[ATTR_HOOK_NAME], p.attributes[ATTR_DECISION], p.attributes[ATTR_HOOK_MODE], p.value])).toEqual([
      ['policy-v2', 'abort', 'audit', 1],
    ]);
    const errors = all.find((m) => m.descriptor.name === METRIC_HOOK_ERRORS);
    expect(errors?.dataPoints.map((p) => [p.attributes[ATTR_HOOK_NAME], p.attributes[ATTR_HOOK_MODE]])).toEqual([['v2-throws', 'audit']]);
    await provider.shutdown();
  });

  it("is logged by LoggingHook as 'hook would abort' with hook, tool and reason", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const hooks = new HookRunner([policyV2, new LoggingHook({ logger })]);
    await executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' });
    const audit = lines.filter((line) => line.msg === 'hook would abort');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      'toolhooks.hook.name': 'policy-v2',
      'gen_ai.tool.name': 'shell',
      'toolhooks.decision.reason': 'v2 refuses rm',
      'toolhooks.hook.mode': 'audit',
    });
    expect(lines.some((line) => line.msg === 'hook decided abort')).toBe(false);
  });

  it('is marked in the tree printer', async () => {
    tracing.reset();
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [policyV2] });
    await executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' });
    const written: string[] = [];
    const exporter = new TreeSpanExporter({ write: (text) => void written.push(text), color: false });
    exporter.export(tracing.spans(), () => undefined);
    await exporter.forceFlush();
    expect(written.join('')).toMatch(/◦ policy-v2: would abort "v2 refuses rm" \(\d+\.\d\d ms\) \[audit\]/);
    expect(written.join('')).toContain('outcome=completed');
  });
});

describe('audit hooks see all traffic', () => {
  const live: ToolHook = { name: 'live', beforeTool: (_tool, args) => (args.cmd === 'rm' ? abort('live refuses rm') : undefined) };

  it('an audit hook registered after an enforced hook that aborted still runs, before the Abort is raised', async () => {
    tracing.reset();
    const ran: string[] = [];
    const events: ToolHookEvent[] = [];
    const laterGate: ToolHook = { name: 'later-gate', beforeTool: () => void ran.push('later-gate') };
    const audit: ToolHook = {
      name: 'policy-v3',
      mode: 'audit',
      beforeTool: (_tool, args) => {
        ran.push('policy-v3');
        return args.cmd === 'rm' ? abort('v3 refuses rm') : undefined;
      },
    };
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [live, laterGate, audit, { name: 'obs', onEvent: (e) => void events.push(e) }] });
    const rejection = executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' });
    await expect(rejection).rejects.toBeInstanceOf(HookAbortError);
    await expect(rejection).rejects.toThrow('live refuses rm');
    expect(ran).toEqual(['policy-v3']);
    const [phase] = tracing.spansNamed(SPAN_BEFORE_TOOL);
    const decisions = eventsOf(phase!, EVENT_HOOK_DECISION).map((event) => [event.attributes[ATTR_HOOK_NAME], event.attributes[ATTR_DECISION], event.attributes[ATTR_HOOK_MODE]]);
    expect(decisions).toEqual([
      ['live', 'abort', undefined],
      ['policy-v3', 'abort', 'audit'],
    ]);
    expect(phase?.attributes[ATTR_DECISION_HOOK]).toBe('live');
    const phaseEvent = events.find((e): e is PhaseEvent => e.type === 'phase');
    expect(phaseEvent?.winner).toBe('live');
    expect(phaseEvent?.hooks.map((record) => [record.hook, record.decision, record.mode])).toEqual([
      ['live', 'abort', 'enforce'],
      ['policy-v3', 'abort', 'audit'],
    ]);
  });

  it('an asynchronous audit hook after a synchronous Abort is awaited before the Abort is raised', async () => {
    let audited = false;
    const slowAudit: ToolHook = {
      name: 'slow-audit',
      mode: 'audit',
      beforeTool: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        audited = true;
      },
    };
    const hooks = new HookRunner([live, slowAudit]);
    await expect(executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' })).rejects.toBeInstanceOf(HookAbortError);
    expect(audited).toBe(true);
  });

  it('an audit hook that fails after the Abort changes nothing: the Abort is raised as decided', async () => {
    const broken: ToolHook = {
      name: 'broken-audit',
      mode: 'audit',
      failureMode: 'closed',
      beforeTool: () => {
        throw new Error('audit bug');
      },
    };
    const hooks = new HookRunner([live, broken]);
    await expect(executeTool({ hooks, toolName: 'shell', args: { cmd: 'rm' }, execute: () => 'ran' })).rejects.toThrow('live refuses rm');
  });
});
