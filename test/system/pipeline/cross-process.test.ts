/**
 * A trace that crosses processes, through the two-tier pipeline as deploy/ ships it (the samplers' own
 * decision waits, not the tests' short ones): a calling service exporting at once (a 1 ms batch delay)
 * calls a second service that exports on the SDK's default 5 s batch timer, so the called service's spans
 * reach the samplers about 5 s after the trace's root. The called service's denied calls and swallowed
 * hook errors must still keep their traces, whole, with nothing else kept at 0% for the rest.
 * docs/operations.md ("Traces that cross processes") states the guarantee and its limits.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDrivenApp, type DrivenApp } from '../../support/driven-app.js';
import { requireJaeger, tagsOf, type JaegerTrace } from '../../support/jaeger.js';
import { requireOtelcol } from '../../support/otelcol.js';
import { SUITE_CONTEXT, pipelineSkipNote, startPipeline, type RunningPipeline } from '../../support/pipeline.js';
import { PIPELINE_NOTE } from './fixtures/plan.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/two-services.ts', import.meta.url));
const CALLER = 'toolhooks-cross-caller';
const CALLEE = 'toolhooks-cross-callee';
const EACH = 8;
const KINDS = ['denied', 'hook-error', 'completed'] as const;

/** The spans of one call (sorted): the caller's two, and the called service's for its kind. */
const SPANS: Readonly<Record<(typeof KINDS)[number], string[]>> = {
  denied: [`${CALLER}/execute_tool delegate`, `${CALLER}/toolhooks.execute`, `${CALLEE}/execute_tool deploy`, `${CALLEE}/toolhooks.approval`, `${CALLEE}/toolhooks.before_tool`],
  'hook-error': [`${CALLER}/execute_tool delegate`, `${CALLER}/toolhooks.execute`, `${CALLEE}/execute_tool deploy`, `${CALLEE}/toolhooks.before_tool`, `${CALLEE}/toolhooks.execute`],
  completed: [`${CALLER}/execute_tool delegate`, `${CALLER}/toolhooks.execute`, `${CALLEE}/execute_tool deploy`, `${CALLEE}/toolhooks.before_tool`, `${CALLEE}/toolhooks.execute`],
};
for (const spans of Object.values(SPANS)) spans.sort();

const spansOf = (trace: JaegerTrace): string[] =>
  trace.spans.map((s) => `${trace.processes[s.processID]?.serviceName ?? '?'}/${s.operationName}`).sort();
const callIdOf = (trace: JaegerTrace): string =>
  String(tagsOf(trace.spans.find((s) => s.operationName === 'execute_tool delegate')?.tags ?? [])['gen_ai.tool.call.id']);

describe.skipIf(pipelineSkipNote() !== undefined)('a trace across two services whose export delays differ by 5 s, through the shipped pipeline', () => {
  let pipeline: RunningPipeline | undefined;
  const apps: DrivenApp[] = [];
  let calls: Record<string, { kind: (typeof KINDS)[number]; outcome: string; remote: string }> = {};
  let arrived = 0;
  const found = new Map<string, JaegerTrace>();

  beforeAll(async () => {
    pipeline = await startPipeline({ otelcol: requireOtelcol(SUITE_CONTEXT), jaeger: requireJaeger(SUITE_CONTEXT), samplePercent: 0, shippedWaits: true });
    const common = { OTEL_EXPORTER_OTLP_ENDPOINT: pipeline.gateway.otlpHttpUrl, OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' };
    const callee = startDrivenApp(FIXTURE, { ...common, OTEL_SERVICE_NAME: CALLEE, OTEL_BSP_SCHEDULE_DELAY: '5000' });
    apps.push(callee);
    const caller = startDrivenApp(FIXTURE, { ...common, OTEL_SERVICE_NAME: CALLER, OTEL_BSP_SCHEDULE_DELAY: '1' });
    apps.push(caller);
    const { url } = await callee.send<{ url: string }>('serve');
    const plan = KINDS.flatMap((kind) => Array.from({ length: EACH }, () => kind));
    ({ calls } = await caller.send<{ calls: typeof calls }>(`call ${url} ${plan.join(' ')}`));
    // The caller has flushed: every root is at the samplers now, the called service's spans 5 s later.
    arrived = Date.now();
    const running = pipeline;
    const keep = Object.entries(calls).filter(([, call]) => call.kind !== 'completed');
    await running.jaeger
      .waitFor(
        'every denied and hook-error call of the called service, whole',
        async () => {
          for (const trace of await running.jaeger.findTraces({ service: CALLER, operation: 'execute_tool delegate', limit: 100 })) found.set(callIdOf(trace), trace);
          return keep.every(([id, call]) => found.get(id)?.spans.length === SPANS[call.kind].length);
        },
        45_000,
      )
      .catch(() => undefined);
    // A decision round more, so a completed call had its chance to be (wrongly) kept.
    await new Promise((done) => setTimeout(done, 3000));
    for (const trace of await running.jaeger.findTraces({ service: CALLER, operation: 'execute_tool delegate', limit: 100 })) found.set(callIdOf(trace), trace);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.exit().catch(() => undefined)));
    await pipeline?.stop();
  });

  it('the called service denied, recorded a hook error or completed each call as planned', () => {
    expect(Object.keys(calls)).toHaveLength(KINDS.length * EACH);
    for (const call of Object.values(calls)) {
      expect(call.outcome).toBe('completed');
      expect(call.remote).toBe(call.kind === 'denied' ? 'denied' : 'completed');
    }
  });

  it('keeps every trace whose late spans hold a denied call or a swallowed hook error, whole', () => {
    if (pipeline === undefined) throw new Error(PIPELINE_NOTE);
    const missing = Object.entries(calls)
      .filter(([, call]) => call.kind !== 'completed')
      .filter(([id, call]) => JSON.stringify(found.has(id) ? spansOf(found.get(id) as JaegerTrace) : []) !== JSON.stringify(SPANS[call.kind]))
      .map(([id]) => `${id}: ${found.has(id) ? spansOf(found.get(id) as JaegerTrace).join(', ') : 'not in Jaeger'}`);
    expect(missing, `kept whole (waited ${((Date.now() - arrived) / 1000).toFixed(0)} s)\n${pipeline.logs()}`).toEqual([]);
    const denied = [...found.values()].flatMap((trace) => trace.spans).filter((s) => tagsOf(s.tags)['toolhooks.outcome'] === 'denied');
    expect(denied).toHaveLength(EACH);
  });

  it('keeps none of the completed calls (0% for the rest)', () => {
    const kept = Object.entries(calls).filter(([id, call]) => call.kind === 'completed' && found.has(id));
    expect(kept.map(([id]) => id)).toEqual([]);
  });
});
