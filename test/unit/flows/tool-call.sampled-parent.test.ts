/**
 * Only the sampled flag decides whether a call under a parent is traced, never `isRecording()`: a sampled
 * remote parent (a server continuing its caller's trace after `propagation.extract`, an MCP server reading
 * the `traceparent` toolhooks/mcp injects, a queue consumer) is not recording locally, and neither is a
 * request span that already ended — both are sampled, and the call must be traced under them.
 */
import type { Tracer } from '@opentelemetry/api';
import { ROOT_CONTEXT, TraceFlags, context, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { HookAbortError, HookRunner, abort, executeTool } from '../../../src/index.js';
import { SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import { newTracerProvider, simpleSpanProcessor } from '../../support/sdk.js';
import { installContextManager } from '../../support/tracing.js';

installContextManager();
const exporter = new InMemorySpanExporter();
const provider = newTracerProvider({ spanProcessors: [simpleSpanProcessor(exporter)] });
const tracer: Tracer = provider.getTracer('app');
beforeEach(() => exporter.reset());
afterAll(() => provider.shutdown());

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

const gate = new HookRunner({ tracer: provider.getTracer('toolhooks'), hooks: [{ name: 'gate', beforeTool: (_tool, args) => (args.cmd === 'rm' ? abort('no rm') : undefined) }] });

function call(cmd: string): Promise<unknown> {
  return executeTool({ hooks: gate, toolName: 'shell', args: { cmd }, execute: () => 'ran' });
}

function callSpan(): { traceId: string; parent: string | undefined } | undefined {
  const span = exporter.getFinishedSpans().find((candidate) => candidate.name === 'execute_tool shell');
  return span === undefined ? undefined : { traceId: span.spanContext().traceId, parent: span.parentSpanContext?.spanId };
}

describe('a call under a sampled parent that does not record locally', () => {
  it('a remote parent from propagation.extract: the call and its phases are traced in the caller\'s trace', async () => {
    const headers = { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` };
    const parent = new W3CTraceContextPropagator().extract(ROOT_CONTEXT, headers, { get: (carrier, key) => carrier[key as 'traceparent'], keys: Object.keys });
    expect(trace.getSpan(parent)?.isRecording()).toBe(false);
    await context.with(parent, () => call('ls'));
    expect(callSpan()).toEqual({ traceId: TRACE_ID, parent: PARENT_ID });
  });

  it('an aborted call under a remote parent leaves its trace (call span and phase span)', async () => {
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: TraceFlags.SAMPLED, isRemote: true });
    await expect(context.with(parent, () => call('rm'))).rejects.toBeInstanceOf(HookAbortError);
    expect(callSpan()).toEqual({ traceId: TRACE_ID, parent: PARENT_ID });
    expect(exporter.getFinishedSpans().filter((span) => span.name === SPAN_BEFORE_TOOL)).toHaveLength(1);
  });

  it('a request span that already ended', async () => {
    const request = tracer.startSpan('request');
    request.end();
    expect(request.isRecording()).toBe(false);
    await context.with(trace.setSpan(ROOT_CONTEXT, request), () => call('ls'));
    expect(callSpan()).toEqual({ traceId: request.spanContext().traceId, parent: request.spanContext().spanId });
  });

  it('an unsampled remote parent still starts no span (the sampler dropped the trace)', async () => {
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: TraceFlags.NONE, isRemote: true });
    await context.with(parent, () => call('ls'));
    expect(callSpan()).toBeUndefined();
  });
});
