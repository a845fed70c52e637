/**
 * The abort-rate alert end to end, with real programs: examples/abort-alert-app.ts serves its metrics
 * through startTelemetry's Prometheus endpoint, a real `prometheus` scrapes it every second and
 * evaluates deploy/prometheus/alerts.yml (the real expressions; only `for:` is zeroed in a temp copy),
 * and the test watches ToolhooksAbortRateHigh fire during the abort storm and resolve after it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requirePrograms } from '../../support/programs.js';
import type { PrometheusAlert } from '../../support/prometheus.js';
import type { AlertStack } from '../../support/example-app.js';
import { startAlertStack } from '../../support/example-app.js';

const isAbortAlert = (alert: PrometheusAlert): boolean => alert.labels['alertname'] === 'ToolhooksAbortRateHigh';

let stack: AlertStack | undefined;
afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

describe('ToolhooksAbortRateHigh against the example app', () => {
  it('fires during an abort storm and resolves when the aborts stop', async (ctx) => {
    const { prometheus: binary } = requirePrograms(ctx, ['prometheus']);
    stack = await startAlertStack('abort-alert-app', binary);
    const { app: started, port, prometheus: running } = stack;
    const child = started.child;
    // The app's own endpoint really serves the counter the rules use.
    const exposition = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(exposition).toMatch(/toolhooks_tool_calls_total\{.*gen_ai_tool_name="shell".*toolhooks_outcome="aborted".*\} \d+/);

    const firing = await running.waitFor(
      'ToolhooksAbortRateHigh to fire for shell and overall',
      async () => {
        const alerts = (await running.alerts()).filter((a) => isAbortAlert(a) && a.state === 'firing');
        const scopes = alerts.map((a) => a.labels['scope']);
        return scopes.includes('tool') && scopes.includes('overall') ? alerts : undefined;
      },
      45_000,
    );
    const perTool = firing.find((a) => a.labels['scope'] === 'tool');
    expect(perTool?.labels['gen_ai_tool_name']).toBe('shell');
    expect(perTool?.value).toBeGreaterThan(0.5);

    child.stdin.write('calm\n');
    await running.waitFor('ToolhooksAbortRateHigh to resolve', async () => !(await running.alerts()).some(isAbortAlert), 45_000);
    const [overall] = await running.query('all:toolhooks_abort_ratio:rate5m');
    expect(overall?.value).toBeLessThan(0.2);

    child.stdin.end();
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(0);
    expect(started.output()).toMatch(/stopping after \d+ calls/);
  }, 120_000);
});
