/**
 * Send to the docker-compose stack (Jaeger + OpenTelemetry Collector + Prometheus, see
 * docs/operations.md): `docker compose up -d`, then `npx tsx examples/compose-stack.ts`.
 * It exports over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318, the
 * collector), makes a few tool calls, flushes, and prints where to look.
 */
import { HookAbortError, HookRunner, abort, executeTool } from 'toolhooks';
import { LoggingHook, MetricsHook } from 'toolhooks/hooks';
import { startTelemetry } from 'toolhooks/node';

const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT || 'http://localhost:4318';
const telemetry = await startTelemetry({ serviceName: 'toolhooks-compose-example', endpoint });
const hooks = new HookRunner([
  { name: 'policy', beforeTool: (_tool, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) },
  new MetricsHook(),
  new LoggingHook({ level: 'warn' }),
]);

let aborted = 0;
for (const cmd of ['ls', 'rm -rf /', 'git status', 'rm -rf ~']) {
  try {
    await executeTool({ hooks, toolName: 'shell', args: { cmd }, execute: () => `ran ${cmd}` });
  } catch (error) {
    if (!(error instanceof HookAbortError)) throw error;
    aborted += 1;
  }
}
await telemetry.shutdown(); // flushes traces, metrics and logs
console.log(`sent 4 tool calls (${aborted} aborted) to ${endpoint}`);
console.log('Jaeger:     http://localhost:16686/search?service=toolhooks-compose-example');
console.log('Prometheus: http://localhost:9090/graph?g0.expr=toolhooks_tool_calls_total');
