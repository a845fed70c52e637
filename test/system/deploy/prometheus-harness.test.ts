/**
 * The Prometheus harness against a real `prometheus` process. The scrape target is a small HTTP server
 * serving `toolhooks_tool_calls_total` counters in the text format @opentelemetry/exporter-prometheus
 * produces (HELP, UNIT and TYPE lines, otel_scope labels, target_info); the test sets how fast they grow.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_OUTCOME,
  INSTRUMENTATION_NAME,
  METRIC_TOOL_CALLS,
} from '../../../src/telemetry/semconv.js';
import { requirePrograms } from '../../support/programs.js';
import {
  prometheusCounter,
  prometheusLabel,
  startPrometheus,
  zeroForDurations,
  type PrometheusAlert,
  type RunningPrometheus,
} from '../../support/prometheus.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const alertsFile = join(root, 'deploy/prometheus/alerts.yml');

type Outcome = 'completed' | 'skipped' | 'recovered' | 'aborted' | 'failed';
/** Calls per second, by tool and outcome. */
type CallRates = Readonly<Record<string, Partial<Record<Outcome, number>>>>;

/** Call counters that grow at the rates the test sets; values are read at scrape time. */
class CallCounters {
  private readonly totals = new Map<string, { tool: string; outcome: Outcome; value: number }>();
  private rates: CallRates = {};
  private since = performance.now();

  setRates(rates: CallRates): void {
    this.advance();
    this.rates = rates;
  }

  /** Counter values now, as whole calls. */
  read(): { tool: string; outcome: Outcome; value: number }[] {
    this.advance();
    return [...this.totals.values()].map((entry) => ({ ...entry, value: Math.floor(entry.value) }));
  }

  private advance(): void {
    const now = performance.now();
    const seconds = (now - this.since) / 1000;
    this.since = now;
    for (const [tool, outcomes] of Object.entries(this.rates)) {
      for (const [outcome, perSecond] of Object.entries(outcomes) as [Outcome, number][]) {
        const key = `${tool}\u0000${outcome}`;
        const entry = this.totals.get(key) ?? { tool, outcome, value: 0 };
        entry.value += perSecond * seconds;
        this.totals.set(key, entry);
      }
    }
  }
}

function exposition(counters: CallCounters): string {
  const name = prometheusCounter(METRIC_TOOL_CALLS);
  const tool = prometheusLabel(ATTR_GEN_AI_TOOL_NAME);
  const outcome = prometheusLabel(ATTR_OUTCOME);
  const lines = [
    '# HELP target_info Target metadata',
    '# TYPE target_info gauge',
    'target_info{service_name="harness-test"} 1',
    `# HELP ${name} Tool calls by outcome`,
    `# UNIT ${name} {call}`,
    `# TYPE ${name} counter`,
    ...counters
      .read()
      .map(
        (c) =>
          `${name}{${tool}="${c.tool}",${outcome}="${c.outcome}",otel_scope_name="${INSTRUMENTATION_NAME}",otel_scope_version="0.1.0"} ${c.value}`,
      ),
  ];
  return `${lines.join('\n')}\n`;
}

async function serveMetrics(counters: CallCounters): Promise<{ server: Server; target: string }> {
  const server = createServer((request, response) => {
    if (request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end(exposition(counters));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('metrics server has no port');
  return { server, target: `127.0.0.1:${address.port}` };
}

const isAbortAlert = (alert: PrometheusAlert): boolean => alert.labels['alertname'] === 'ToolhooksAbortRateHigh';

describe('zeroForDurations', () => {
  it('sets every for: of the real rules to 0s and changes nothing else', async () => {
    const original = await readFile(alertsFile, 'utf8');
    const rewritten = zeroForDurations(original);
    const before = original.split('\n');
    const after = rewritten.split('\n');
    expect(after).toHaveLength(before.length);
    const changed = after.filter((line, i) => line !== before[i]);
    expect(changed.length).toBeGreaterThanOrEqual(3);
    for (const line of changed) expect(line).toMatch(/^\s+for: 0s$/);
    expect(after.filter((line) => /^\s+for:/.test(line)).every((line) => line.trim() === 'for: 0s')).toBe(true);
  });

  it('keeps indentation and trailing comments, and leaves keep_firing_for alone', () => {
    expect(zeroForDurations('    for: 10m # page after ten minutes\n    keep_firing_for: 5m\n')).toBe(
      '    for: 0s # page after ten minutes\n    keep_firing_for: 5m\n',
    );
  });
});

describe('Prometheus harness with a real prometheus', () => {
  let counters: CallCounters;
  let metrics: { server: Server; target: string };
  let prometheus: RunningPrometheus | undefined;

  beforeEach(async () => {
    counters = new CallCounters();
    metrics = await serveMetrics(counters);
  });

  afterEach(async () => {
    await prometheus?.stop();
    prometheus = undefined;
    await new Promise((done) => metrics.server.close(done));
  });

  it('sees ToolhooksAbortRateHigh fire for a high abort share and resolve when it drops', async (ctx) => {
    const { prometheus: binary } = requirePrograms(ctx, ['prometheus']);
    // 80% of shell's calls aborted; search never aborted; overall 8 of 15 a second (53%).
    counters.setRates({ shell: { aborted: 8, completed: 2 }, search: { completed: 5 } });
    const running = await startPrometheus({ binary, target: metrics.target, rulesFile: alertsFile, zeroFor: true });
    prometheus = running;

    const target = await running.waitFor('the target to be scraped', async () =>
      (await running.targets()).find((t) => t.health === 'up'),
    );
    expect(target.lastError).toBe('');

    const firing = await running.waitFor('ToolhooksAbortRateHigh to fire for shell and overall', async () => {
      const alerts = (await running.alerts()).filter((a) => isAbortAlert(a) && a.state === 'firing');
      const scopes = alerts.map((a) => a.labels['scope']);
      return scopes.includes('tool') && scopes.includes('overall') ? alerts : undefined;
    });
    expect(firing).toHaveLength(2);
    const perTool = firing.find((a) => a.labels['scope'] === 'tool');
    expect(perTool?.labels).toMatchObject({ gen_ai_tool_name: 'shell', severity: 'critical' });
    expect(perTool?.annotations['summary']).toMatch(/^Tool shell: \d+(\.\d+)?% of calls aborted$/);
    expect(perTool?.value).toBeGreaterThan(0.6);

    const ratios = await running.query('gen_ai_tool_name:toolhooks_abort_ratio:rate5m');
    const byTool = Object.fromEntries(ratios.map((s) => [s.metric['gen_ai_tool_name'], s.value]));
    expect(byTool['shell']).toBeGreaterThan(0.6);
    expect(byTool['shell']).toBeLessThan(0.95);
    expect(byTool['search']).toBe(0);

    // No more aborts and a lot more calls: the 5-minute share falls under 20% within seconds.
    counters.setRates({ shell: { completed: 400 }, search: { completed: 5 } });
    await running.waitFor(
      'ToolhooksAbortRateHigh to resolve',
      async () => !(await running.alerts()).some(isAbortAlert),
    );
    const [overall] = await running.query('all:toolhooks_abort_ratio:rate5m');
    expect(overall?.value).toBeLessThan(0.2);

    const dir = running.dir;
    await running.stop();
    expect(existsSync(dir)).toBe(false);
    await expect(fetch(`${running.url}/-/ready`)).rejects.toThrow();
  }, 60_000);

  it('keeps the real for: unless asked to zero it', async (ctx) => {
    const { prometheus: binary } = requirePrograms(ctx, ['prometheus']);
    counters.setRates({ shell: { aborted: 8, completed: 2 } });
    const running = await startPrometheus({ binary, target: metrics.target, rulesFile: alertsFile });
    prometheus = running;
    expect(running.rulesFile).toBe(alertsFile);

    const pending = await running.waitFor('ToolhooksAbortRateHigh to be pending', async () =>
      (await running.alerts()).find((a) => isAbortAlert(a) && a.labels['scope'] === 'tool'),
    );
    expect(pending.state).toBe('pending');
    expect(pending.labels['gen_ai_tool_name']).toBe('shell');
  }, 60_000);

  it('fails to start with Prometheus’ own message when the rules are invalid', async (ctx) => {
    const { prometheus: binary } = requirePrograms(ctx, ['prometheus']);
    const broken = join(root, 'test/system/deploy/fixtures/invalid-rules.yml');
    await expect(startPrometheus({ binary, target: metrics.target, rulesFile: broken })).rejects.toThrow(
      /parse error/,
    );
  }, 60_000);
});
