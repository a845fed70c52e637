/**
 * What the pipeline costs and carries on this machine, with the real binaries: four apps make tool calls as
 * fast as they can through gateway → 2 samplers (keeping 100%) → Jaeger. Asserts no loss (every call's trace
 * arrives whole); prints the throughput, the traces each sampler held at its peak, the memory that cost
 * per trace, and the decision latency. docs/operations.md ("Scaling out") quotes these numbers; they are
 * printed, never asserted (speed is not a test's business).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startDrivenApp, type DrivenApp } from '../../support/driven-app.js';
import { requireJaeger, tagsOf } from '../../support/jaeger.js';
import { requireOtelcol, sumOf, type RunningCollector } from '../../support/otelcol.js';
import { SUITE_CONTEXT, pipelineSkipNote, startPipeline, type RunningPipeline } from '../../support/pipeline.js';
import { SPANS, kindOf, type BatchReport, type CallKind } from './fixtures/plan.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/pipeline-app.ts', import.meta.url));
const APPS = 4;
const CALLS = 2500;

describe.skipIf(pipelineSkipNote() !== undefined)('pipeline throughput and memory', () => {
  let pipeline: RunningPipeline | undefined;
  const apps: DrivenApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.exit().catch(() => undefined)));
    await pipeline?.stop();
  });

  it(`carries ${APPS} × ${CALLS} calls with no loss`, { timeout: 240_000 }, async () => {
    const running = await startPipeline({ otelcol: requireOtelcol(SUITE_CONTEXT), jaeger: requireJaeger(SUITE_CONTEXT), samplePercent: 100 });
    pipeline = running;
    const idle = running.samplers.map((s) => s.rssBytes() ?? 0);
    const heapOf = async (s: RunningCollector): Promise<number> => sumOf(await s.metrics(), 'otelcol_process_runtime_heap_alloc_bytes');
    const idleHeap = await Promise.all(running.samplers.map(heapOf));
    for (let app = 0; app < APPS; app += 1) {
      apps.push(
        startDrivenApp(FIXTURE, {
          OTEL_SERVICE_NAME: `toolhooks-throughput-${app + 1}`,
          OTEL_EXPORTER_OTLP_ENDPOINT: running.gateway.otlpHttpUrl,
          OTEL_BSP_MAX_QUEUE_SIZE: '50000',
          OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '1024',
          OTEL_BSP_SCHEDULE_DELAY: '200',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
        }),
      );
    }
    // Sample each sampler's memory and held traces while the calls run.
    const peak = { rss: running.samplers.map(() => 0), held: running.samplers.map(() => 0), heap: running.samplers.map(() => 0) };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await Promise.all(
          running.samplers.map(async (s, i) => {
            const samples = await s.metrics().catch(() => []);
            const held = sumOf(samples, 'otelcol_processor_tail_sampling_new_trace_id_received') - sumOf(samples, 'otelcol_processor_tail_sampling_global_count_traces_sampled');
            peak.held[i] = Math.max(peak.held[i] ?? 0, held);
            peak.rss[i] = Math.max(peak.rss[i] ?? 0, s.rssBytes() ?? 0);
            peak.heap[i] = Math.max(peak.heap[i] ?? 0, sumOf(samples, 'otelcol_process_runtime_heap_alloc_bytes'));
          }),
        );
        await new Promise((done) => setTimeout(done, 100));
      }
    })();
    const began = performance.now();
    const reports = await Promise.all(apps.map((app) => app.send<BatchReport>(`run load ${CALLS}`)));
    const sent = performance.now() - began;
    for (const report of reports) expect(report.unexpected).toEqual([]);

    const expected = APPS * CALLS;
    let whole = 0;
    const arrived = await running.jaeger.waitFor(
      'every call’s trace, whole',
      async () => {
        whole = 0;
        for (let app = 0; app < APPS; app += 1) {
          const traces = await running.jaeger.findTraces({ service: `toolhooks-throughput-${app + 1}`, operation: 'execute_tool work', limit: CALLS * 2 });
          for (const trace of traces) {
            const id = String(tagsOf(trace.spans.find((s) => s.references.length === 0)?.tags ?? [])['gen_ai.tool.call.id']);
            const kind = kindOf(Number(id.split('_').at(-1)));
            if (trace.spans.length === SPANS[kind].length) whole += 1;
          }
        }
        return whole === expected && performance.now();
      },
      120_000,
    ).catch(async (error: unknown) => {
      // Say where the spans went before failing: refused at the gateway, queued, or dropped by a sampler.
      const counters = async (c: RunningCollector): Promise<string> => {
        const samples = await c.metrics();
        const names = ['otelcol_receiver_accepted_spans', 'otelcol_receiver_refused_spans', 'otelcol_exporter_sent_spans', 'otelcol_exporter_send_failed_spans', 'otelcol_processor_tail_sampling_sampling_trace_dropped_too_early', 'otelcol_processor_tail_sampling_sampling_late_span_age_count'];
        return `${c.name}: ${names.map((n) => `${n.replace('otelcol_', '')}=${sumOf(samples, n)}`).join(' ')}`;
      };
      const state = await Promise.all([running.gateway, ...running.samplers].map(counters));
      throw new Error(`${whole} of ${expected} traces whole in Jaeger\n${state.join('\n')}\n${running.logs()}\n${String(error)}`);
    });
    sampling = false;
    await sampler;
    const latency = await Promise.all(
      running.samplers.map(async (s) => {
        const samples = await s.metrics();
        const sum = sumOf(samples, 'otelcol_processor_tail_sampling_sampling_decision_timer_latency_sum');
        const count = sumOf(samples, 'otelcol_processor_tail_sampling_sampling_decision_timer_latency_count');
        return count === 0 ? 0 : sum / count;
      }),
    );
    const spans = reports.reduce((sum, report) => sum + Object.entries(report.kinds).reduce((n, [kind, ids]) => n + ids.length * SPANS[kind as CallKind].length, 0), 0);
    const perTrace = running.samplers.map((_s, i) => ((peak.rss[i] ?? 0) - (idle[i] ?? 0)) / Math.max(1, peak.held[i] ?? 1));
    const heapPerTrace = running.samplers.map((_s, i) => ((peak.heap[i] ?? 0) - (idleHeap[i] ?? 0)) / Math.max(1, peak.held[i] ?? 1));
    console.log(
      `pipeline throughput: ${expected} calls (${spans.toFixed(0)} spans) from ${APPS} apps in ${(sent / 1000).toFixed(1)} s` +
        ` = ${(expected / (sent / 1000)).toFixed(0)} calls/s sent; all in Jaeger, whole, ${((arrived - began) / 1000).toFixed(1)} s after the first call` +
        ` = ${(expected / ((arrived - began) / 1000)).toFixed(0)} calls/s end to end.` +
        ` Samplers held at most ${peak.held.join(' and ')} traces, RSS peak ${peak.rss.map((b) => (b / 2 ** 20).toFixed(0)).join(' and ')} MiB` +
        ` (idle ${idle.map((b) => (b / 2 ** 20).toFixed(0)).join(' and ')}), ~${perTrace.map((b) => (b / 1024).toFixed(1)).join(' and ')} KiB resident` +
        ` and ~${heapPerTrace.map((b) => (b / 1024).toFixed(1)).join(' and ')} KiB of Go heap per held trace;` +
        ` decision tick ${latency.map((ms) => ms.toFixed(1)).join(' and ')} ms on average`,
    );
  });
});
