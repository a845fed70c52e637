/**
 * toolhooks/adk with ADK's own tracing on: the app registers the SDK 3 line (through
 * `@opentelemetry/api` 1.10) before ADK loads, and ADK — which nests its own `@opentelemetry/api`
 * 1.9 copy — records its spans into the app's provider. Each tool call still has one `execute_tool`
 * span (toolhooks' own: the plugin runs the tool, so ADK starts none), and every span of the run is
 * in the app's trace.
 */
import { readFileSync } from 'node:fs';
import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { skip } from '../../../src/index.js';
import { toolhooksPlugin } from '../../../src/adapters/adk/index.js';
import { ATTR_GEN_AI_TOOL_CALL_ID } from '../../../src/telemetry/semconv.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
trace.setGlobalTracerProvider(tracing.provider);

describe('toolhooksPlugin with ADK tracing on (SDK 3 app, ADK on its own API 1.9 copy)', () => {
  it('loads its own API copy', () => {
    const version = (path: string) => (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
    expect(version('node_modules/@google/adk/node_modules/@opentelemetry/api/package.json')).toBe('1.9.0');
    expect(version('node_modules/@opentelemetry/api/package.json')).toMatch(/^1\.10\./);
  });

  it('one execute_tool span per call, under ADK’s spans, in the app’s trace', async () => {
    const { FunctionTool, InMemoryRunner, LlmAgent, LogLevel, setLogLevel } = await import('@google/adk');
    setLogLevel(LogLevel.ERROR);
    const { ScriptedLlm, runTurn } = await import('../../support/adk-model.js');
    const { z } = await import('zod');
    const model = new ScriptedLlm([{ calls: [{ id: 'c1', name: 'shell', args: { cmd: 'ls' } }, { id: 'c2', name: 'shell', args: { cmd: 'date' } }] }, { text: 'done' }]);
    const shell = new FunctionTool({ name: 'shell', description: 'Run a command', parameters: z.object({ cmd: z.string() }), execute: async ({ cmd }) => `ran ${cmd}` });
    const agent = new LlmAgent({ name: 'ops', model, instruction: 'help', tools: [shell] });
    const hooks = tracing.runner([{ name: 'cache', beforeTool: (_t, args) => (args.cmd === 'date' ? skip('cached', 'Monday') : undefined) }]);
    const runner = new InMemoryRunner({ agent, appName: 'app', plugins: [toolhooksPlugin(hooks)] });
    const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
    const root = tracing.tracer.startSpan('app request');
    const { context } = await import('@opentelemetry/api');
    await context.with(trace.setSpan(context.active(), root), () => runTurn(runner, session.id, { role: 'user', parts: [{ text: 'go' }] }));
    root.end();
    expect(model.responses.get('c1')).toEqual({ result: 'ran ls' });
    const spans = tracing.spans();
    // ADK's `execute_tool (merged)` span (one per batch of parallel calls) is ADK's own, not a call's.
    const tools = spans.filter((span) => span.name === 'execute_tool shell');
    expect(spans.filter((span) => span.name.startsWith('execute_tool') && span.name !== 'execute_tool (merged)')).toHaveLength(2);
    expect(tools.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).sort()).toEqual(['c1', 'c2']);
    // ADK's own spans recorded (its tracing is on), all in the app's trace.
    const adkSpans = spans.filter((span) => span.instrumentationScope.name === 'gcp.vertex.agent');
    expect(adkSpans.length).toBeGreaterThan(0);
    expect(new Set(spans.map((span) => span.spanContext().traceId))).toEqual(new Set([root.spanContext().traceId]));
    const ids = new Set(adkSpans.map((span) => span.spanContext().spanId));
    for (const span of tools) expect(ids.has(span.parentSpanContext?.spanId ?? '')).toBe(true);
  });
});
