/**
 * npm run demo — a scripted agent makes 22 tool calls through toolhooks.
 *
 * Hooks: a fail-closed policy gate (aborts `rm -rf`, sends curl/wget to a sandbox tool), its stricter
 * next version in audit mode (records what it would abort), a search
 * cache (skips), a retry hook (recovers a flaky API), a broken audit hook whose errors are swallowed,
 * a mail gate that asks for approval (one mail approved, one denied), plus the built-in MetricsHook
 * and LoggingHook.
 *
 * With no collector configured it prints each call's trace tree (startTelemetry's `console: 'tree'`)
 * and a summary. With OTEL_EXPORTER_OTLP_ENDPOINT set it exports traces, metrics and logs there
 * instead and links to the Jaeger and Prometheus UIs that answer on this machine (only those). With
 * TOOLHOOKS_TRACES_FILE set it also appends every trace to that file. Its log records go to
 * ./toolhooks-demo.log.
 */
import { resolve } from 'node:path';
import type { DiagLogger } from '@opentelemetry/api';
import { DiagLogLevel, diag } from '@opentelemetry/api';
import pino from 'pino';
import { HookAbortError, HookRunner, executeTool } from 'toolhooks';
import { LoggingHook, MetricsHook, otelDestination } from 'toolhooks/hooks';
import { startTelemetry } from 'toolhooks/node';
import {
  MAIL_SCRIPT,
  SCRIPT,
  SummaryHook,
  brokenHook,
  createCacheHook,
  createTools,
  mailGateHook,
  onCallApprover,
  policyHook,
  policyV2Hook,
  retryHook,
} from './agent-tools.js';

const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || undefined;
// In the folder the demo runs from, where it is easy to find (and `.gitignore`d in the repository).
const logFile = resolve('toolhooks-demo.log');

/**
 * OTel reports export problems through `diag`, once per signal and outage; the demo turns the first one
 * into a single line and stays quiet after it. (toolhooks' own diag lines arrive with control
 * characters already escaped.)
 */
let exportFailure: string | undefined;
const demoDiag: DiagLogger = {
  warn: (message: string) => {
    if (!message.includes('export failed') && !message.includes('still failing')) return void console.error(message);
    if (exportFailure !== undefined) return;
    exportFailure = message;
    console.error(`toolhooks-demo: the collector at ${endpoint} could not be reached (${/\(([^)]*)\)/.exec(message)?.[1] ?? message}); the tool calls go on, their telemetry is dropped`);
  },
  error: (message: string) => console.error(message),
  info: () => undefined,
  debug: () => undefined,
  verbose: () => undefined,
};

async function main(): Promise<void> {
  diag.setLogger(demoDiag, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
  // A collector that does not answer should not keep a newcomer waiting for the SDK's default 10 s.
  process.env.OTEL_EXPORTER_OTLP_TIMEOUT ??= '3000';
  const telemetry = await startTelemetry({ serviceName: 'toolhooks-demo', ...(endpoint === undefined ? { console: 'tree' as const } : {}) });

  // Log records go to a file (and to the OTLP logs endpoint when one is configured), not between the trees.
  const logger = pino({ name: 'toolhooks-demo' }, pino.multistream([{ stream: pino.destination({ dest: logFile, sync: true }) }, { stream: otelDestination() }]));
  const summary = new SummaryHook();
  const hooks = new HookRunner({
    hooks: [policyHook, policyV2Hook, createCacheHook(), retryHook, brokenHook, mailGateHook, new MetricsHook(), new LoggingHook({ logger }), summary],
    timeoutMs: 2_000,
    approver: onCallApprover,
  });
  const tools = createTools();

  for (const [i, step] of [...SCRIPT, ...MAIL_SCRIPT].entries()) {
    const execute = tools[step.tool];
    if (execute === undefined) throw new Error(`the script names an unknown tool: ${step.tool}`);
    try {
      await executeTool({ hooks, toolName: step.tool, args: step.args, execute, tools, callId: `call_${i + 1}` });
    } catch (error) {
      if (!(error instanceof HookAbortError)) throw error;
    }
  }
  await telemetry.shutdown();

  const count = (outcome: string): number => summary.outcomes.get(outcome) ?? 0;
  const rate = summary.calls === 0 ? 0 : count('aborted') / summary.calls;
  console.log('Summary');
  console.log(`  tool calls   ${summary.calls}`);
  for (const outcome of ['completed', 'skipped', 'recovered', 'aborted', 'failed', 'denied']) {
    console.log(`  ${outcome.padEnd(12)} ${count(outcome)}`);
  }
  console.log(`  abort rate   ${(rate * 100).toFixed(1)}%`);
  console.log(`  hook errors  ${summary.hookErrors} (swallowed; the calls went on)`);
  console.log(`  would abort  ${summary.wouldAbort} (policy-v2 in audit mode; nothing was stopped by it)`);
  console.log(`  logs         ${logFile} (one JSON record per decision and outcome, with trace_id/span_id)`);
  if (endpoint !== undefined && exportFailure !== undefined) {
    console.log(`\nThe collector at ${endpoint} could not be reached: nothing was exported. Is it up? (docker compose up -d)`);
  } else if (endpoint !== undefined) {
    console.log(`\nTraces, metrics and logs were sent to ${endpoint}.`);
    if (/^https?:\/\/(localhost|127\.0\.0\.1):4318\/?$/.test(endpoint)) {
      // Links only to what answers: a collector alone (no Jaeger, no Prometheus) gets none.
      const [jaeger, prometheus] = await Promise.all([answers('http://localhost:16686/'), answers('http://localhost:9090/-/ready')]);
      if (jaeger) {
        console.log('  Jaeger:     http://localhost:16686/search?service=toolhooks-demo  (operation "execute_tool shell", tag toolhooks.outcome=aborted)');
        console.log('              approvals: operation "execute_tool send_email", tag toolhooks.approval.outcome=denied');
      }
      if (prometheus) console.log('  Prometheus: http://localhost:9090/graph?g0.expr=all%3Atoolhooks_abort_ratio%3Arate5m');
    }
  }
}

/** Whether something answers at `url` within a second. */
async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
