/**
 * Attach to an app that already runs the OpenTelemetry Node SDK: toolhooks adds no pipeline of its
 * own — startTelemetry() sees the registered provider, says so through diag and returns status
 * `existing`, and the runner's spans and MetricsHook's metrics flow through the app's SDK.
 * Run: npx tsx examples/existing-sdk.ts
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { InMemoryMetricExporter, AggregationTemporality, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { HookRunner, executeTool, skip } from 'toolhooks';
import { MetricsHook } from 'toolhooks/hooks';
import { startTelemetry } from 'toolhooks/node';

// The app's own SDK, set up before toolhooks is involved (here with in-memory exporters to show what it got).
const spans = new InMemorySpanExporter();
const metricsOut = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricsOut, exportIntervalMillis: 60_000 });
const sdk = new NodeSDK({ serviceName: 'my-existing-app', spanProcessors: [new SimpleSpanProcessor({ exporter: spans })], metricReaders: [reader] });
sdk.start();

// Library code can call this unconditionally: with an SDK already running it changes nothing.
const telemetry = await startTelemetry({ serviceName: 'ignored-here' });
console.log(`startTelemetry status: ${telemetry.status}`);

const hooks = new HookRunner([{ name: 'cache', beforeTool: (_tool, args) => (args.q === 'cached' ? skip('cache hit', 'from cache') : undefined) }, new MetricsHook()]);
for (const q of ['fresh', 'cached']) {
  const result = await executeTool({ hooks, toolName: 'search', args: { q }, execute: () => `searched ${q}` });
  console.log(`search(${q}) → ${String(result)}`);
}

await reader.forceFlush();
const names = spans.getFinishedSpans().map((s) => s.name);
const calls = metricsOut
  .getMetrics()
  .flatMap((m) => m.scopeMetrics)
  .flatMap((s) => s.metrics)
  .filter((m) => m.descriptor.name === 'toolhooks.tool.calls')
  .flatMap((m) => m.dataPoints.map((p) => `${String(p.attributes['toolhooks.outcome'])}=${String(p.value)}`));
console.log(`the app's span exporter got: ${names.join(', ')}`);
console.log(`the app's metric reader got toolhooks.tool.calls: ${calls.join(', ')}`);
await telemetry.shutdown(); // a no-op for status `existing`: the app owns its SDK
await sdk.shutdown();
