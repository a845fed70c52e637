/**
 * toolhooks/ai with `approvals: 'framework'`: a hook's Ask handed to the AI SDK 7's own approval flow
 * (`toolApproval`, the `tool-approval-request` / `tool-approval-response` parts, the continuation call),
 * driven by the SDK's own `generateText` / `streamText` and its mock model, with and without
 * `@ai-sdk/otel`. The `ai` 6 line (`needsApproval`): the last describe.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { OpenTelemetry } from '@ai-sdk/otel';
import type { ModelMessage } from 'ai';
import { ToolLoopAgent, generateText, stepCountIs, streamText, toUIMessageStream, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { generateText as generateTextV6, stepCountIs as stepCountIsV6, tool as toolV6 } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolEvent, ToolHook } from '../../../src/index.js';
import { HookRunner, abort, ask, redirect } from '../../../src/index.js';
import { recordInvalidToolCalls, withHooks } from '../../../src/adapters/ai/index.js';
import {
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_OUTCOME,
  SPAN_APPROVAL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
} from '../../../src/telemetry/semconv.js';
import { answers, callsTools, streams, toolResultsSent } from '../../support/ai-model.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
let warnings: string[] = [];
const onWarning = (warning: Error) => void warnings.push(warning.message);
beforeEach(() => {
  tracing.reset();
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => void process.off('warning', onWarning));

const otel = () => ({ integrations: new OpenTelemetry({ tracer: tracing.tracer }) });

function setup(extra: ToolHook[] = []) {
  const send = vi.fn(async ({ to }: { to: string }) => `sent to ${to}`);
  const weather = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
  const tools = {
    send_email: tool({ description: 'Send a mail', inputSchema: z.object({ to: z.string() }), execute: send }),
    weather: tool({ description: 'Weather by city', inputSchema: z.object({ city: z.string() }), execute: weather }),
  };
  const gate = vi.fn(() => ask('outgoing mail needs a person'));
  const events: ToolEvent[] = [];
  const runner = new HookRunner({
    hooks: [{ name: 'mail-gate', tools: ['send_email'], beforeTool: gate }, ...extra, { name: 'rec', onEvent: (event) => void (event.type === 'tool' && events.push(event)) }],
    tracer: tracing.tracer,
  });
  const hooked = withHooks(tools, runner, { approvals: 'framework' });
  return { hooked, send, weather, gate, events };
}

/** The model asks for a mail (and the weather) first, then answers once it read the tool results. */
function mailModel() {
  return new MockLanguageModelV4({
    doGenerate: [
      callsTools({ id: 'call_mail', tool: 'send_email', input: { to: 'ops@example.com' } }, { id: 'call_w', tool: 'weather', input: { city: 'Oslo' } }),
      answers('done'),
      answers('done again'),
    ] as never,
  });
}

interface RequestPart {
  readonly type: string;
  readonly approvalId?: string;
  readonly reason?: string;
  readonly toolCall?: { readonly toolCallId: string };
}

function approvalRequest(result: { readonly content: readonly { readonly type: string }[] }): { approvalId: string; toolCallId: string; reason?: string } {
  const part = result.content.find((p) => p.type === 'tool-approval-request') as RequestPart | undefined;
  if (part?.approvalId === undefined || part.toolCall === undefined) throw new Error('no tool-approval-request');
  return { approvalId: part.approvalId, toolCallId: part.toolCall.toolCallId, ...(part.reason === undefined ? {} : { reason: part.reason }) };
}

function answered(first: { readonly response: { readonly messages: readonly unknown[] } }, approvalId: string, approved: boolean, extra: Record<string, unknown> = {}): ModelMessage[] {
  return [
    { role: 'user', content: 'mail ops' },
    ...first.response.messages,
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved, ...(approved ? {} : { reason: 'not today' }), ...extra }] },
  ] as ModelMessage[];
}

const callSpans = (): ReadableSpan[] => tracing.spans().filter((span) => span.name.startsWith('execute_tool'));

describe.each([
  ['without @ai-sdk/otel', undefined],
  ['with @ai-sdk/otel', otel],
] as const)('generateText, %s', (_label, telemetry) => {
  it('asks through the SDK, runs the approved call once in the continuation, and ties the two traces', async () => {
    const { hooked, send, weather, gate, events } = setup();
    const mock = mailModel();
    const first = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops', ...(telemetry ? { telemetry: telemetry() } : {}) });

    // Pass 1: the app gets the SDK's request, with the asking hook's reason; the mail is not sent.
    const request = approvalRequest(first);
    expect(request).toMatchObject({ toolCallId: 'call_mail', reason: 'outgoing mail needs a person' });
    expect(send).not.toHaveBeenCalled();
    expect(weather).toHaveBeenCalledTimes(1);
    expect(gate).toHaveBeenCalledTimes(1);
    // One execute_tool span per call; the weather call's before_tool ran once (in the approval check).
    const asking = tracing.onlySpan('execute_tool send_email');
    expect(asking.attributes).toMatchObject({ [ATTR_OUTCOME]: 'pending', [ATTR_APPROVAL_OUTCOME]: 'pending', [ATTR_APPROVAL_ID]: 'call_mail', [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_mail' });
    expect(tracing.onlySpan('execute_tool weather').attributes[ATTR_OUTCOME]).toBe('completed');
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes[ATTR_APPROVAL_OUTCOME]).toBe('pending');
    expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(1); // weather has no before hook: only the mail's phase
    expect(events.map((e) => [e.toolName, e.outcome])).toEqual([
      ['send_email', 'pending'],
      ['weather', 'completed'],
    ]);
    tracing.reset();

    // Pass 2: the app approves; the continuation runs the mail once.
    const second = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages: answered(first, request.approvalId, true), ...(telemetry ? { telemetry: telemetry() } : {}) });
    expect(second.text).toBe('done');
    expect(send).toHaveBeenCalledTimes(1);
    expect(gate).toHaveBeenCalledTimes(2); // once per pass
    const [call, ...more] = callSpans();
    expect(more).toHaveLength(0);
    expect(call?.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: request.approvalId, [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_mail' });
    expect(call?.links.map((link) => link.context.spanId)).toEqual([asking.spanContext().spanId]);
    expect(tracing.childNames(call!)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL, SPAN_EXECUTE]);
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: request.approvalId });
    expect(toolResultsSent(mock.doGenerateCalls[1]?.prompt as never).call_mail).toEqual({ type: 'text', value: 'sent to ops@example.com' });
  });

  it('a denial reaches the model as the SDK’s execution-denied and is recorded as denied', async () => {
    const { hooked, send, events } = setup();
    const mock = mailModel();
    const first = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops', ...(telemetry ? { telemetry: telemetry() } : {}) });
    const asking = tracing.onlySpan('execute_tool send_email');
    const { approvalId } = approvalRequest(first);
    tracing.reset();
    events.length = 0;

    await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages: answered(first, approvalId, false), ...(telemetry ? { telemetry: telemetry() } : {}) });
    expect(send).not.toHaveBeenCalled();
    expect(toolResultsSent(mock.doGenerateCalls[1]?.prompt as never).call_mail).toEqual({ type: 'execution-denied', reason: 'not today' });
    const call = tracing.onlySpan('execute_tool send_email');
    expect(call.attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_APPROVAL_OUTCOME]: 'denied', [ATTR_APPROVAL_ID]: approvalId });
    expect(call.links.map((link) => link.context.spanId)).toEqual([asking.spanContext().spanId]);
    expect(events.map((e) => [e.toolName, e.outcome])).toEqual([['send_email', 'denied']]);
  });

  it('a response replayed into a third call is ignored with one warning: the mail is not sent twice', async () => {
    const { hooked, send } = setup();
    const mock = new MockLanguageModelV4({
      doGenerate: [callsTools({ id: 'call_mail', tool: 'send_email', input: { to: 'ops@example.com' } }), answers('done'), answers('done again')] as never,
    });
    const first = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops', ...(telemetry ? { telemetry: telemetry() } : {}) });
    const messages = answered(first, approvalRequest(first).approvalId, true);
    await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages, ...(telemetry ? { telemetry: telemetry() } : {}) });
    expect(send).toHaveBeenCalledTimes(1);
    tracing.reset();

    const third = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages, ...(telemetry ? { telemetry: telemetry() } : {}) });
    expect(third.text).toBe('done again');
    expect(send).toHaveBeenCalledTimes(1);
    const sent = toolResultsSent(mock.doGenerateCalls[2]?.prompt as never).call_mail;
    expect(sent?.type).toBe('execution-denied');
    expect(JSON.stringify(sent)).toContain('was already resolved');
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes('already resolved'))).toHaveLength(1);
    expect(callSpans()).toHaveLength(0);
  });
});

describe('the approval check of a call that does not ask', () => {
  it.each([
    ['without @ai-sdk/otel', undefined],
    ['with @ai-sdk/otel', otel],
  ] as const)('%s: its hooks run once, in the check; the call is recorded once, in execute, with their decision', async (_label, telemetry) => {
    const audit = vi.fn(() => undefined);
    const { hooked, weather } = setup([
      { name: 'audit', tools: ['weather'], beforeTool: audit },
      { name: 'city', tools: ['weather'], beforeTool: () => redirect({ newArgs: { city: 'Bergen' } }) },
      { name: 'policy', tools: ['send_email'], beforeTool: () => abort('no mail today') },
    ]);
    const mock = mailModel();
    const result = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops', ...(telemetry ? { telemetry: telemetry() } : {}) });
    expect(result.text).toBe('done');
    expect(audit).toHaveBeenCalledTimes(1);
    expect(weather).toHaveBeenCalledWith({ city: 'Bergen' }, expect.anything());
    // An Abort decided in the check fails the call in execute: the model reads it as the tool's error.
    const sent = toolResultsSent(mock.doGenerateCalls[1]?.prompt as never);
    expect(sent.call_mail?.type).toBe('error-text');
    expect(String(sent.call_mail?.value)).toContain('no mail today');
    expect(callSpans().map((span) => [span.name, span.attributes[ATTR_OUTCOME]])).toEqual(
      expect.arrayContaining([
        ['execute_tool send_email', 'aborted'],
        ['execute_tool weather', 'completed'],
      ]),
    );
    expect(callSpans()).toHaveLength(2);
    expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(2);
    // The phase ran before the call's span existed: it is the call's sibling, not its child.
    const weatherCall = tracing.onlySpan('execute_tool weather');
    expect(tracing.childNames(weatherCall)).toEqual([SPAN_EXECUTE]);
  });
});

describe('the continuation, further cases', () => {
  it('resumes from messages serialised as JSON (a stored chat), in another ToolLoopAgent-free process state', async () => {
    const { hooked, send } = setup();
    const mock = mailModel();
    const first = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops', telemetry: otel() });
    const stored = JSON.stringify(answered(first, approvalRequest(first).approvalId, true));
    tracing.reset();
    const second = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages: JSON.parse(stored) as ModelMessage[], telemetry: otel() });
    expect(second.text).toBe('done');
    expect(send).toHaveBeenCalledTimes(1);
    expect(tracing.onlySpan('execute_tool send_email').attributes[ATTR_APPROVAL_OUTCOME]).toBe('approved');
  });

  it('a continuation this process did not ask (another process asked) runs, without a link', async () => {
    const asker = setup();
    const mock = mailModel();
    const first = await generateText({ model: mock, ...asker.hooked, stopWhen: stepCountIs(3), prompt: 'mail ops' });
    const other = setup(); // a second hooked set: its ledger never saw the request
    tracing.reset();
    await generateText({ model: mock, ...other.hooked, stopWhen: stepCountIs(3), messages: answered(first, approvalRequest(first).approvalId, true) });
    expect(other.send).toHaveBeenCalledTimes(1);
    expect(tracing.onlySpan('execute_tool send_email').links).toEqual([]);
  });

  it('two conversations whose model reuses a tool call id are resolved apart (by the SDK’s approvalId)', async () => {
    const { hooked, send } = setup();
    const elsewhere = setup(); // the second conversation asked on another instance
    for (const [to, asker] of [['ops@example.com', hooked], ['dev@example.com', elsewhere.hooked]] as const) {
      const mock = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 'call_0', tool: 'send_email', input: { to } }), answers('done')] as never });
      const first = await generateText({ model: mock, ...asker, stopWhen: stepCountIs(3), prompt: 'mail' });
      await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages: answered(first, approvalRequest(first).approvalId, true) });
    }
    expect(send.mock.calls.map(([input]) => input)).toEqual([{ to: 'ops@example.com' }, { to: 'dev@example.com' }]);
    expect(warnings).toEqual([]);
  });

  it('approver edits cannot come from the SDK’s response: extra fields are ignored, the hooks’ own Redirect applies', async () => {
    const { hooked, send } = setup([{ name: 'bcc', tools: ['send_email'], beforeTool: () => redirect({ newArgs: { to: 'audit@example.com' } }) }]);
    const mock = mailModel();
    const first = await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops' });
    const messages = answered(first, approvalRequest(first).approvalId, true, { args: { to: 'attacker@example.com' }, input: { to: 'attacker@example.com' } });
    await generateText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages });
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0]?.[0]).toEqual({ to: 'audit@example.com' });
  });

  it('works with experimental_toolApprovalSecret: the signed request verifies in the continuation', async () => {
    const { hooked, send } = setup();
    const mock = mailModel();
    const secret = 'test-secret-of-32-bytes-at-least!!';
    const first = await generateText({ model: mock, ...hooked, experimental_toolApprovalSecret: secret, stopWhen: stepCountIs(3), prompt: 'mail ops' });
    const signed = first.content.find((p) => p.type === 'tool-approval-request');
    expect(signed).toHaveProperty('signature');
    await generateText({ model: mock, ...hooked, experimental_toolApprovalSecret: secret, stopWhen: stepCountIs(3), messages: answered(first, approvalRequest(first).approvalId, true) });
    expect(send).toHaveBeenCalledTimes(1);
  });
});

describe('streamText', () => {
  it.each([
    ['without @ai-sdk/otel', undefined],
    ['with @ai-sdk/otel', otel],
  ] as const)('%s: the request is a stream part; the continuation stream runs the approved call once', async (_label, telemetry) => {
    const { hooked, send } = setup();
    const steps = [callsTools({ id: 'call_mail', tool: 'send_email', input: { to: 'ops@example.com' } }), answers('done')];
    let step = 0;
    const mock = new MockLanguageModelV4({ doStream: async () => streams(steps[Math.min(step++, steps.length - 1)]!) as never });
    const first = streamText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops', ...(telemetry ? { telemetry: telemetry() } : {}) });
    const parts: { type: string; approvalId?: string }[] = [];
    for await (const part of first.fullStream) parts.push(part as { type: string; approvalId?: string });
    const requestPart = parts.find((p) => p.type === 'tool-approval-request');
    expect(requestPart?.approvalId).toEqual(expect.any(String));
    expect(send).not.toHaveBeenCalled();
    const asking = tracing.onlySpan('execute_tool send_email');
    expect(asking.attributes[ATTR_OUTCOME]).toBe('pending');
    tracing.reset();

    const messages = [
      { role: 'user', content: 'mail ops' },
      ...(await first.response).messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: requestPart?.approvalId, approved: true }] },
    ] as ModelMessage[];
    const second = streamText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages, ...(telemetry ? { telemetry: telemetry() } : {}) });
    expect(await second.text).toBe('done');
    expect(send).toHaveBeenCalledTimes(1);
    const [call, ...more] = callSpans();
    expect(more).toHaveLength(0);
    expect(call?.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: requestPart?.approvalId });
    expect(call?.links.map((link) => link.context.spanId)).toEqual([asking.spanContext().spanId]);
  });
});

describe('streamText and the other paths', () => {
  it('streamText: a denial is recorded from onStart and reaches the model as execution-denied', async () => {
    const { hooked, send } = setup();
    const steps = [callsTools({ id: 'call_mail', tool: 'send_email', input: { to: 'ops@example.com' } }), answers('not sent')];
    let step = 0;
    const mock = new MockLanguageModelV4({ doStream: async () => streams(steps[Math.min(step++, steps.length - 1)]!) as never });
    const first = streamText({ model: mock, ...hooked, stopWhen: stepCountIs(3), prompt: 'mail ops' });
    const content = await first.content;
    tracing.reset();
    const second = streamText({ model: mock, ...hooked, stopWhen: stepCountIs(3), messages: answered({ response: await first.response }, approvalRequest({ content }).approvalId, false) });
    expect(await second.text).toBe('not sent');
    expect(send).not.toHaveBeenCalled();
    expect(tracing.onlySpan('execute_tool send_email').attributes[ATTR_OUTCOME]).toBe('denied');
  });

  it('ai 7 with the tools alone (their needsApproval, no toolApproval): asks, runs once, and a replay is the tool’s error', async () => {
    const { hooked, send } = setup();
    const mock = mailModel();
    const first = await generateText({ model: mock, tools: hooked.tools, stopWhen: stepCountIs(3), prompt: 'mail ops' });
    const messages = answered(first, approvalRequest(first).approvalId, true);
    await generateText({ model: mock, tools: hooked.tools, stopWhen: stepCountIs(3), messages });
    expect(send).toHaveBeenCalledTimes(1);
    await generateText({ model: mock, tools: hooked.tools, stopWhen: stepCountIs(3), messages });
    expect(send).toHaveBeenCalledTimes(1);
    const sent = toolResultsSent(mock.doGenerateCalls[2]?.prompt as never).call_mail;
    expect(sent?.type).toBe('error-text');
    expect(String(sent?.value)).toContain('was already resolved');
  });

  it('a malformed call never reaches the approval check: recordInvalidToolCalls records it as failed, without its input', async () => {
    const { hooked, gate } = setup();
    const mock = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 'bad', tool: 'send_email', input: { to: 4242 } }), answers('ok')] as never });
    const runner = new HookRunner({ hooks: [], tracer: tracing.tracer });
    await generateText({ model: mock, ...hooked, experimental_repairToolCall: recordInvalidToolCalls(runner), stopWhen: stepCountIs(2), prompt: 'mail' });
    expect(gate).not.toHaveBeenCalled();
    const span = tracing.onlySpan('execute_tool send_email');
    expect(span.attributes[ATTR_OUTCOME]).toBe('failed');
    expect(JSON.stringify([span.attributes, span.events, span.status])).not.toContain('4242');
  });
});

describe('ToolLoopAgent and the UI stream', () => {
  it('an agent built with the hooked pieces asks, and its UI message stream carries the request', async () => {
    const { hooked, send } = setup();
    const steps = [callsTools({ id: 'call_mail', tool: 'send_email', input: { to: 'ops@example.com' } }), answers('done')];
    let step = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () => steps[Math.min(step++, steps.length - 1)] as never,
      doStream: async () => streams(steps[Math.min(step++, steps.length - 1)]!) as never,
    });
    const agent = new ToolLoopAgent({ model: mock, ...hooked, stopWhen: stepCountIs(3) });
    const streamed = await agent.stream({ prompt: 'mail ops' });
    const chunks: { type: string; approvalId?: string; toolCallId?: string }[] = [];
    for await (const chunk of toUIMessageStream({ stream: streamed.fullStream, tools: hooked.tools })) chunks.push(chunk as { type: string });
    const request = chunks.find((chunk) => chunk.type === 'tool-approval-request');
    expect(request).toMatchObject({ approvalId: expect.any(String), toolCallId: 'call_mail' });
    expect(send).not.toHaveBeenCalled();

    const messages = [
      { role: 'user', content: 'mail ops' },
      ...(await streamed.response).messages,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request?.approvalId, approved: true }] },
    ] as ModelMessage[];
    const second = await agent.generate({ messages });
    expect(second.text).toBe('done');
    expect(send).toHaveBeenCalledTimes(1);
    expect(tracing.spansNamed('execute_tool send_email').map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['pending', 'completed']);
  });
});

describe('options', () => {
  it('approvals must be runner or framework', () => {
    const runner = new HookRunner([]);
    expect(() => withHooks({}, runner, { approvals: 'sdk' as never })).toThrow(/withHooks: options\.approvals must be 'runner' or 'framework', got the string "sdk"/);
  });

  it('a tool the set did not hook keeps its own needsApproval under the function toolApproval', async () => {
    const { hooked } = setup();
    const deploy = tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => 'deployed' });
    const mock = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 'd1', tool: 'deploy', input: {} }), answers('ok')] as never });
    const result = await generateText({ model: mock, tools: { ...hooked.tools, deploy }, toolApproval: hooked.toolApproval, stopWhen: stepCountIs(2), prompt: 'deploy' });
    expect(approvalRequest(result).toolCallId).toBe('d1');
  });
});

describe('ai 6: the hooked tools’ needsApproval', () => {
  it('asks through the SDK and runs the approved call once in the continuation; a replay is denied, never a second run', async () => {
    const send = vi.fn(async ({ to }: { to: string }) => `sent to ${to}`);
    const tools = { send_email: toolV6({ inputSchema: z.object({ to: z.string() }), execute: send }) };
    const runner = new HookRunner({ hooks: [{ name: 'mail-gate', beforeTool: () => ask('outgoing mail') }], tracer: tracing.tracer });
    const { tools: hookedTools } = withHooks(tools, runner, { approvals: 'framework' });
    const mock = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'call_mail', tool: 'send_email', input: { to: 'ops@example.com' } }), answers('done'), answers('again')] as never });
    const first = await generateTextV6({ model: mock, tools: hookedTools, stopWhen: stepCountIsV6(3), prompt: 'mail ops' });
    const part = first.content.find((p) => p.type === 'tool-approval-request');
    if (part?.type !== 'tool-approval-request') throw new Error('no request');
    expect(send).not.toHaveBeenCalled();
    const asking = tracing.onlySpan('execute_tool send_email');
    expect(asking.attributes[ATTR_OUTCOME]).toBe('pending');
    tracing.reset();

    const messages = [
      { role: 'user' as const, content: 'mail ops' },
      ...first.response.messages,
      { role: 'tool' as const, content: [{ type: 'tool-approval-response' as const, approvalId: part.approvalId, approved: true }] },
    ];
    await generateTextV6({ model: mock, tools: hookedTools, stopWhen: stepCountIsV6(3), messages });
    expect(send).toHaveBeenCalledTimes(1);
    const call = tracing.onlySpan('execute_tool send_email');
    expect(call.attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: part.approvalId });
    expect(call.links.map((link) => link.context.spanId)).toEqual([asking.spanContext().spanId]);

    await generateTextV6({ model: mock, tools: hookedTools, stopWhen: stepCountIsV6(3), messages });
    expect(send).toHaveBeenCalledTimes(1);
    // ai 6 denies the call itself once its needsApproval answers false: the SDK's execution-denied.
    expect(toolResultsSent(mock.doGenerateCalls[2]?.prompt as never).call_mail?.type).toBe('execution-denied');
  });
});
