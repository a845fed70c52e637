/**
 * Bad input: a gateway whose samplers are all down (nothing listens where its static list points), with the
 * real binary. The app keeps making tool calls with no error and exits cleanly; the gateway holds at most
 * its per-sampler queues (2,000 spans each here) and stays bounded in memory; its own metrics count what it
 * refused once they were full.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startDrivenApp, type DrivenApp } from '../../support/driven-app.js';
import { GATEWAY_CONFIG, requireOtelcol, startCollector, type RunningCollector } from '../../support/otelcol.js';
import { SUITE_CONTEXT, pipelineSkipNote } from '../../support/pipeline.js';
import { freePorts } from '../../support/ports.js';
import type { BatchReport } from './fixtures/plan.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/pipeline-app.ts', import.meta.url));
const BATCHES = 4;
const CALLS = 1500;
/** Spans the gateway queues per sampler; the app sends far more (about 3 spans a call). */
const QUEUE = 2000;

describe.skipIf(pipelineSkipNote() !== undefined)('a gateway whose samplers are all down', () => {
  let gateway: RunningCollector | undefined;
  let app: DrivenApp | undefined;
  afterAll(async () => {
    await app?.exit().catch(() => undefined);
    await gateway?.stop();
  });

  it('keeps the app running with no error, stays bounded in memory, and counts what it dropped', { timeout: 180_000 }, async () => {
    // Two ports nobody listens on: connections are refused at once, as with a crashed sampler tier.
    const dead = await freePorts(2);
    const started = await startCollector({
      binary: requireOtelcol(SUITE_CONTEXT),
      name: 'gateway',
      configs: [GATEWAY_CONFIG],
      env: { TOOLHOOKS_SAMPLERS: `[${dead.map((port) => `127.0.0.1:${port}`).join(', ')}]`, TOOLHOOKS_SAMPLER_QUEUE_SPANS: String(QUEUE) },
    });
    gateway = started;
    const driven = startDrivenApp(FIXTURE, {
      OTEL_SERVICE_NAME: 'toolhooks-pipeline-samplers-down',
      OTEL_EXPORTER_OTLP_ENDPOINT: started.otlpHttpUrl,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      // Each refused export is retried for this long, then dropped by the app's exporter.
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
    app = driven;
    const rss: number[] = [];
    const times: number[] = [];
    for (let batch = 1; batch <= BATCHES; batch += 1) {
      const report = await driven.send<BatchReport>(`run b${batch} ${CALLS}`);
      expect(report.unexpected, `batch ${batch}`).toEqual([]);
      expect(Object.keys(report.outcomes)).toHaveLength(CALLS);
      times.push(report.ms);
      rss.push(started.rssBytes() ?? 0);
    }
    const accepted = await started.metric('otelcol_receiver_accepted_spans');
    // The queues filled and the rest was refused per sampler, each refusal counted.
    const failed = await started.metric('otelcol_exporter_send_failed_spans', { exporter: 'load_balancing' });
    const backendFailures = await started.metric('otelcol_loadbalancer_backend_outcome', { success: 'false' });
    const refusedByApp = await started.metric('otelcol_receiver_refused_spans');
    const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(0);
    console.log(
      `samplers down: ${BATCHES} × ${CALLS} calls took ${times.map((t) => t.toFixed(0)).join(', ')} ms; the gateway accepted ${accepted}` +
        ` spans, counted ${failed} spans it could not send (${backendFailures} refusals by a full sampler queue) and refused ${refusedByApp} from the app;` +
        ` RSS ${rss.map(mib).join(', ')} MiB`,
    );
    // Accepted = what the two queues hold (and the batches in flight); the rest was refused.
    expect(accepted).toBeGreaterThanOrEqual(QUEUE);
    expect(accepted).toBeLessThan(2 * QUEUE + 2000);
    expect(backendFailures).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
    // Bounded: the per-sampler queue and the memory limiter (400 MiB) cap the gateway, however long it lasts.
    for (const bytes of rss) expect(bytes).toBeLessThan(400 * 2 ** 20);
    const { code, stderr } = await driven.exit();
    expect(code, stderr).toBe(0);
  });
});
