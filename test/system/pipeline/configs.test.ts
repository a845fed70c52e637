/**
 * Every collector config deploy/ ships, started by the real collector binary (not only parsed): the
 * compose file's single collector carrying traces to Jaeger and metrics to its Prometheus endpoint, the
 * tail-sampling policies keeping a denied call, the
 * gateway's DNS overlay routing to a sampler it found through DNS, and configs with an unknown component
 * or a misspelt key, which the collector refuses to start with its own message.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDrivenApp } from '../../support/driven-app.js';
import { JAEGER_CONFIG, TAIL_SAMPLING_CONFIG, requireJaeger, startJaeger, tagsOf } from '../../support/jaeger.js';
import {
  CollectorStartError,
  GATEWAY_CONFIG,
  GATEWAY_DNS_CONFIG,
  SAMPLER_CONFIG,
  SINGLE_COLLECTOR_CONFIG,
  requireOtelcol,
  startCollector,
  waitForCollectors,
} from '../../support/otelcol.js';
import { SUITE_CONTEXT, TEST_SAMPLER_ENV, pipelineSkipNote } from '../../support/pipeline.js';
import { SPANS, mustKeep, type BatchReport } from './fixtures/plan.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/pipeline-app.ts', import.meta.url));

describe.skipIf(pipelineSkipNote() !== undefined)('the collector configs in deploy/, run by the real collector', () => {
  it('the compose file’s single collector (otel-collector.yaml + tail-sampling.yaml) keeps the calls to alert on and serves the metrics', { timeout: 120_000 }, async () => {
    const jaeger = await startJaeger({ binary: requireJaeger(SUITE_CONTEXT), configs: [JAEGER_CONFIG] });
    const stop: { stop(): Promise<void> }[] = [jaeger];
    try {
      const collector = await startCollector({
        binary: requireOtelcol(SUITE_CONTEXT),
        name: 'single collector',
        configs: [SINGLE_COLLECTOR_CONFIG, TAIL_SAMPLING_CONFIG],
        env: { ...TEST_SAMPLER_ENV, TOOLHOOKS_TRACE_DECISION_WAIT: '2s', TOOLHOOKS_JAEGER_ENDPOINT: `127.0.0.1:${jaeger.ports.otlpGrpc}` },
      });
      stop.unshift(collector);
      const app = startDrivenApp(FIXTURE, {
        OTEL_SERVICE_NAME: 'toolhooks-single-collector',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.otlpHttpUrl,
        OTEL_METRIC_EXPORT_INTERVAL: '1000',
        OTEL_LOGS_EXPORTER: 'none',
      });
      stop.unshift({ stop: async () => void (await app.exit()) });
      const report = await app.send<BatchReport>('run single 100');
      expect(report.unexpected).toEqual([]);
      const keep = mustKeep(report);
      const traces = await jaeger.waitFor('every call to alert on', async () => {
        const found = await jaeger.findTraces({ service: 'toolhooks-single-collector', operation: 'execute_tool work' });
        const byId = new Map(found.map((t) => [String(tagsOf(t.spans.find((s) => s.references.length === 0)?.tags ?? [])['gen_ai.tool.call.id']), t]));
        return keep.every(([id, kind]) => byId.get(id)?.spans.length === SPANS[kind].length) && byId;
      });
      expect(traces.size).toBeGreaterThanOrEqual(keep.length);
      const exposition = await waitForCollectors('the tool-call counter on the Prometheus endpoint', [collector], async () => {
        const text = await (await fetch(`http://127.0.0.1:${collector.ports.prometheus}/metrics`)).text();
        return /toolhooks_tool_calls_total\{[^}]*toolhooks_outcome="aborted"[^}]*\} 10\b/.test(text) && text;
      });
      expect(exposition).toMatch(/toolhooks_hook_errors_total\{/);
    } finally {
      for (const process of stop) await process.stop();
    }
  });

  it('the policies keep a denied call (no ERROR status) and not a completed one, at 0% for the rest', { timeout: 120_000 }, async () => {
    // No toolhooks release makes denied calls yet (approvals come with Ask), so the two execute_tool spans
    // are sent as OTLP JSON, shaped as toolhooks records them.
    const jaeger = await startJaeger({ binary: requireJaeger(SUITE_CONTEXT), configs: [JAEGER_CONFIG] });
    const stop: { stop(): Promise<void> }[] = [jaeger];
    try {
      const collector = await startCollector({
        binary: requireOtelcol(SUITE_CONTEXT),
        name: 'single collector',
        configs: [SINGLE_COLLECTOR_CONFIG, TAIL_SAMPLING_CONFIG],
        env: { TOOLHOOKS_TRACE_DECISION_WAIT: '1s', TOOLHOOKS_TRACE_SAMPLE_PERCENT: '0', TOOLHOOKS_JAEGER_ENDPOINT: `127.0.0.1:${jaeger.ports.otlpGrpc}` },
      });
      stop.unshift(collector);
      const now = BigInt(Date.now()) * 1_000_000n;
      const span = (traceId: string, outcome: string): unknown => ({
        traceId,
        spanId: traceId.slice(0, 16),
        name: 'execute_tool deploy',
        kind: 1,
        startTimeUnixNano: String(now),
        endTimeUnixNano: String(now + 1_000_000n),
        attributes: [
          { key: 'gen_ai.tool.name', value: { stringValue: 'deploy' } },
          { key: 'toolhooks.outcome', value: { stringValue: outcome } },
        ],
      });
      const body = {
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'toolhooks-denied-policy' } }] },
            scopeSpans: [{ scope: { name: 'toolhooks' }, spans: [span('a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1', 'denied'), span('b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2', 'completed')] }],
          },
        ],
      };
      const response = await fetch(`${collector.otlpHttpUrl}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status, await response.text()).toBe(200);
      const kept = await jaeger.waitFor('the denied call', async () => {
        const found = await jaeger.findTraces({ service: 'toolhooks-denied-policy' });
        return found.length > 0 && found;
      });
      // One more decision round, so the completed call had its chance to be (wrongly) kept.
      await new Promise((done) => setTimeout(done, 3000));
      const all = await jaeger.findTraces({ service: 'toolhooks-denied-policy' });
      expect(kept.map((t) => t.traceID)).toEqual(['a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1']);
      expect(all.map((t) => tagsOf(t.spans[0]?.tags ?? [])['toolhooks.outcome'])).toEqual(['denied']);
    } finally {
      for (const process of stop) await process.stop();
    }
  });

  it('the gateway’s DNS overlay finds the sampler through DNS and routes to it', { timeout: 120_000 }, async () => {
    const binary = requireOtelcol(SUITE_CONTEXT);
    const jaeger = await startJaeger({ binary: requireJaeger(SUITE_CONTEXT) });
    const stop: { stop(): Promise<void> }[] = [jaeger];
    try {
      const sampler = await startCollector({
        binary,
        name: 'sampler',
        configs: [TAIL_SAMPLING_CONFIG, SAMPLER_CONFIG],
        env: { ...TEST_SAMPLER_ENV, TOOLHOOKS_TRACE_SAMPLE_PERCENT: '100', TOOLHOOKS_JAEGER_ENDPOINT: `127.0.0.1:${jaeger.ports.otlpGrpc}` },
      });
      stop.unshift(sampler);
      // `localhost` resolves to 127.0.0.1 (and maybe ::1, where nothing listens: that backend just fails).
      const gateway = await startCollector({
        binary,
        name: 'gateway (dns)',
        configs: [GATEWAY_CONFIG, GATEWAY_DNS_CONFIG],
        env: { TOOLHOOKS_SAMPLERS_DNS: 'localhost', TOOLHOOKS_SAMPLERS_PORT: String(sampler.ports.otlpGrpc) },
      });
      stop.unshift(gateway);
      await waitForCollectors('the DNS resolver to find a backend', [gateway], async () => (await gateway.metric('otelcol_loadbalancer_num_backends')) >= 1);
      expect(await gateway.metric('otelcol_loadbalancer_num_resolutions', { resolver: 'dns', success: 'true' })).toBeGreaterThan(0);
      const app = startDrivenApp(FIXTURE, { OTEL_SERVICE_NAME: 'toolhooks-dns-gateway', OTEL_EXPORTER_OTLP_ENDPOINT: gateway.otlpHttpUrl, OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' });
      stop.unshift({ stop: async () => void (await app.exit()) });
      const report = await app.send<BatchReport>('run dns 20');
      expect(report.unexpected).toEqual([]);
      const ids = await jaeger.waitFor('the calls through the DNS-resolved sampler', async () => {
        const found = await jaeger.findTraces({ service: 'toolhooks-dns-gateway', operation: 'execute_tool work' });
        return found.length === 20 && found;
      });
      expect(ids).toHaveLength(20);
    } finally {
      for (const process of stop) await process.stop();
    }
  });

  describe('a config the collector refuses', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'toolhooks-otelcol-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const refused = async (name: string, edit: (text: string) => string): Promise<string> => {
      const broken = join(dir, name);
      const text = await readFile(SAMPLER_CONFIG, 'utf8');
      const changed = edit(text);
      expect(changed).not.toBe(text);
      await writeFile(broken, changed);
      const error = await startCollector({ binary: requireOtelcol(SUITE_CONTEXT), name, configs: [TAIL_SAMPLING_CONFIG, broken] }).then(
        async (collector) => {
          await collector.stop();
          throw new Error(`${name} started`);
        },
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(CollectorStartError);
      return (error as CollectorStartError).message;
    };

    it('an unknown component: the collector exits with its message naming it', async () => {
      const message = await refused('unknown-component.yaml', (text) => text.replace('  otlp_grpc/jaeger:\n', '  otlp_grpcc/jaeger:\n').replace('exporters: [otlp_grpc/jaeger]', 'exporters: [otlp_grpcc/jaeger]'));
      expect(message).toMatch(/exited \(exit code 1\) before it was healthy/);
      expect(message).toMatch(/unknown type: "otlp_grpcc"/);
    });

    it('a misspelt key: the collector exits with its message naming it', async () => {
      const message = await refused('typo.yaml', (text) => text.replace('decision_wait_after_root_received:', 'decision_wait_after_root_recieved:'));
      expect(message).toMatch(/decision_wait_after_root_recieved/);
      expect(message).toMatch(/invalid keys/);
    });
  });
});
