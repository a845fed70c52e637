/**
 * toolhooks/ai on the AI SDK 7 line (`ai` 7 with its `@ai-sdk/otel` integration), driven by the
 * SDK's own `generateText` and its mock model from `ai/test`. The AI SDK 6 line: ai.test.ts.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { OpenTelemetry } from '@ai-sdk/otel';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolEvent, ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';
import { recordInvalidToolCalls, withHooks } from '../../../src/adapters/ai/index.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_OUTCOME,
  ATTR_REDIRECTED,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
} from '../../../src/telemetry/semconv.js';
import { answers, callsTools, streams, toolResultsSent } from '../../support/ai-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

function runner(hooks: ToolHook[], onEvent?: (event: ToolEvent) => void): HookRunner {
  const observer: ToolHook[] = onEvent === undefined ? [] : [{ name: 'observer', onEvent: (event) => (event.type === 'tool' ? onEvent(event) : undefined) }];
  return new HookRunner({ hooks: [...hooks, ...observer], tracer: tracing.tracer });
}

function makeTools() {
  const weather = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
  const shell = vi.fn(async ({ cmd }: { cmd: string }) => `host ran ${cmd}`);
  const sandbox = vi.fn(async ({ cmd }: { cmd: string }) => `sandbox ran ${cmd}`);
  const tools = {
    weather: tool({ description: 'Weather by city', inputSchema: z.object({ city: z.string() }), execute: weather }),
    shell: tool({ description: 'Run a command', inputSchema: z.object({ cmd: z.string() }), execute: shell }),
    sandbox_shell: tool({ description: 'Run a command in a sandbox', inputSchema: z.object({ cmd: z.string() }), execute: sandbox }),
  };
  return { tools, weather, shell, sandbox };
}

/** The SDK's mock model of the v4 specification (ai 7), scripted with the shared step builders. */
function model(...steps: ReturnType<typeof callsTools>[]): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doGenerate: steps as never });
}

function sentToModel(mock: MockLanguageModelV4, index = 1) {
  return toolResultsSent(mock.doGenerateCalls[index]?.prompt as never);
}

const otel = () => ({ integrations: new OpenTelemetry({ tracer: tracing.tracer }) });

describe('withHooks on ai 7: decisions inside generateText', () => {
  it('Skip, Redirect and Abort reach the model as the tool results it reads; the run goes on', async () => {
    const { tools, weather, shell, sandbox } = makeTools();
    const hooks = runner([
      { name: 'cache', tools: ['weather'], beforeTool: () => skip('cached', 'cloudy (cached)') },
      { name: 'sandbox', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).startsWith('curl') ? redirect({ newTool: 'sandbox_shell' }) : undefined) },
      { name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) },
    ]);
    const mock = model(
      callsTools({ id: 'c1', tool: 'weather', input: { city: 'Paris' } }, { id: 'c2', tool: 'shell', input: { cmd: 'curl x' } }, { id: 'c3', tool: 'shell', input: { cmd: 'rm -rf /' } }),
      answers('done'),
    );
    const result = await generateText({ model: mock, tools: withHooks(tools, hooks), stopWhen: stepCountIs(3), prompt: 'go' });

    expect(result.text).toBe('done');
    const sent = sentToModel(mock);
    expect(sent.c1).toEqual({ type: 'text', value: 'cloudy (cached)' });
    expect(sent.c2).toEqual({ type: 'text', value: 'sandbox ran curl x' });
    expect(sent.c3?.type).toBe('error-text');
    expect(String(sent.c3?.value)).toContain('destructive command');
    expect(weather).not.toHaveBeenCalled();
    expect(shell).not.toHaveBeenCalled();
    expect(sandbox).toHaveBeenCalledTimes(1);
    // Without @ai-sdk/otel, toolhooks records each call on its own execute_tool span, as on ai 6.
    expect(tracing.onlySpan('execute_tool weather').attributes[ATTR_OUTCOME]).toBe('skipped');
    const aborted = tracing.spansNamed('execute_tool shell').find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'c3');
    expect(aborted?.attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('streamText runs the hooked tools too', async () => {
    const { tools } = makeTools();
    const hooks = runner([{ name: 'cache', tools: ['weather'], beforeTool: () => skip('cached', 'cloudy (cached)') }]);
    const mock = new MockLanguageModelV4({
      doStream: [streams(callsTools({ id: 's1', tool: 'weather', input: { city: 'Oslo' } })), streams(answers('ok'))] as never,
    });
    const result = streamText({ model: mock, tools: withHooks(tools, hooks), stopWhen: stepCountIs(2), prompt: 'go' });
    expect(await result.text).toBe('ok');
    const [step] = await result.steps;
    expect(step?.toolResults.map((part) => part.output)).toEqual(['cloudy (cached)']);
  });
});

describe('withHooks on ai 7 with @ai-sdk/otel', () => {
  it('records on the integration\'s execute_tool span: one span per call, the phase spans below it', async () => {
    const { tools } = makeTools();
    const hooks = runner([
      { name: 'sandbox', tools: ['shell'], beforeTool: () => redirect({ newTool: 'sandbox_shell', reason: 'network' }) },
      { name: 'audit-after', afterTool: () => undefined },
    ]);
    const mock = model(callsTools({ id: 'o1', tool: 'shell', input: { cmd: 'curl x' } }), answers('done'));
    await generateText({ model: mock, tools: withHooks(tools, hooks), stopWhen: stepCountIs(2), prompt: 'go', telemetry: otel() });

    const [call] = tracing.spansNamed('execute_tool shell');
    expect(tracing.spansNamed('execute_tool shell')).toHaveLength(1);
    expect(tracing.spans().filter((span) => span.name.startsWith('execute_tool'))).toHaveLength(1);
    // The integration's span (its own attributes), with toolhooks' attributes added.
    expect(call?.instrumentationScope.name).toBe('toolhooks');
    expect(call?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('o1');
    expect(call?.attributes['gen_ai.execute_tool.duration']).toBeTypeOf('number');
    expect(call?.attributes[ATTR_OUTCOME]).toBe('completed');
    expect(call?.attributes[ATTR_REDIRECTED]).toBe(true);
    const before = tracing.onlySpan(SPAN_BEFORE_TOOL);
    expect(before.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(tracing.onlySpan(SPAN_EXECUTE).parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    // …which the integration parents under its step span and ends itself.
    const parent = tracing.spans().find((span) => span.spanContext().spanId === call?.parentSpanContext?.spanId);
    expect(parent?.name).toMatch(/^(step|chat|invoke_agent|generate_content)/);
  });

  it('streamText with the integration: still one execute_tool span per call, with toolhooks\' outcome', async () => {
    const { tools } = makeTools();
    const hooks = runner([{ name: 'cache', tools: ['weather'], beforeTool: () => skip('cached', 'cloudy (cached)') }]);
    const mock = new MockLanguageModelV4({
      doStream: [streams(callsTools({ id: 's2', tool: 'weather', input: { city: 'Oslo' } })), streams(answers('ok'))] as never,
    });
    const result = streamText({ model: mock, tools: withHooks(tools, hooks), stopWhen: stepCountIs(2), prompt: 'go', telemetry: otel() });
    expect(await result.text).toBe('ok');
    const call = tracing.onlySpan('execute_tool weather');
    expect(call.attributes[ATTR_OUTCOME]).toBe('skipped');
    expect(call.attributes['gen_ai.execute_tool.duration']).toBeTypeOf('number');
    expect(tracing.onlySpan(SPAN_BEFORE_TOOL).parentSpanContext?.spanId).toBe(call.spanContext().spanId);
  });

  it('with abortRun, an Abort stops generateText: it rejects with the HookAbortError', async () => {
    const { tools } = makeTools();
    const abortRun = new AbortController();
    const hooks = runner([{ name: 'policy', beforeTool: () => abort('no shell') }]);
    const mock = model(callsTools({ id: 'a1', tool: 'shell', input: { cmd: 'ls' } }), answers('never'));
    await expect(
      generateText({ model: mock, tools: withHooks(tools, hooks, { abortRun }), abortSignal: abortRun.signal, stopWhen: stepCountIs(3), prompt: 'go', telemetry: otel() }),
    ).rejects.toBeInstanceOf(HookAbortError);
    expect(mock.doGenerateCalls).toHaveLength(1);
  });

  it('an Abort marks the integration\'s span aborted with the HookAbortError', async () => {
    const { tools } = makeTools();
    const hooks = runner([{ name: 'policy', beforeTool: () => abort('no shell') }]);
    const mock = model(callsTools({ id: 'o2', tool: 'shell', input: { cmd: 'ls' } }), answers('done'));
    await generateText({ model: mock, tools: withHooks(tools, hooks), stopWhen: stepCountIs(2), prompt: 'go', telemetry: otel() });
    const call = tracing.onlySpan('execute_tool shell');
    expect(call.attributes[ATTR_OUTCOME]).toBe('aborted');
    expect(call.attributes[ATTR_ERROR_TYPE]).toBe('HookAbortError');
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('Ask and Replace on ai 7', () => {
  it("Ask with the runner's approver on the integration's span: approved runs, denied is the model's tool result and outcome denied; Replace is what the model reads", async () => {
    const { tools, shell, weather } = makeTools();
    const hooks = new HookRunner({
      hooks: [
        { name: 'gate', tools: ['shell'], beforeTool: () => ask('shell needs a person') },
        { name: 'tidy', tools: ['weather'], afterTool: () => replaceResult('weather: redacted') },
      ],
      approver: (request) => (request.args.cmd === 'ls' ? { approved: true } : { approved: false, reason: 'not that one' }),
      tracer: tracing.tracer,
    });
    const mock = model(
      callsTools({ id: 'k1', tool: 'shell', input: { cmd: 'ls' } }, { id: 'k2', tool: 'shell', input: { cmd: 'rm x' } }, { id: 'k3', tool: 'weather', input: { city: 'Oslo' } }),
      answers('ok'),
    );
    await generateText({ model: mock, tools: withHooks(tools, hooks), stopWhen: stepCountIs(2), prompt: 'go', telemetry: otel() });
    expect(shell).toHaveBeenCalledTimes(1);
    expect(weather).toHaveBeenCalledTimes(1);
    const sent = sentToModel(mock);
    expect([sent.k1, sent.k2, sent.k3]).toEqual([
      { type: 'text', value: 'host ran ls' },
      { type: 'text', value: 'Tool call denied: not that one' },
      { type: 'text', value: 'weather: redacted' },
    ]);
    const calls = tracing.spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(calls).toHaveLength(3);
    expect(Object.fromEntries(calls.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]]))).toEqual({ k1: 'completed', k2: 'denied', k3: 'completed' });
    // The approval span sits under the integration's execute_tool span.
    const approvals = tracing.spansNamed('toolhooks.approval');
    expect(approvals).toHaveLength(2);
    for (const approval of approvals) expect(calls.map((span) => span.spanContext().spanId)).toContain(approval.parentSpanContext?.spanId);
  });
});

describe("ai 7's own toolApproval through hooked tools", () => {
  it("'user-approval' still asks through a tool-approval-request; the approved call runs through the hooks in the continuation", async () => {
    const { tools, shell } = makeTools();
    const hooks = runner([{ name: 'audit', beforeTool: () => undefined }]);
    const mock = model(callsTools({ id: 'u1', tool: 'shell', input: { cmd: 'ls' } }), answers('done'));
    const hooked = withHooks(tools, hooks);
    const first = await generateText({ model: mock, tools: hooked, toolApproval: { shell: 'user-approval' }, stopWhen: stepCountIs(3), prompt: 'go', telemetry: otel() });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toBeDefined();
    expect(shell).not.toHaveBeenCalled();
    expect(tracing.spansNamed('execute_tool shell')).toHaveLength(0);

    const approvalId = (request as { approvalId: string }).approvalId;
    const messages = [
      { role: 'user' as const, content: 'go' },
      ...first.response.messages,
      { role: 'tool' as const, content: [{ type: 'tool-approval-response' as const, approvalId, approved: true }] },
    ];
    const second = await generateText({ model: mock, tools: hooked, toolApproval: { shell: 'user-approval' }, stopWhen: stepCountIs(3), messages, telemetry: otel() });
    expect(second.text).toBe('done');
    expect(shell).toHaveBeenCalledTimes(1);
    const call = tracing.onlySpan('execute_tool shell');
    expect([call.attributes[ATTR_GEN_AI_TOOL_CALL_ID], call.attributes[ATTR_OUTCOME]]).toEqual(['u1', 'completed']);
  });
});

describe('malformed tool calls on ai 7', () => {
  it('recordInvalidToolCalls records bad JSON and schema mismatches as failed, with no argument values when capture is off', async () => {
    const { tools, weather } = makeTools();
    const events: ToolEvent[] = [];
    const hooks = runner([], (event) => events.push(event));
    const mock = model(
      callsTools({ id: 'm1', tool: 'weather', input: { city: 4242 } }, { id: 'm2', tool: 'weather', input: 'RAW:{"city": "Par' }),
      answers('done'),
    );
    await generateText({
      model: mock,
      tools: withHooks(tools, hooks),
      experimental_repairToolCall: recordInvalidToolCalls(hooks),
      stopWhen: stepCountIs(2),
      prompt: 'go',
    });
    expect(weather).not.toHaveBeenCalled();
    const spans = tracing.spansNamed('execute_tool weather');
    expect(spans.map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['failed', 'failed']);
    expect(spans.map((span) => span.attributes[ATTR_ERROR_TYPE])).toEqual(['InvalidToolInputError', 'InvalidToolInputError']);
    expect(events.map((event) => event.outcome)).toEqual(['failed', 'failed']);
    // No argument value in any signal: not on the spans, their events, or the observers' events.
    const recorded = JSON.stringify([spans.map((span) => [span.attributes, span.events, span.status]), events]);
    expect(recorded).not.toContain('4242');
    expect(recorded).not.toContain('Par');
    for (const span of spans) expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]).toBeUndefined();
  });
});

describe('bad input on ai 7', () => {
  it('a tool of an older AI SDK (parameters, not inputSchema) is a TypeError at wrap time naming the supported range', () => {
    const legacy = { weather: { description: 'w', parameters: z.object({ city: z.string() }), execute: async () => 'x' } };
    expect(() => withHooks(legacy, runner([]))).toThrow(/tools\["weather"\] is a tool of an older AI SDK.*ai >=6\.0\.0 <8/);
  });
});
