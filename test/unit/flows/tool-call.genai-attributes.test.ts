/**
 * GenAI conventions on the execute_tool span and the gen_ai.execute_tool.duration metric: the
 * sampling-relevant attributes, `gen_ai.tool.description` and `gen_ai.agent.name` are given at span
 * start (a sampler sees them), the flow's agent name wins over the runner's, and the metric carries
 * the agent name and the tool type.
 */
import type { Attributes, Context, Link, SpanKind } from '@opentelemetry/api';
import type { ReadableSpan, Sampler, SamplingResult } from '@opentelemetry/sdk-trace';
import { AlwaysOffSampler, InMemorySpanExporter, SamplingDecision } from '@opentelemetry/sdk-trace';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsHook } from '../../../src/hooks/index.js';
import type { HookRunnerOptions } from '../../../src/index.js';
import { HookRunner, executeTool } from '../../../src/index.js';
import { installContextManager } from '../../support/tracing.js';
import { newTracerProvider, simpleSpanProcessor } from '../../support/sdk.js';
import type { TestTracerProvider } from '../../support/sdk.js';

/** Records what every span looked like when the sampler was asked about it, then samples it in (or as `inner` says). */
class CapturingSampler implements Sampler {
  readonly seen: { name: string; attributes: Attributes }[] = [];

  constructor(private readonly inner?: Sampler) {}

  shouldSample(ctx: Context, traceId: string, name: string, kind: SpanKind, attributes: Attributes, links: Link[]): SamplingResult {
    this.seen.push({ name, attributes: { ...attributes } });
    return this.inner?.shouldSample(ctx, traceId, name, kind, attributes, links) ?? { decision: SamplingDecision.RECORD_AND_SAMPLED };
  }

  atStart(name: string): Attributes[] {
    return this.seen.filter((s) => s.name === name).map((s) => s.attributes);
  }

  toString(): string {
    return 'CapturingSampler';
  }
}

/** A metric reader read on demand. */
class OnDemandReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }

  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function tracing(inner?: Sampler): { sampler: CapturingSampler; exporter: InMemorySpanExporter; provider: TestTracerProvider } {
  installContextManager();
  const sampler = new CapturingSampler(inner);
  const exporter = new InMemorySpanExporter();
  const provider = newTracerProvider({ sampler, spanProcessors: [simpleSpanProcessor(exporter)] });
  cleanups.push(() => provider.shutdown());
  return { sampler, exporter, provider };
}

function runner(provider: TestTracerProvider, options: Omit<HookRunnerOptions, 'tracer' | 'hooks'> = {}, hooks: HookRunnerOptions['hooks'] = []): HookRunner {
  return new HookRunner({ ...options, hooks: [{ name: 'noop', beforeTool: () => undefined }, ...hooks], tracer: provider.getTracer('toolhooks') });
}

function onlySpan(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0] as ReadableSpan;
}

describe('execute_tool span attributes at start', () => {
  it('a sampler sees operation, tool name and type, description, agent name and call id', async () => {
    const { sampler, exporter, provider } = tracing();
    await executeTool({
      hooks: runner(provider),
      toolName: 'search',
      args: { q: 'x' },
      execute: () => 'ok',
      toolDescription: 'searches the web',
      agentName: 'support-bot',
      callId: 'call-1',
    });
    const expected = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'searches the web',
      'gen_ai.agent.name': 'support-bot',
      'gen_ai.tool.call.id': 'call-1',
    };
    expect(sampler.atStart('execute_tool search')).toEqual([expected]);
    expect(onlySpan(exporter.getFinishedSpans(), 'execute_tool search').attributes).toMatchObject(expected);
  });

  it('the flow\'s agentName wins over the runner\'s; the runner\'s is used when the flow has none', async () => {
    const { sampler, exporter, provider } = tracing();
    const hooks = runner(provider, { agentName: 'runner-bot' });
    await executeTool({ hooks, toolName: 'a', args: {}, execute: () => 1, agentName: 'flow-bot' });
    await executeTool({ hooks, toolName: 'b', args: {}, execute: () => 1 });
    expect(sampler.atStart('execute_tool a')[0]?.['gen_ai.agent.name']).toBe('flow-bot');
    expect(sampler.atStart('execute_tool b')[0]?.['gen_ai.agent.name']).toBe('runner-bot');
    const spans = exporter.getFinishedSpans();
    expect(onlySpan(spans, 'execute_tool a').attributes['gen_ai.agent.name']).toBe('flow-bot');
    expect(onlySpan(spans, 'execute_tool b').attributes['gen_ai.agent.name']).toBe('runner-bot');
  });

  it('no description and no agent name: neither attribute is set', async () => {
    const { sampler, exporter, provider } = tracing();
    await executeTool({ hooks: runner(provider), toolName: 'plain', args: {}, execute: () => 1 });
    const [atStart] = sampler.atStart('execute_tool plain');
    expect(atStart).not.toHaveProperty('gen_ai.tool.description');
    expect(atStart).not.toHaveProperty('gen_ai.agent.name');
    expect(onlySpan(exporter.getFinishedSpans(), 'execute_tool plain').attributes).not.toHaveProperty('gen_ai.agent.name');
  });

  it('toolhooks.hook.errors counts the swallowed hook failures of the call', async () => {
    const { exporter, provider } = tracing();
    const failing = {
      name: 'failing',
      beforeTool(): never {
        throw new Error('boom');
      },
      afterTool: () => 'junk' as never,
    };
    await executeTool({ hooks: runner(provider, {}, [failing]), toolName: 'bad', args: {}, execute: () => 1 });
    await executeTool({ hooks: runner(provider), toolName: 'good', args: {}, execute: () => 1 });
    const spans = exporter.getFinishedSpans();
    expect(onlySpan(spans, 'execute_tool bad').attributes['toolhooks.hook.errors']).toBe(2);
    expect(onlySpan(spans, 'execute_tool good').attributes['toolhooks.hook.errors']).toBe(0);
  });
});

describe('gen_ai.execute_tool.duration', () => {
  async function durationPoints(options: { sampledOut: boolean }): Promise<Attributes[]> {
    const reader = new OnDemandReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    cleanups.push(() => meterProvider.shutdown());
    const { provider } = tracing(options.sampledOut ? new AlwaysOffSampler() : undefined);
    const metricsHook = new MetricsHook({ meter: meterProvider.getMeter('toolhooks') });
    const hooks = runner(provider, { agentName: 'runner-bot' }, [metricsHook]);
    await executeTool({ hooks, toolName: 'search', args: {}, execute: () => 1, agentName: 'flow-bot' });
    await executeTool({ hooks, toolName: 'fetch', args: {}, execute: () => 1 });
    const { resourceMetrics } = await reader.collect();
    const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'gen_ai.execute_tool.duration');
    return (metric?.dataPoints ?? []).map((point) => point.attributes);
  }

  it('carries gen_ai.agent.name (the flow\'s winning) and gen_ai.tool.type', async () => {
    const points = await durationPoints({ sampledOut: false });
    expect(points).toHaveLength(2);
    expect(points).toContainEqual(expect.objectContaining({ 'gen_ai.tool.name': 'search', 'gen_ai.tool.type': 'function', 'gen_ai.agent.name': 'flow-bot' }));
    expect(points).toContainEqual(expect.objectContaining({ 'gen_ai.tool.name': 'fetch', 'gen_ai.tool.type': 'function', 'gen_ai.agent.name': 'runner-bot' }));
  });

  it('is recorded for calls the sampler drops too', async () => {
    const points = await durationPoints({ sampledOut: true });
    expect(points.map((p) => p['gen_ai.agent.name']).sort()).toEqual(['flow-bot', 'runner-bot']);
  });
});
