/**
 * Records real tool-call traffic with toolhooks itself: a live policy (v1) in a HookRunner with capture
 * on, tool calls through executeTool, spans exported by the OTLP/HTTP JSON exporter to a real receiver.
 * The request bodies, one per line, are what the OTel Collector's file exporter writes and what
 * /v1/traces receives. The replay tests then run a changed policy (v2) against them.
 */
import type { Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { HookAbortError, HookRunner, abort, executeTool, skip } from '../../../src/index.js';
import type { ToolArgs, ToolHook } from '../../../src/index.js';
import { OtlpReceiver, type ReceivedSpan } from '../../support/otlp-receiver.js';
import { installContextManager } from '../../support/tracing.js';

/** The live policy when the traffic was recorded. */
export const policyV1: ToolHook[] = [
  { name: 'shell-guard', tools: ['shell'], beforeTool: (_tool, args) => (/\brm\b/.test(String(args['cmd'])) ? abort('destructive command') : undefined) },
  { name: 'cache', tools: ['search'], beforeTool: (_tool, args) => (args['q'] === 'otel' ? skip('cache hit', ['cached result']) : undefined) },
];

/** One recorded call: what the agent asked for and what the tool returned. */
interface PlannedCall {
  tool: string;
  callId?: string;
  args: ToolArgs;
  result: unknown;
  /** Recorded by a runner with capture off: not replayable. */
  uncaptured?: true;
}

export const PLANNED: readonly PlannedCall[] = [
  { tool: 'shell', callId: 'call_1', args: { cmd: 'ls -la' }, result: 'a\nb' },
  { tool: 'shell', callId: 'call_2', args: { cmd: 'rm -rf /tmp/x' }, result: '' },
  { tool: 'http_get', callId: 'call_3', args: { url: 'https://api.example.com/v1/items', apiKey: 'sk-live-123' }, result: { status: 200 } },
  { tool: 'search', callId: 'call_4', args: { q: 'otel' }, result: ['live result'] },
  { tool: 'read_file', args: { path: '/etc/passwd' }, result: 'root:x:0:0' },
  { tool: 'write_file', callId: 'call_6', args: { path: '/tmp/big', content: 'x'.repeat(5000) }, result: 'ok' },
  { tool: 'fetch', callId: 'call_7', args: { url: 'https://example.com/key' }, result: { body: '-----BEGIN PRIVATE KEY-----' } },
  { tool: 'search', callId: 'call_8', args: { q: 'jaeger' }, result: ['jaeger docs'] },
  { tool: 'shell', callId: 'call_9', args: { cmd: 'rm -rf /' }, result: '', uncaptured: true },
];

/** What recording produced. */
export interface RecordedTraffic {
  /** Raw OTLP/JSON request bodies, one per element (join with '\n' for a JSON-lines file). */
  readonly bodies: string[];
  /** The same spans as the receiver decoded them, to look up trace and span ids. */
  readonly spans: ReceivedSpan[];
}

/** Where else to export the same spans (a real trace store), and the service name to record under. */
export interface RecordOptions {
  readonly alsoTo?: string;
  readonly serviceName?: string;
}

/** Runs {@link PLANNED} through policy v1 and returns the exported traffic. */
export async function recordTraffic(options: RecordOptions = {}): Promise<RecordedTraffic> {
  installContextManager();
  const receiver = await OtlpReceiver.start();
  try {
    // Small batches, so one trace's spans are spread over several lines as in a real file.
    const batching = { maxExportBatchSize: 7, scheduledDelayMillis: 10 };
    const spanProcessors = [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: receiver.endpoint('traces') }), ...batching })];
    if (options.alsoTo !== undefined) spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: options.alsoTo }), ...batching }));
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': options.serviceName ?? 'replay-test-agent' }),
      spanProcessors,
    });
    const tracer = provider.getTracer('toolhooks');
    await runPlannedCalls(tracer);
    await provider.forceFlush();
    await provider.shutdown();
    const bodies = receiver
      .requests()
      .filter((request) => request.signal === 'traces' && request.contentType === 'application/json')
      .map((request) => (request.body as Buffer).toString('utf8'));
    return { bodies, spans: receiver.spans() };
  } finally {
    await receiver.stop();
  }
}

/**
 * Runs {@link PLANNED} through policy v1 (capture on, as replay needs) through `tracer`, else the global
 * tracer: what an app does after `startTelemetry()`. Aborts are the policy's answer, not failures.
 */
export async function runPlannedCalls(tracer?: Tracer): Promise<void> {
  const traced = tracer === undefined ? {} : { tracer };
  const captured = new HookRunner({ hooks: policyV1, ...traced, capture: { args: true, results: true } });
  const uncaptured = new HookRunner({ hooks: policyV1, ...traced });
  for (const call of PLANNED) {
    try {
      await executeTool({
        hooks: call.uncaptured === true ? uncaptured : captured,
        toolName: call.tool,
        args: call.args,
        ...(call.callId === undefined ? {} : { callId: call.callId }),
        execute: () => call.result,
      });
    } catch (error) {
      if (!(error instanceof HookAbortError)) throw error;
    }
  }
}

/** The `execute_tool` span of the recorded call with this tool and call id (or args, for calls without one). */
export function callSpan(traffic: RecordedTraffic, tool: string, callId: string | undefined): ReceivedSpan {
  const span = traffic.spans.find(
    (candidate) =>
      candidate.name === `execute_tool ${tool}` &&
      (callId === undefined ? candidate.attributes['gen_ai.tool.call.id'] === undefined : candidate.attributes['gen_ai.tool.call.id'] === callId),
  );
  if (span === undefined) throw new Error(`no recorded execute_tool span for ${tool} ${String(callId)}`);
  return span;
}
