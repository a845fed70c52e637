/**
 * An agent whose approvals go unanswered, then whose gate disappears: the app behind the approval
 * alerts' end-to-end test (test/system/deploy/approval-alerts-e2e.test.ts).
 *
 * It serves its metrics for Prometheus at http://127.0.0.1:$PROMETHEUS_PORT/metrics (default 9464) and
 * keeps calling `send_email`. In `gated` mode (the start) a gate hook asks for approval of every call
 * and the approver never answers, so each approval expires after 50 ms and the call is denied
 * (ToolhooksApprovalsExpiring). On `ungated` from stdin it goes on calling `send_email` through a
 * runner without the gate, as a deploy that dropped the hook would (ToolhooksUngatedCalls).
 *
 * Run: PROMETHEUS_PORT=9464 npx tsx examples/approval-alert-app.ts   (close stdin to stop)
 */
import { createInterface } from 'node:readline';
import type { Approver } from 'toolhooks';
import { HookRunner, ask, executeTool } from 'toolhooks';
import { MetricsHook } from 'toolhooks/hooks';
import { startTelemetry } from 'toolhooks/node';

for (const signal of ['TRACES', 'METRICS', 'LOGS']) process.env[`OTEL_${signal}_EXPORTER`] ??= 'none';
const port = Number(process.env.PROMETHEUS_PORT ?? 9464);

const telemetry = await startTelemetry({ serviceName: 'approval-alert-app', prometheus: { port } });
const metrics = new MetricsHook();
const gate = { name: 'mail-gate', tools: ['send_email'], beforeTool: () => ask('outgoing mail needs a person') };
// Nobody is watching: the request is never answered, only its signal ends the wait.
const unanswered: Approver = (request) => new Promise((_resolve, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
const gated = new HookRunner({ hooks: [gate, metrics], approver: unanswered, approvalTimeoutMs: 50 });
const ungated = new HookRunner([metrics]);
const sendEmail = (args: Record<string, unknown>): string => `sent to ${String(args.to)}`;

let mode: 'gated' | 'ungated' = 'gated';
let stopped = false;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() === 'ungated' || line.trim() === 'gated') {
    mode = line.trim() as typeof mode;
    console.log(`mode ${mode}`);
  }
});
lines.on('close', () => void (stopped = true));

console.log(`serving metrics on http://127.0.0.1:${port}/metrics; mode ${mode}`);
let calls = 0;
while (!stopped) {
  const hooks = mode === 'gated' ? gated : ungated;
  await executeTool({ hooks, toolName: 'send_email', args: { to: 'ops@example.com' }, execute: sendEmail });
  calls += 1;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(`stopping after ${calls} calls`);
await telemetry.shutdown();
