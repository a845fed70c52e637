/**
 * toolhooks/strands with Strands' own tracing on: the app's tracer provider is registered globally
 * (Strands traces through the global API, its own `@opentelemetry/api` 1.9 copy reading the app's
 * 1.10 registration). Each call keeps one `execute_tool` span — Strands' own — with toolhooks'
 * attributes on it and its phase spans below it, in the agent's trace.
 */
import { Agent, FunctionTool } from '@strands-agents/sdk';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, skip } from '../../../src/index.js';
import { toolhooksHooks } from '../../../src/adapters/strands/index.js';
import { ATTR_GEN_AI_TOOL_CALL_ID, ATTR_OUTCOME, SPAN_BEFORE_TOOL, SPAN_EXECUTE } from '../../../src/telemetry/semconv.js';
import { ScriptedModel } from '../../support/strands-model.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
beforeAll(() => void trace.setGlobalTracerProvider(tracing.provider));
afterAll(() => trace.disable());

describe("toolhooksHooks with Strands' tracing on", () => {
  it("one execute_tool span per call (Strands'), carrying toolhooks' outcome, its phase spans below it", async () => {
    const shell = vi.fn((input: unknown) => `host ran ${(input as { cmd: string }).cmd}`);
    const model = new ScriptedModel([{ calls: [{ id: 't1', name: 'shell', input: { cmd: 'ls' } }, { id: 't2', name: 'shell', input: { cmd: 'date' } }] }, { text: 'done' }]);
    const hooks = tracing.runner([{ name: 'cache', tools: ['shell'], beforeTool: (_t, args) => (args.cmd === 'date' ? skip('cached', 'Monday') : undefined) }]);
    const agent = new Agent({
      model,
      printer: false,
      tools: [new FunctionTool({ name: 'shell', description: 'Run a command', inputSchema: { type: 'object', properties: { cmd: { type: 'string' } } }, callback: shell })],
      interventions: [toolhooksHooks(hooks)],
    });
    await agent.invoke('go');
    const spans = tracing.spansNamed('execute_tool shell');
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      // Strands' own span (its gen_ai.tool.status), with toolhooks' outcome on it.
      expect(span.attributes['gen_ai.tool.status']).toBeDefined();
      expect(span.attributes[ATTR_OUTCOME]).toBeDefined();
      expect(tracing.childNames(span)).toContain(SPAN_BEFORE_TOOL);
    }
    const byId = Object.fromEntries(spans.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span]));
    expect(byId.t1!.attributes[ATTR_OUTCOME]).toBe('completed');
    expect(tracing.childNames(byId.t1!)).toEqual([SPAN_BEFORE_TOOL, SPAN_EXECUTE]);
    expect(byId.t2!.attributes[ATTR_OUTCOME]).toBe('skipped');
    // In the agent's trace: Strands' invoke_agent span is the root of every span of the run.
    const traceIds = new Set(tracing.spans().map((span) => span.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    expect(tracing.spans().some((span) => span.name.startsWith('invoke_agent'))).toBe(true);
  });

  it("an Ask handed to a Strands interrupt: the asking call's one span ends pending", async () => {
    tracing.reset();
    const model = new ScriptedModel([{ calls: [{ id: 'p1', name: 'shell', input: { cmd: 'rm x' } }] }]);
    const hooks = tracing.runner([{ name: 'gate', tools: ['shell'], beforeTool: () => ask('needs a human') }]);
    const agent = new Agent({
      model,
      printer: false,
      tools: [new FunctionTool({ name: 'shell', description: 'Run a command', inputSchema: { type: 'object', properties: { cmd: { type: 'string' } } }, callback: () => 'ran' })],
      interventions: [toolhooksHooks(hooks, { approvals: 'framework' })],
    });
    expect((await agent.invoke('go')).stopReason).toBe('interrupt');
    expect(tracing.outcomesOf('shell')).toEqual(['pending']);
  });
});
