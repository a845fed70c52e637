/**
 * The approval alerts end to end, with real programs: examples/approval-alert-app.ts serves its
 * metrics through startTelemetry's Prometheus endpoint, a real `prometheus` scrapes it every second
 * and evaluates deploy/prometheus/alerts.yml (the real expressions; only `for:` is zeroed in a temp
 * copy). Approvals nobody answers raise ToolhooksApprovalsExpiring; the same tool called without its
 * gate raises ToolhooksUngatedCalls.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { requirePrograms } from '../../support/programs.js';
import type { PrometheusAlert } from '../../support/prometheus.js';
import type { AlertStack } from '../../support/example-app.js';
import { startAlertStack } from '../../support/example-app.js';

const named =
  (name: string) =>
  (alert: PrometheusAlert): boolean =>
    alert.labels['alertname'] === name && alert.state === 'firing';

let stack: AlertStack | undefined;
afterEach(async () => {
  await stack?.stop();
  stack = undefined;
});

describe('approval alerts against the example app', () => {
  it('ToolhooksApprovalsExpiring fires for unanswered approvals, ToolhooksUngatedCalls when the gate goes', async (ctx) => {
    const { prometheus: binary } = requirePrograms(ctx, ['prometheus']);
    stack = await startAlertStack('approval-alert-app', binary);
    const { app: started, prometheus: running } = stack;
    const child = started.child;

    const expiring = await running.waitFor(
      'ToolhooksApprovalsExpiring to fire',
      async () => (await running.alerts()).find(named('ToolhooksApprovalsExpiring')),
      45_000,
    );
    expect(expiring.labels).toMatchObject({ gen_ai_tool_name: 'send_email', toolhooks_hook_name: 'mail-gate' });
    // Every call asked and none was answered: all denied (the ratio needs two scrapes of the counter).
    const denial = await running.waitFor(
      'the denial ratio of send_email',
      async () => (await running.query('gen_ai_tool_name:toolhooks_denial_ratio:rate5m{gen_ai_tool_name="send_email"}'))[0],
      30_000,
    );
    expect(denial.value).toBe(1);
    expect((await running.alerts()).some(named('ToolhooksUngatedCalls'))).toBe(false);

    child.stdin.write('ungated\n');
    const ungated = await running.waitFor(
      'ToolhooksUngatedCalls to fire',
      async () => (await running.alerts()).find(named('ToolhooksUngatedCalls')),
      45_000,
    );
    expect(ungated.labels['gen_ai_tool_name']).toBe('send_email');

    child.stdin.end();
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    expect(code).toBe(0);
  }, 120_000);
});
