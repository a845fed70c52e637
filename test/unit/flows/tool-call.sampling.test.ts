/**
 * Sampling keeps traces whole: a sampled-out execute_tool (or phase) span is still the active span for
 * the hooks and the tool, so a parent-based sampler gives their own spans the same decision.
 */
import type { Attributes, Context, Link, SpanKind, Tracer } from '@opentelemetry/api';
import { context, trace } from '@opentelemetry/api';
import type { ReadableSpan, Sampler, SamplingResult } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter, ParentBasedSampler, SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { HookRunner, executeTool } from '../../../src/index.js';
import { installContextManager } from '../../support/tracing.js';
import { newTracerProvider, simpleSpanProcessor } from '../../support/sdk.js';
import type { TestTracerProvider } from '../../support/sdk.js';

const TOOL_INNER = 'tool.inner';
const HOOK_BEFORE_INNER = 'hook.before.inner';
const HOOK_AFTER_INNER = 'hook.after.inner';

interface Pipeline {
  readonly provider: TestTracerProvider;
  readonly exporter: InMemorySpanExporter;
  readonly tracer: Tracer;
}

const providers: TestTracerProvider[] = [];

function pipeline(sampler: Sampler): Pipeline {
  installContextManager();
  const exporter = new InMemorySpanExporter();
  const provider = newTracerProvider({ sampler, spanProcessors: [simpleSpanProcessor(exporter)] });
  providers.push(provider);
  return { provider, exporter, tracer: provider.getTracer('app') };
}

afterEach(async () => {
  await Promise.all(providers.splice(0).map((provider) => provider.shutdown()));
});

/** A runner with one hook that starts a span of its own in before_tool and after_tool (under the active span). */
function runnerWithSpanningHook(p: Pipeline): HookRunner {
  const hook: ToolHook = {
    name: 'spanning',
    beforeTool() {
      p.tracer.startSpan(HOOK_BEFORE_INNER).end();
    },
    afterTool() {
      p.tracer.startSpan(HOOK_AFTER_INNER).end();
    },
  };
  return new HookRunner({ hooks: [hook], tracer: p.provider.getTracer('toolhooks') });
}

/** A tool that starts its own span, as an instrumented HTTP or DB client would, across an await. */
function spanningTool(p: Pipeline): () => Promise<string> {
  return async () => {
    await Promise.resolve();
    p.tracer.startSpan(TOOL_INNER).end();
    return 'ok';
  };
}

function byId(spans: readonly ReadableSpan[]): Map<string, ReadableSpan> {
  return new Map(spans.map((span) => [span.spanContext().spanId, span]));
}

function parentOf(span: ReadableSpan, index: Map<string, ReadableSpan>): ReadableSpan | undefined {
  const parent = span.parentSpanContext;
  return parent === undefined ? undefined : index.get(parent.spanId);
}

describe('ParentBased(TraceIdRatio(0.5)), 200 calls', () => {
  it('every recorded inner span has its recorded execute_tool / phase parent in the same trace', async () => {
    const p = pipeline(new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.5) }));
    const runner = runnerWithSpanningHook(p);
    const execute = spanningTool(p);
    const calls = 200;
    for (let i = 0; i < calls; i += 1) {
      await executeTool({ hooks: runner, toolName: 'search', args: { i }, execute });
    }
    const spans = p.exporter.getFinishedSpans();
    const index = byId(spans);
    const named = (name: string): ReadableSpan[] => spans.filter((span) => span.name === name);
    const executeTool_ = named('execute_tool search');
    const inner = [...named(TOOL_INNER), ...named(HOOK_BEFORE_INNER), ...named(HOOK_AFTER_INNER)];

    const expectedParent: Record<string, string> = {
      [TOOL_INNER]: 'toolhooks.execute',
      [HOOK_BEFORE_INNER]: 'toolhooks.before_tool',
      [HOOK_AFTER_INNER]: 'toolhooks.after_tool',
    };
    for (const span of inner) {
      const parent = parentOf(span, index);
      expect(parent?.name, `${span.name} recorded without its parent`).toBe(expectedParent[span.name]);
      expect(parent?.spanContext().traceId).toBe(span.spanContext().traceId);
      const call = parent === undefined ? undefined : parentOf(parent, index);
      expect(call?.name).toBe('execute_tool search');
    }
    // One of each inner span per recorded call, none elsewhere.
    expect(named(TOOL_INNER)).toHaveLength(executeTool_.length);
    expect(named(HOOK_BEFORE_INNER)).toHaveLength(executeTool_.length);
    expect(named(HOOK_AFTER_INNER)).toHaveLength(executeTool_.length);
    const callTraces = new Set(executeTool_.map((span) => span.spanContext().traceId));
    expect(callTraces.size).toBe(executeTool_.length);
    for (const span of inner) expect(callTraces.has(span.spanContext().traceId)).toBe(true);
    // Roughly half the calls sampled (binomial, n=200, p=0.5: 60..140 fails with probability < 1e-8).
    expect(executeTool_.length).toBeGreaterThan(60);
    expect(executeTool_.length).toBeLessThan(140);
    process.stdout.write(
      `sampling: ${calls} calls, ${executeTool_.length} execute_tool recorded, ${inner.length} inner spans recorded ` +
        `(${named(TOOL_INNER).length} tool, ${named(HOOK_BEFORE_INNER).length + named(HOOK_AFTER_INNER).length} hook), ` +
        `${spans.length} spans in all\n`,
    );
  });
});

/** Records every span except the ones named `drop`; children follow their parent (parent-based). */
class DropByName implements Sampler {
  constructor(private readonly drop: string) {}

  shouldSample(ctx: Context, _traceId: string, name: string, _kind: SpanKind, _attributes: Attributes, _links: Link[]): SamplingResult {
    const parent = trace.getSpanContext(ctx);
    if (name === this.drop) return { decision: SamplingDecision.NOT_RECORD };
    if (parent !== undefined && (parent.traceFlags & 1) === 0) return { decision: SamplingDecision.NOT_RECORD };
    return { decision: SamplingDecision.RECORD_AND_SAMPLED };
  }

  toString(): string {
    return `DropByName(${this.drop})`;
  }
}

describe('a sampler that drops one kind of span', () => {
  it('a dropped before_tool phase span takes its hook\'s spans with it; the rest of the call is recorded', async () => {
    const p = pipeline(new DropByName('toolhooks.before_tool'));
    await executeTool({ hooks: runnerWithSpanningHook(p), toolName: 'search', args: {}, execute: spanningTool(p) });
    const spans = p.exporter.getFinishedSpans();
    const names = spans.map((span) => span.name).sort();
    expect(names).toEqual(['execute_tool search', HOOK_AFTER_INNER, TOOL_INNER, 'toolhooks.after_tool', 'toolhooks.execute'].sort());
    const index = byId(spans);
    const hookInner = spans.find((span) => span.name === HOOK_AFTER_INNER);
    expect(hookInner === undefined ? undefined : parentOf(hookInner, index)?.name).toBe('toolhooks.after_tool');
  });

  it('a dropped execute_tool span: nothing of the call is recorded, and the trace id is shared', async () => {
    const p = pipeline(new DropByName('execute_tool search'));
    const seen: string[] = [];
    const hook: ToolHook = {
      beforeTool() {
        const span = p.tracer.startSpan(HOOK_BEFORE_INNER);
        seen.push(span.spanContext().traceId);
        span.end();
      },
    };
    const runner = new HookRunner({ hooks: [hook], tracer: p.provider.getTracer('toolhooks') });
    const execute = async (): Promise<string> => {
      const span = p.tracer.startSpan(TOOL_INNER);
      seen.push(span.spanContext().traceId);
      span.end();
      return 'ok';
    };
    await expect(executeTool({ hooks: runner, toolName: 'search', args: {}, execute })).resolves.toBe('ok');
    expect(p.exporter.getFinishedSpans().map((span) => span.name)).toEqual([]);
    // Both inner spans were children of the (sampled-out) call: one trace.
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
  });
});

describe('a dropped execute_tool span around a synchronous tool (the call settles without an async frame)', () => {
  it('keeps the dropped span active for the hooks and the tool: their spans share its trace id', async () => {
    const p = pipeline(new DropByName('execute_tool search'));
    const seen: string[] = [];
    const inner = (name: string): void => {
      const span = p.tracer.startSpan(name);
      seen.push(span.spanContext().traceId);
      span.end();
    };
    const runner = new HookRunner({ hooks: [{ name: 'look', beforeTool: () => inner(HOOK_BEFORE_INNER) }], tracer: p.provider.getTracer('toolhooks') });
    const execute = (): string => {
      inner(TOOL_INNER);
      return 'ok';
    };
    await expect(executeTool({ hooks: runner, toolName: 'search', args: {}, execute })).resolves.toBe('ok');
    expect(p.exporter.getFinishedSpans().map((span) => span.name)).toEqual([]);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
  });
});

describe('under a parent the sampler dropped', () => {
  it('starts no span of its own, keeps the parent active for hooks and tool, and still tells observers', async () => {
    // AlwaysOn would record any span started here: what is recorded is exactly what toolhooks chose to start.
    const alwaysOn: Sampler = { shouldSample: () => ({ decision: SamplingDecision.RECORD_AND_SAMPLED }), toString: () => 'AlwaysOn' };
    const p = pipeline(alwaysOn);
    const outcomes: string[] = [];
    let activeInTool: string | undefined;
    const hooks = new HookRunner({
      hooks: [{ name: 'noop', beforeTool: () => undefined }, { name: 'obs', onEvent: (event) => event.type === 'tool' && outcomes.push(event.outcome) }],
      tracer: p.provider.getTracer('toolhooks'),
    });
    const dropped = trace.wrapSpanContext({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 0 });
    const result = await context.with(trace.setSpan(context.active(), dropped), () =>
      executeTool({
        hooks,
        toolName: 'search',
        args: {},
        execute: () => {
          activeInTool = trace.getActiveSpan()?.spanContext().spanId;
          return 'ok';
        },
      }),
    );
    expect(result).toBe('ok');
    expect(p.exporter.getFinishedSpans()).toEqual([]);
    expect(activeInTool).toBe('00f067aa0ba902b7');
    expect(outcomes).toEqual(['completed']);
  });

  it('records the call as usual under a parent that records', async () => {
    const alwaysOn: Sampler = { shouldSample: () => ({ decision: SamplingDecision.RECORD_AND_SAMPLED }), toString: () => 'AlwaysOn' };
    const p = pipeline(alwaysOn);
    const hooks = new HookRunner({ hooks: [{ name: 'noop', beforeTool: () => undefined }], tracer: p.provider.getTracer('toolhooks') });
    const parent = p.tracer.startSpan('agent.request');
    await context.with(trace.setSpan(context.active(), parent), () => executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'ok' }));
    parent.end();
    const names = p.exporter.getFinishedSpans().map((span) => span.name);
    expect(names).toEqual(expect.arrayContaining(['execute_tool search', 'toolhooks.before_tool', 'toolhooks.execute', 'agent.request']));
  });
});
