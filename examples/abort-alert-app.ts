/**
 * An agent in an abort storm, for the "Alert on abort rates" walkthrough and its end-to-end test.
 *
 * It serves its metrics for Prometheus at http://127.0.0.1:$PROMETHEUS_PORT/metrics (default 9464,
 * through `startTelemetry({ prometheus })`) and keeps making tool calls through a policy hook and
 * MetricsHook. It starts in `storm` mode — 80% of its shell calls try `rm -rf` and are aborted — and
 * switches when it reads `storm` or `calm` on stdin (`calm`: many safe calls, no aborts).
 *
 * Run: PROMETHEUS_PORT=9464 npx tsx examples/abort-alert-app.ts   (Ctrl-C or close stdin to stop)
 */
import { createInterface } from 'node:readline';
import { HookAbortError, HookRunner, executeTool } from 'toolhooks';
import { MetricsHook } from 'toolhooks/hooks';
import { startTelemetry } from 'toolhooks/node';
import { policyHook } from './agent-tools.js';

// Metrics only, pulled by Prometheus: no OTLP export for any signal.
for (const signal of ['TRACES', 'METRICS', 'LOGS']) process.env[`OTEL_${signal}_EXPORTER`] ??= 'none';
const port = Number(process.env.PROMETHEUS_PORT ?? 9464);

const telemetry = await startTelemetry({ serviceName: 'abort-alert-app', prometheus: { port } });
const hooks = new HookRunner([policyHook, new MetricsHook()]);
const shell = (args: Record<string, unknown>): string => `ran ${String(args.cmd)}`;

let mode: 'storm' | 'calm' = 'storm';
let stopped = false;
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const next = line.trim();
  if (next === 'storm' || next === 'calm') {
    mode = next;
    console.log(`mode ${mode}`);
  }
});
lines.on('close', () => void (stopped = true));
process.on('SIGINT', () => void (stopped = true));
process.on('SIGTERM', () => void (stopped = true));

console.log(`serving metrics on http://127.0.0.1:${port}/metrics; mode ${mode}`);
let calls = 0;
while (!stopped) {
  // Every 100 ms: storm = 8 aborted + 2 completed shell calls; calm = 40 completed ones.
  const batch = mode === 'storm' ? [...Array<string>(8).fill('rm -rf /tmp/x'), 'ls', 'pwd'] : Array<string>(40).fill('git status');
  for (const cmd of batch) {
    try {
      await executeTool({ hooks, toolName: 'shell', args: { cmd }, execute: shell });
    } catch (error) {
      if (!(error instanceof HookAbortError)) throw error;
    }
    calls += 1;
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(`stopping after ${calls} calls`);
await telemetry.shutdown();
