/**
 * Load and concurrency (issue 6): 1,000 concurrent executeTool calls whose hooks await random delays
 * and issue every kind of decision. Every call gets its own result and a complete, correctly parented
 * trace. The 100k-call heap soak runs in its own process (it needs `--expose-gc`): bench/soak.ts.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import type { Executor, HookContext, HookDecision, Outcome, ToolEvent, ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, executeTool, redirect, skip } from '../../../src/index.js';
import {
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_HOOK_ERROR_KIND,
  ATTR_OUTCOME,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
  SPAN_ON_ERROR,
} from '../../../src/telemetry/semconv.js';
import type { SoakReport } from '../../../bench/soak.js';
import { createTestTracing, eventsOf } from '../../support/tracing.js';

const CALLS = 1_000;
const TOOL_SPAN = 'tool.work';

/** Deterministic randomness, so a failing run can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(0x70015);
const delay = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 6)));

class ToolFailure extends Error {
  override name = 'ToolFailure';
}

type Scenario =
  | 'continue'
  | 'skip'
  | 'redirect-args'
  | 'redirect-tool'
  | 'abort-before'
  | 'fail-continue'
  | 'fail-skip'
  | 'fail-retry'
  | 'fail-abort'
  | 'after-reexecute'
  | 'after-abort'
  | 'hook-throws'
  | 'hook-timeout'
  | 'shadowed';

/** What one call must produce: its result (or error), outcome, and the phase/execute spans under its root, in order. */
interface Expected {
  readonly result?: unknown;
  readonly error?: { readonly type: 'abort' | 'tool'; readonly reason?: string };
  readonly outcome: Outcome;
  readonly children: readonly string[];
  readonly retries?: number;
  readonly reexecutions?: number;
  readonly hookError?: 'threw' | 'timeout';
}

const B = SPAN_BEFORE_TOOL;
const A = SPAN_AFTER_TOOL;
const E = SPAN_EXECUTE;
const O = SPAN_ON_ERROR;

function expected(scenario: Scenario, n: number): Expected {
  const ran = (tool: string, attempt: number, extra: Record<string, unknown> = {}): unknown => ({ tool, attempt, n, ...extra });
  switch (scenario) {
    case 'continue':
      return { result: ran('search', 1), outcome: 'completed', children: [B, E, A] };
    case 'skip':
      return { result: `cached ${n}`, outcome: 'skipped', children: [B, A] };
    case 'redirect-args':
      return { result: ran('search', 1, { limit: 5 }), outcome: 'completed', children: [B, E, A] };
    case 'redirect-tool':
      return { result: ran('sandbox_search', 1), outcome: 'completed', children: [B, E, A] };
    case 'abort-before':
      return { error: { type: 'abort', reason: `refused ${n}` }, outcome: 'aborted', children: [B] };
    case 'fail-continue':
      return { error: { type: 'tool' }, outcome: 'failed', children: [B, E, O] };
    case 'fail-skip':
      return { result: `fallback ${n}`, outcome: 'recovered', children: [B, E, O] };
    case 'fail-retry':
      return { result: ran('search', 2, { fixed: true }), outcome: 'recovered', children: [B, E, O, E, A], retries: 1 };
    case 'fail-abort':
      return { error: { type: 'abort', reason: `give up ${n}` }, outcome: 'aborted', children: [B, E, O] };
    case 'after-reexecute':
      return { result: ran('search', 2, { again: true }), outcome: 'completed', children: [B, E, A, E, A], reexecutions: 1 };
    case 'after-abort':
      return { error: { type: 'abort', reason: `bad result ${n}` }, outcome: 'aborted', children: [B, E, A] };
    case 'hook-throws':
      return { result: ran('search', 1), outcome: 'completed', children: [B, E, A], hookError: 'threw' };
    case 'hook-timeout':
      return { result: ran('search', 1), outcome: 'completed', children: [B, E, A], hookError: 'timeout' };
    case 'shadowed':
      return { result: ran('search', 1, { limit: 1 }), outcome: 'completed', children: [B, E, A] };
  }
}

const SCENARIOS: readonly Scenario[] = [
  'continue',
  'skip',
  'redirect-args',
  'redirect-tool',
  'abort-before',
  'fail-continue',
  'fail-skip',
  'fail-retry',
  'fail-abort',
  'after-reexecute',
  'after-abort',
  'hook-throws',
  'hook-timeout',
  'shadowed',
];

const scenarioOf = (args: Record<string, unknown>): Scenario => args.scenario as Scenario;
const nOf = (args: Record<string, unknown>): number => args.n as number;

/** The policy hook: awaits a random delay in every phase, then decides from the call's scenario. */
const policy: ToolHook = {
  name: 'policy',
  async beforeTool(_tool, args): Promise<HookDecision | void> {
    await delay();
    const n = nOf(args);
    switch (scenarioOf(args)) {
      case 'skip':
        return skip('cache hit', `cached ${n}`);
      case 'redirect-args':
        return redirect({ newArgs: { limit: 5 }, reason: 'cap results' });
      case 'redirect-tool':
        return redirect({ newTool: 'sandbox_search', reason: 'sandbox' });
      case 'abort-before':
        return abort(`refused ${n}`);
      case 'shadowed':
        return redirect({ newArgs: { limit: 1 } });
      default:
        return undefined;
    }
  },
  async afterTool(_tool, args, _result, _state, _duration, ctx: HookContext): Promise<HookDecision | void> {
    await delay();
    if (scenarioOf(args) === 'after-reexecute' && ctx.attempt === 1) return redirect({ newArgs: { again: true } });
    if (scenarioOf(args) === 'after-abort') return abort(`bad result ${nOf(args)}`);
    return undefined;
  },
  async onError(_tool, args): Promise<HookDecision | void> {
    await delay();
    const n = nOf(args);
    switch (scenarioOf(args)) {
      case 'fail-skip':
        return skip('fallback', `fallback ${n}`);
      case 'fail-retry':
        return redirect({ newArgs: { fixed: true } });
      case 'fail-abort':
        return abort(`give up ${n}`);
      default:
        return undefined;
    }
  },
};

/** A second hook: sync in some phases, throws for one scenario, and is shadowed in another. */
const audit: ToolHook = {
  name: 'audit',
  beforeTool(_tool, args) {
    if (scenarioOf(args) === 'hook-throws') throw new Error(`audit store down for ${nOf(args)}`);
    if (scenarioOf(args) === 'shadowed') return skip('would have skipped');
    return undefined;
  },
  async afterTool() {
    await delay();
  },
};

/** A hook that never settles for one scenario; its own short timeout ends it. */
const sleeper: ToolHook = {
  name: 'sleeper',
  timeoutMs: 15,
  beforeTool(_tool, args) {
    if (scenarioOf(args) === 'hook-timeout') return new Promise<void>(() => undefined);
    return undefined;
  },
};

const toolEvents: ToolEvent[] = [];
const observer: ToolHook = { name: 'observer', onEvent: (event) => void (event.type === 'tool' && toolEvents.push(event)) };

describe('load: 1,000 concurrent calls with random hook delays and every decision', () => {
  it('gives every call its own result and a complete, correctly parented trace', async () => {
    const tracing = createTestTracing();
    const hooks = new HookRunner({ hooks: [policy, audit, sleeper, observer], tracer: tracing.tracer });
    const tool =
      (name: string): Executor =>
      async (args, ctx) => {
        const span = tracing.tracer.startSpan(TOOL_SPAN);
        await delay();
        span.end();
        if (scenarioOf(args).startsWith('fail-') && ctx.attempt === 1) throw new ToolFailure(`tool failed for ${nOf(args)}`);
        const { scenario: _scenario, n, ...extra } = args;
        return { tool: name, attempt: ctx.attempt, n, ...extra };
      };

    const plan = Array.from({ length: CALLS }, (_, n) => ({ n, scenario: SCENARIOS[n % SCENARIOS.length]! }));
    const settled = await Promise.all(
      plan.map(({ n, scenario }) =>
        executeTool({
          hooks,
          toolName: 'search',
          args: { scenario, n },
          execute: tool('search'),
          tools: { sandbox_search: tool('sandbox_search') },
          callId: `call-${n}`,
        }).then(
          (value: unknown) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
      ),
    );

    // Results, call by call.
    for (const { n, scenario } of plan) {
      const want = expected(scenario, n);
      const got = settled[n]!;
      if (want.error === undefined) {
        expect(got, `call ${n} (${scenario})`).toEqual({ ok: true, value: want.result });
      } else if (want.error.type === 'abort') {
        expect(got.ok, `call ${n} (${scenario})`).toBe(false);
        const error = (got as { error: unknown }).error;
        expect(error).toBeInstanceOf(HookAbortError);
        expect((error as HookAbortError).reason).toBe(want.error.reason);
      } else {
        expect(got, `call ${n} (${scenario})`).toMatchObject({ ok: false, error: { name: 'ToolFailure', message: `tool failed for ${n}` } });
      }
    }

    // Traces: one per call, every span's parent in the same trace, phase/execute spans under that call's root.
    const spans = tracing.spans();
    const byTrace = new Map<string, ReadableSpan[]>();
    for (const span of spans) {
      const traceId = span.spanContext().traceId;
      byTrace.set(traceId, [...(byTrace.get(traceId) ?? []), span]);
    }
    expect(byTrace.size).toBe(CALLS);
    const byStart = (a: ReadableSpan, b: ReadableSpan): number =>
      a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];
    let hookErrors = 0;
    for (const trace of byTrace.values()) {
      const roots = trace.filter((span) => span.parentSpanContext === undefined);
      expect(roots).toHaveLength(1);
      const root = roots[0]!;
      expect(root.name).toBe(`${SPAN_EXECUTE_TOOL_PREFIX} search`);
      const n = Number(String(root.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).slice('call-'.length));
      const scenario = plan[n]!.scenario;
      const want = expected(scenario, n);
      const where = `trace of call ${n} (${scenario})`;
      const ids = new Map(trace.map((span) => [span.spanContext().spanId, span]));
      for (const span of trace) {
        if (span !== root) expect(ids.has(span.parentSpanContext!.spanId), `${where}: parent of ${span.name}`).toBe(true);
      }
      const children = trace.filter((span) => span.parentSpanContext?.spanId === root.spanContext().spanId).sort(byStart);
      expect(children.map((span) => span.name), where).toEqual(want.children);
      const executeIds = new Set(children.filter((span) => span.name === SPAN_EXECUTE).map((span) => span.spanContext().spanId));
      const toolSpans = trace.filter((span) => span.name === TOOL_SPAN);
      expect(toolSpans, where).toHaveLength(executeIds.size);
      for (const span of toolSpans) expect(executeIds.has(span.parentSpanContext!.spanId), where).toBe(true);
      expect(trace, where).toHaveLength(1 + children.length + toolSpans.length);

      expect(root.attributes[ATTR_OUTCOME], where).toBe(want.outcome);
      expect(root.attributes[ATTR_RETRIES], where).toBe(want.retries ?? 0);
      expect(root.attributes[ATTR_REEXECUTIONS], where).toBe(want.reexecutions ?? 0);
      const errors = trace.flatMap((span) => eventsOf(span, EVENT_HOOK_ERROR));
      expect(errors.map((event) => event.attributes[ATTR_HOOK_ERROR_KIND]), where).toEqual(
        want.hookError === undefined ? [] : [want.hookError],
      );
      hookErrors += errors.length;
    }
    const perScenario = (scenario: Scenario): number => plan.filter((call) => call.scenario === scenario).length;
    expect(hookErrors).toBe(perScenario('hook-throws') + perScenario('hook-timeout'));

    // The observer saw exactly one tool event per call, with the call's outcome.
    expect(toolEvents).toHaveLength(CALLS);
    for (const event of toolEvents) {
      const n = Number(String(event.callId).slice('call-'.length));
      expect(event.outcome).toBe(expected(plan[n]!.scenario, n).outcome);
    }
  });
});

const root = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);

/** Runs bench/soak.ts in its own Node process with `--expose-gc`; returns its JSON report. */
async function soak(args: string[]): Promise<SoakReport> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/soak.ts', '--json', ...args], {
    cwd: root,
    // Sized by calls, not time: a busy machine takes longer. The test's own timeout guards against a hang.
    maxBuffer: 16 * 1024 * 1024,
  });
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as SoakReport;
}

/** A hang guard only: the soaks are sized by calls, and a loaded runner may take many times longer. */
const SOAK_TIMEOUT_MS = 30 * 60_000;

/**
 * Heap growth per 1,000 calls above which the soak reports a leak (see docs/reliability.md). Measured
 * noise on a flat heap is 0.3-1.3 KB per 1k calls (V8's code and metadata, not objects: a heap-snapshot
 * diff shows no object type growing with the calls); the smallest real leak, one retained object per
 * call, is at least 16 KB per 1k calls.
 */
const SLOPE_BOUND = 4_096;

describe('soak: heap stays flat over 100k calls', () => {
  it('real SDK tracer with a BatchSpanProcessor: slope under 4 KB per 1k calls', { timeout: SOAK_TIMEOUT_MS }, async () => {
    const report = await soak(['--calls=100000', '--sdk=batch']);
    expect(report.calls).toBe(100_000);
    expect(report.spansExported).toBeGreaterThan(report.calls);
    expect(report.samples.length).toBeGreaterThanOrEqual(10);
    expect(report.slopeBytesPer1kCalls, JSON.stringify(report)).toBeLessThan(SLOPE_BOUND);
  });

  it('no SDK (the API no-op tracer): slope under 4 KB per 1k calls', { timeout: SOAK_TIMEOUT_MS }, async () => {
    const report = await soak(['--calls=100000', '--sdk=none']);
    expect(report.spansExported).toBe(0);
    expect(report.slopeBytesPer1kCalls, JSON.stringify(report)).toBeLessThan(SLOPE_BOUND);
  });

  it('the same measurement catches a deliberate leak of one small object per call', { timeout: SOAK_TIMEOUT_MS }, async () => {
    const report = await soak(['--calls=20000', '--warmup=5000', '--sdk=batch', '--leak']);
    expect(report.slopeBytesPer1kCalls, JSON.stringify(report)).toBeGreaterThan(SLOPE_BOUND);
  });
});
