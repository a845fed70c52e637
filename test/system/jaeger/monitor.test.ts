/**
 * Jaeger's Monitor tab for toolhooks (deploy/jaeger/spm.yaml): the spanmetrics connector turns an app's
 * spans into metrics, the real Prometheus scrapes them, and Jaeger's metrics API (what the Monitor tab
 * calls) answers rate, errors and duration per `execute_tool` operation from Prometheus.
 */
import { describe, expect, it } from 'vitest';
import { JAEGER_CONFIG, SPM_CONFIG, requireJaeger, startJaeger, type RunningJaeger } from '../../support/jaeger.js';
import { requirePrograms } from '../../support/programs.js';
import { startPrometheus, type RunningPrometheus } from '../../support/prometheus.js';
import { CALLS, startApp } from './fixtures/app-driver.js';
import { freePort } from '../../support/ports.js';

const SERVICE = 'toolhooks-monitor-fixture';

/** A Jaeger metrics API answer: one series per operation, each a list of points. */
interface MetricFamily {
  readonly metrics?: {
    readonly labels: { readonly name: string; readonly value: string }[];
    readonly metricPoints: { readonly gaugeValue?: { readonly doubleValue?: number } }[];
  }[];
}

/** The largest value Jaeger reports for `operation` in a metrics API answer (NaN points ignored). */
function peak(family: MetricFamily, operation: string): number | undefined {
  const series = family.metrics?.find((m) => m.labels.some((l) => l.name === 'operation' && l.value === operation));
  const values = (series?.metricPoints ?? []).map((p) => p.gaugeValue?.doubleValue).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return values.length === 0 ? undefined : Math.max(...values);
}

describe('the Monitor tab: spanmetrics → the real Prometheus → Jaeger', () => {
  it('reports rate, errors and duration per execute_tool operation', { timeout: 120_000 }, async (ctx) => {
    const binary = requireJaeger(ctx);
    const { prometheus: prometheusBinary } = requirePrograms(ctx, ['prometheus']);
    const metricsPort = await freePort();
    let prometheus: RunningPrometheus | undefined;
    let jaeger: RunningJaeger | undefined;
    try {
      prometheus = await startPrometheus({ binary: prometheusBinary, target: `127.0.0.1:${metricsPort}` });
      jaeger = await startJaeger({
        binary,
        configs: [JAEGER_CONFIG, SPM_CONFIG],
        env: {
          TOOLHOOKS_SPANMETRICS_PORT: String(metricsPort),
          TOOLHOOKS_PROMETHEUS_URL: prometheus.url,
          TOOLHOOKS_SPANMETRICS_FLUSH_INTERVAL: '1s',
        },
      });
      // An app making calls in two batches: Prometheus computes rates from increases between scrapes, so
      // the second batch must come after the first one has been scraped.
      const app = startApp(jaeger.otlpHttpUrl, SERVICE);
      const prom = prometheus;
      const count = (outcome: string) => async () =>
        (await prom.query(`sum(traces_span_metrics_calls_total{service_name="${SERVICE}", span_name="execute_tool lookup", toolhooks_outcome="${outcome}"})`))[0]?.value ?? 0;
      try {
        for (const [batch, expected] of [['first', 1], ['second', 2]] as const) {
          const report = await app.run(batch);
          expect(report.unexpected).toEqual([]);
          // Prometheus has the connector's series, with the call's outcome as a label (every 5th call aborted).
          await prom.waitFor(`the ${batch} batch in Prometheus`, async () => (await count('completed')()) === expected * CALLS * 0.8);
          expect(await count('aborted')()).toBe(expected * CALLS * 0.2);
        }
      } finally {
        await app.exit();
      }

      // Jaeger's metrics API, as the Monitor tab calls it (span kind Internal, grouped by operation).
      const j = jaeger;
      const query = `service=${SERVICE}&spanKind=internal&groupByOperation=true&step=1000&ratePer=60000&lookback=300000`;
      const answer = (metric: string, extra = '') => async () => {
        const family = (await j.api(`/api/metrics/${metric}?${query}${extra}`)) as MetricFamily;
        return (peak(family, 'execute_tool lookup') ?? 0) > 0 && family;
      };
      const calls = await j.waitFor('a call rate for execute_tool lookup', answer('calls'));
      const errors = await j.waitFor('an error rate for execute_tool lookup', answer('errors'));
      const latencies = await j.waitFor('a p95 duration for execute_tool lookup', answer('latencies', '&quantile=0.95'));
      // Calls per second and the error share (aborted calls are span errors: 1 in 5).
      expect(peak(calls, 'execute_tool lookup')).toBeGreaterThan(0);
      expect(peak(errors, 'execute_tool lookup')).toBeCloseTo(0.2, 1);
      // p95 in milliseconds: the tool sleeps 2 ms.
      expect(peak(latencies, 'execute_tool lookup')).toBeGreaterThanOrEqual(1);
      console.log(
        `monitor: execute_tool lookup peak ${peak(calls, 'execute_tool lookup')?.toFixed(3)} calls/s, error share` +
          ` ${peak(errors, 'execute_tool lookup')?.toFixed(2)}, p95 ${peak(latencies, 'execute_tool lookup')?.toFixed(1)} ms`,
      );
    } finally {
      await jaeger?.stop();
      await prometheus?.stop();
    }
  });
});
