/**
 * The two-tier pipeline with the real binaries: three toolhooks apps → gateway (deploy/pipeline/gateway.yaml,
 * load_balancing by trace ID) → two samplers (deploy/tail-sampling.yaml + deploy/pipeline/sampler.yaml) →
 * Jaeger. Every kept trace is whole (a trace split across the samplers would be decided in halves and
 * arrive with spans missing), every aborted, failed and hook-error call is kept, the rest are kept at the
 * configured 20% within four standard deviations, both samplers carry traffic, and the apps' metrics reach
 * Prometheus through the gateway, where the real abort-rate alert fires.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDrivenApp, type DrivenApp } from '../../support/driven-app.js';
import { requireJaeger, tagsOf, type JaegerTrace } from '../../support/jaeger.js';
import { requireOtelcol, waitForCollectors } from '../../support/otelcol.js';
import { SUITE_CONTEXT, pipelineSkipNote, startPipeline, type RunningPipeline } from '../../support/pipeline.js';
import { requirePrograms } from '../../support/programs.js';
import { startPrometheus } from '../../support/prometheus.js';
import { PIPELINE_NOTE, SPANS, mustKeep, type BatchReport } from './fixtures/plan.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/pipeline-app.ts', import.meta.url));
const APPS = 3;
const CALLS = 400;
const PERCENT = 20;

const serviceOf = (app: number): string => `toolhooks-pipeline-app-${app + 1}`;
const callIdOf = (trace: JaegerTrace): string =>
  String(tagsOf(trace.spans.find((s) => s.operationName === 'execute_tool work')?.tags ?? [])['gen_ai.tool.call.id']);

describe.skipIf(pipelineSkipNote() !== undefined)('the two-tier pipeline: apps → gateway → 2 samplers → Jaeger', () => {
  let pipeline: RunningPipeline | undefined;
  const apps: DrivenApp[] = [];
  const reports: BatchReport[] = [];
  const found = new Map<string, JaegerTrace>();

  beforeAll(async () => {
    pipeline = await startPipeline({ otelcol: requireOtelcol(SUITE_CONTEXT), jaeger: requireJaeger(SUITE_CONTEXT), samplePercent: PERCENT });
    const gateway = pipeline.gateway;
    for (let app = 0; app < APPS; app += 1) {
      apps.push(
        startDrivenApp(FIXTURE, {
          OTEL_SERVICE_NAME: serviceOf(app),
          OTEL_EXPORTER_OTLP_ENDPOINT: gateway.otlpHttpUrl,
          OTEL_BSP_MAX_QUEUE_SIZE: '20000',
          OTEL_BSP_SCHEDULE_DELAY: '200',
          OTEL_METRIC_EXPORT_INTERVAL: '1000',
          OTEL_LOGS_EXPORTER: 'none',
        }),
      );
    }
    // The apps run at the same time, as several agents would.
    reports.push(...(await Promise.all(apps.map((app) => app.send<BatchReport>(`run main ${CALLS}`)))));
    const running = pipeline;
    const keep = reports.flatMap((report, app) => mustKeep(report).map(([id, kind]) => ({ app, id, kind })));
    const collect = async (): Promise<void> => {
      for (let app = 0; app < APPS; app += 1) {
        const traces = await running.jaeger.findTraces({ service: serviceOf(app), operation: 'execute_tool work', limit: CALLS * 2 });
        for (const trace of traces) found.set(`${serviceOf(app)}/${callIdOf(trace)}`, trace);
      }
    };
    // Wait for the must-keep set (a timeout is not fatal: the checks below name what is missing)…
    await running.jaeger
      .waitFor(
        'every aborted, failed and hook-error call',
        async () => {
          await collect();
          return keep.every(({ app, id, kind }) => found.get(`${serviceOf(app)}/${id}`)?.spans.length === SPANS[kind].length);
        },
        60_000,
      )
      .catch(() => undefined);
    // …then a decision round more, so the sampled share has landed too.
    await new Promise((done) => setTimeout(done, 4000));
    await collect();
  }, 240_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.exit().catch(() => undefined)));
    await pipeline?.stop();
  });

  it('the apps ran their plan without an error', async () => {
    for (const report of reports) {
      expect(report.unexpected).toEqual([]);
      for (const id of report.kinds.aborted) expect(report.outcomes[id]).toBe('aborted');
      for (const id of report.kinds.failed) expect(report.outcomes[id]).toBe('failed');
      for (const id of [...report.kinds['hook-error'], ...report.kinds.completed]) expect(report.outcomes[id]).toBe('completed');
    }
  });

  it('keeps every aborted, failed and hook-error call, each trace whole', () => {
    reports.forEach((report, app) => {
      for (const [id, kind] of mustKeep(report)) {
        const trace = found.get(`${serviceOf(app)}/${id}`);
        expect(trace, `${kind} call ${serviceOf(app)}/${id} is in Jaeger`).toBeDefined();
        expect(trace?.spans.map((s) => s.operationName).sort(), `${kind} call ${id} has all its spans`).toEqual(SPANS[kind]);
      }
    });
  });

  it(`keeps ${PERCENT}% of the completed calls, each whole, and nothing else`, () => {
    const plain = reports.flatMap((report, app) => report.kinds.completed.map((id) => `${serviceOf(app)}/${id}`));
    const kept = plain.filter((key) => found.has(key));
    for (const key of kept) expect(found.get(key)?.spans.map((s) => s.operationName).sort(), key).toEqual(SPANS.completed);
    const p = PERCENT / 100;
    const mean = plain.length * p;
    const sd = Math.sqrt(plain.length * p * (1 - p));
    console.log(`pipeline: kept ${kept.length} of ${plain.length} completed calls (expected ${mean.toFixed(0)} ± ${(4 * sd).toFixed(1)})`);
    // Binomial(n, p) outside 4 standard deviations by chance: about once in 16,000 runs.
    expect(kept.length).toBeGreaterThanOrEqual(Math.floor(mean - 4 * sd));
    expect(kept.length).toBeLessThanOrEqual(Math.ceil(mean + 4 * sd));
    const keep = reports.reduce((sum, report) => sum + mustKeep(report).length, 0);
    expect(found.size).toBe(keep + kept.length);
  });

  it('both samplers decided traces, each about half', async () => {
    const running = pipeline;
    if (running === undefined) throw new Error(PIPELINE_NOTE);
    const spans = await Promise.all(running.samplers.map((s) => s.metric('otelcol_receiver_accepted_spans')));
    const total = spans.reduce((a, b) => a + b, 0);
    const sent = await running.gateway.metric('otelcol_receiver_accepted_spans');
    console.log(`pipeline: the gateway accepted ${sent} spans; the samplers ${spans.join(' and ')}`);
    expect(total).toBe(sent);
    for (const count of spans) expect(count / total).toBeGreaterThan(0.35);
  });

  it('the apps’ metrics reach Prometheus through the gateway and the abort-rate alert fires', async (ctx) => {
    const running = pipeline;
    if (running === undefined) throw new Error(PIPELINE_NOTE);
    const { prometheus: binary } = requirePrograms(ctx, ['prometheus']);
    const gateway = running.gateway;
    const exposition = async (): Promise<string> => (await fetch(`http://127.0.0.1:${gateway.ports.prometheus}/metrics`)).text();
    await waitForCollectors('the apps’ aborted-call counter at the gateway', [gateway], async () =>
      /toolhooks_tool_calls_total\{[^}]*toolhooks_outcome="aborted"/.test(await exposition()),
    );
    const prometheus = await startPrometheus({
      binary,
      target: `127.0.0.1:${gateway.ports.prometheus}`,
      rulesFile: fileURLToPath(new URL('../../../deploy/prometheus/alerts.yml', import.meta.url)),
      zeroFor: true,
    });
    try {
      // Prometheus has the counters as they stand (10% aborted, under the alert's 20%)…
      await prometheus.waitFor('a first scrape of the gateway', async () => {
        const [sample] = await prometheus.query('sum(toolhooks_tool_calls_total)');
        return sample?.value === APPS * CALLS;
      });
      // …then every app makes a storm of aborted calls.
      await Promise.all(apps.map((app) => app.send<BatchReport>('run storm 40 abort')));
      const aborted = await prometheus.waitFor('the storm counted', async () => {
        const [sample] = await prometheus.query('sum(toolhooks_tool_calls_total{toolhooks_outcome="aborted"})');
        return sample?.value === APPS * (CALLS / 10 + 40) && sample.value;
      });
      const alert = await prometheus.waitFor(
        'ToolhooksAbortRateHigh to fire',
        async () => (await prometheus.alerts()).find((a) => a.labels['alertname'] === 'ToolhooksAbortRateHigh' && a.state === 'firing'),
        60_000,
      );
      console.log(`pipeline: ${aborted} aborted calls counted through the gateway; ToolhooksAbortRateHigh fired (${alert.labels['scope'] ?? ''})`);
    } finally {
      await prometheus.stop();
    }
  });
});
