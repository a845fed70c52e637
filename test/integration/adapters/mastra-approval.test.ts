/**
 * toolhooks/mastra with `approvals: 'framework'`: a before_tool Ask suspends Mastra's own Agent run as
 * Mastra's tool-call approval, and `approveToolCall` / `declineToolCall` (and the `…Generate` forms)
 * resume it from Mastra's storage (its in-memory store). The model is the AI SDK's `MockLanguageModelV4`.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolHook } from '../../../src/index.js';
import { HookRunner, ask, redirect, replaceResult } from '../../../src/index.js';
import { recordDeclinedCalls, recordInvalidToolCalls, withHooks } from '../../../src/adapters/mastra/index.js';
import type { WithHooksOptions } from '../../../src/adapters/mastra/index.js';
import { ATTR_APPROVAL_ID, ATTR_APPROVAL_OUTCOME, ATTR_ERROR_TYPE, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_OUTCOME, SPAN_APPROVAL } from '../../../src/telemetry/semconv.js';
import { answers, callsTools, streams, toolResultsSent } from '../../support/ai-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();
afterEach(() => vi.restoreAllMocks());

type Step = ReturnType<typeof callsTools>;

/** Mastra's answer to generate() / resumeGenerate(), as far as these tests read it. */
interface Generated {
  readonly text: string;
  readonly finishReason: string;
  readonly runId: string;
  readonly suspendPayload?: { readonly toolCallId: string; readonly toolName: string; readonly args: unknown };
}

/** The part of Mastra's Agent these tests drive (its own types pin Mastra's copy of the model spec). */
interface ApprovingAgent {
  generate(prompt: string, options: object): Promise<Generated>;
  approveToolCallGenerate(options: { runId: string; toolCallId: string }): Promise<Generated>;
  declineToolCallGenerate(options: { runId: string; toolCallId: string; reason?: string }): Promise<Generated>;
  resumeGenerate(resumeData: unknown, options: { runId: string; toolCallId: string }): Promise<Generated>;
  stream(prompt: string, options: object): Promise<{ fullStream: AsyncIterable<{ type: string; payload?: { toolCallId?: string } }>; runId: string }>;
  approveToolCall(options: { runId: string; toolCallId: string }): Promise<{ fullStream: AsyncIterable<{ type: string }> }>;
  declineToolCall(options: { runId: string; toolCallId: string; reason?: string }): Promise<{ fullStream: AsyncIterable<{ type: string }> }>;
}

const gate: ToolHook = { name: 'gate', tools: ['shell'], beforeTool: (_tool, args) => (String(args.cmd).startsWith('rm') ? ask('deleting needs a person') : undefined) };

function makeShell() {
  const run = vi.fn(async ({ cmd }: { cmd: string }) => `ran ${cmd}`);
  const safe = vi.fn(async ({ cmd }: { cmd: string }) => `safely ran ${cmd}`);
  const tools = {
    shell: createTool({ id: 'shell', description: 'Run a command', inputSchema: z.object({ cmd: z.string() }), execute: run }),
    safe_shell: createTool({ id: 'safe_shell', description: 'Run a command with a trash can', inputSchema: z.object({ cmd: z.string() }), execute: safe }),
  };
  return { tools, run, safe };
}

/** A Mastra agent over `store` with hooked tools; building a second one over the same store stands for another process. */
function build(options: {
  store: InMemoryStore;
  hooks: ToolHook[];
  steps?: Step[];
  streamed?: Step[];
  withProcessor?: boolean;
  approver?: () => { approved: boolean };
  hookOptions?: WithHooksOptions;
}) {
  const { tools, run, safe } = makeShell();
  const runner = new HookRunner({ hooks: options.hooks, tracer: tracing.tracer, approver: options.approver ?? (() => ({ approved: true })) });
  const hooked = withHooks(tools, runner, { approvals: 'framework', ...options.hookOptions });
  const model = new MockLanguageModelV4({ doGenerate: (options.steps ?? []) as never, doStream: (options.streamed ?? []).map(streams) as never });
  const ops = new Agent({
    id: 'ops',
    name: 'ops',
    instructions: 'help',
    model: model as never,
    tools: hooked,
    ...(options.withProcessor === false ? {} : { outputProcessors: [recordDeclinedCalls(hooked)] }),
  });
  const agent = new Mastra({ agents: { ops }, storage: options.store }).getAgent('ops') as unknown as ApprovingAgent;
  return { agent, model, run, safe };
}

function executeSpans(): ReadableSpan[] {
  return tracing.spansNamed('execute_tool shell');
}

function linkedSpanIds(span: ReadableSpan | undefined): string[] {
  return (span?.links ?? []).map((link) => link.context.spanId);
}

describe("an Ask suspends the run as Mastra's tool-call approval", () => {
  it('approveToolCallGenerate resumes it: the call runs once, its span carries the approval id and links to the asking span', async () => {
    const beforeTool = vi.fn(gate.beforeTool!);
    const { agent, model, run } = build({ store: new InMemoryStore(), hooks: [{ ...gate, beforeTool }], steps: [callsTools({ id: 'a1', tool: 'shell', input: { cmd: 'rm -rf build' } }), answers('cleaned')] });

    const first = await agent.generate('clean up', { maxSteps: 3 });
    expect(first.finishReason).toBe('suspended');
    expect(first.suspendPayload).toMatchObject({ toolCallId: 'a1', toolName: 'shell', args: { cmd: 'rm -rf build' } });
    expect(run).not.toHaveBeenCalled();
    expect(beforeTool).toHaveBeenCalledTimes(1);
    const [asking] = executeSpans();
    expect(asking?.attributes).toMatchObject({ [ATTR_OUTCOME]: 'pending', [ATTR_APPROVAL_OUTCOME]: 'pending', [ATTR_APPROVAL_ID]: 'a1', [ATTR_GEN_AI_TOOL_CALL_ID]: 'a1' });
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'pending', [ATTR_APPROVAL_ID]: 'a1' });

    const resumed = await agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'a1' });
    expect(resumed.text).toBe('cleaned');
    expect(run).toHaveBeenCalledTimes(1);
    expect(beforeTool).toHaveBeenCalledTimes(2); // once per pass: the asking call and its continuation
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt as never).a1).toEqual({ type: 'text', value: 'ran rm -rf build' });
    const spans = executeSpans();
    expect(spans).toHaveLength(2);
    expect(spans[1]?.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: 'a1' });
    expect(linkedSpanIds(spans[1])).toEqual([asking?.spanContext().spanId]);
  });

  it("never consults the runner's approver, and a call the hooks do not ask about runs in the same step", async () => {
    const approver = vi.fn(() => ({ approved: false }));
    const { agent, run } = build({
      store: new InMemoryStore(),
      hooks: [gate],
      approver,
      steps: [callsTools({ id: 'b1', tool: 'shell', input: { cmd: 'ls' } }, { id: 'b2', tool: 'shell', input: { cmd: 'rm x' } }), answers('ok')],
    });
    const first = await agent.generate('go', { maxSteps: 3 });
    expect(first.finishReason).toBe('suspended');
    expect(run.mock.calls.map(([input]) => input.cmd)).toEqual(['ls']);
    await agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'b2' });
    expect(run.mock.calls.map(([input]) => input.cmd)).toEqual(['ls', 'rm x']);
    expect(approver).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['completed', 'pending', 'completed']);
  });

  it('shows the app what would run after a Redirect, and the stream form (approveToolCall) runs the redirected call; Replace is what the model reads', async () => {
    const hooks: ToolHook[] = [
      { name: 'trash', tools: ['shell'], beforeTool: (_tool, args) => (String(args.cmd).startsWith('rm') ? redirect({ newTool: 'safe_shell', newArgs: { cmd: `trash ${String(args.cmd).slice(3)}` } }) : undefined) },
      { name: 'gate', beforeTool: () => ask('deleting needs a person') },
      { name: 'tidy', afterTool: () => replaceResult('moved to the trash') },
    ];
    const { agent, model, run, safe } = build({ store: new InMemoryStore(), hooks, streamed: [callsTools({ id: 'c1', tool: 'shell', input: { cmd: 'rm notes.txt' } }), answers('done')] });
    const first = await agent.stream('tidy up', { maxSteps: 3 });
    const approvals: unknown[] = [];
    for await (const chunk of first.fullStream) if (chunk.type === 'tool-call-approval') approvals.push(chunk.payload);
    expect(approvals).toEqual([expect.objectContaining({ toolCallId: 'c1', toolName: 'safe_shell', args: { cmd: 'trash notes.txt' } })]);

    const resumed = await agent.approveToolCall({ runId: first.runId, toolCallId: 'c1' });
    const types: string[] = [];
    for await (const chunk of resumed.fullStream) types.push(chunk.type);
    expect(types).toContain('tool-result');
    expect(run).not.toHaveBeenCalled();
    expect(safe).toHaveBeenCalledTimes(1);
    expect(safe).toHaveBeenCalledWith({ cmd: 'trash notes.txt' }, expect.anything());
    expect(toolResultsSent(model.doStreamCalls[1]?.prompt as never).c1).toEqual({ type: 'text', value: 'moved to the trash' });
    expect(tracing.outcomesOf('shell')).toEqual(['pending', 'completed']);
  });
});

describe('eager tool execution (stream with eagerToolExecution)', () => {
  it("asks once: Mastra's eager run bails out at the suspension and raises the approval itself", async () => {
    const { agent, run } = build({ store: new InMemoryStore(), hooks: [gate], streamed: [callsTools({ id: 'k1', tool: 'shell', input: { cmd: 'rm a' } }), answers('done')] });
    const first = await agent.stream('go', { maxSteps: 3, eagerToolExecution: true });
    const types: string[] = [];
    for await (const chunk of first.fullStream) types.push(chunk.type);
    expect(types.filter((type) => type === 'tool-call-approval')).toHaveLength(1);
    const resumed = await agent.approveToolCall({ runId: first.runId, toolCallId: 'k1' });
    for await (const _chunk of resumed.fullStream);
    expect(run).toHaveBeenCalledTimes(1);
    expect(tracing.outcomesOf('shell')).toEqual(['pending', 'completed']);
  });
});

describe("a tool with Mastra's own requireApproval: true", () => {
  it("is asked once: Mastra's approval settles the hooks' Ask, and a second resume of it does not run the tool again", async () => {
    const run = vi.fn(async ({ cmd }: { cmd: string }) => `ran ${cmd}`);
    const shell = createTool({ id: 'shell', description: 'Run a command', inputSchema: z.object({ cmd: z.string() }), requireApproval: true, execute: run });
    const model = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 'h1', tool: 'shell', input: { cmd: 'rm a' } }), answers('done'), answers('done too')] as never });
    const runner = new HookRunner({ hooks: [gate], tracer: tracing.tracer });
    const ops = new Agent({ id: 'ops', name: 'ops', instructions: 'help', model: model as never, tools: withHooks({ shell }, runner, { approvals: 'framework' }) });
    const agent = new Mastra({ agents: { ops }, storage: new InMemoryStore() }).getAgent('ops') as unknown as ApprovingAgent;
    const first = await agent.generate('go', { maxSteps: 3 });
    expect(first.finishReason).toBe('suspended');
    expect(executeSpans()).toHaveLength(0); // Mastra asked before execute
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const both = await Promise.all([agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'h1' }), agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'h1' })]);
    expect(both.map((result) => result.finishReason)).toEqual(['stop', 'stop']);
    expect(run).toHaveBeenCalledTimes(1);
    expect(tracing.onlySpan('execute_tool shell').attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: 'h1' });
  });
});

describe('a tool that suspends itself after the approval', () => {
  it('is resumed as the approved call: asked once, whatever it suspends for afterwards', async () => {
    const deploy = vi.fn(async (_input: { env: string }, context: { agent?: { resumeData?: { confirm: string }; suspend?: (payload: unknown) => Promise<void> } }) => {
      const answer = context.agent?.resumeData;
      if (answer === undefined) return void (await context.agent?.suspend?.({ question: 'type the environment to confirm' }));
      return `deployed to ${answer.confirm}`;
    });
    const tool = createTool({ id: 'deploy', description: 'Deploy', inputSchema: z.object({ env: z.string() }), resumeSchema: z.object({ confirm: z.string() }), suspendSchema: z.object({ question: z.string() }), execute: deploy as never });
    const model = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 's1', tool: 'deploy', input: { env: 'prod' } }), answers('deployed')] as never });
    const runner = new HookRunner({ hooks: [{ name: 'gate', beforeTool: () => ask('deploys need a person') }], tracer: tracing.tracer });
    const ops = new Agent({ id: 'ops', name: 'ops', instructions: 'help', model: model as never, tools: withHooks({ deploy: tool }, runner, { approvals: 'framework' }) });
    const agent = new Mastra({ agents: { ops }, storage: new InMemoryStore() }).getAgent('ops') as unknown as ApprovingAgent;

    const first = await agent.generate('ship it', { maxSteps: 3 });
    expect(first.finishReason).toBe('suspended');
    const approved = await agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 's1' });
    expect(approved.finishReason).toBe('suspended'); // now for the tool's own question
    expect(approved.suspendPayload).toMatchObject({ toolCallId: 's1' });
    const done = await agent.resumeGenerate({ confirm: 'prod' }, { runId: first.runId, toolCallId: 's1' });
    expect(done.text).toBe('deployed');
    expect(deploy).toHaveBeenCalledTimes(2);
    expect(tracing.spans().filter((span) => span.name === SPAN_APPROVAL).map((span) => span.attributes[ATTR_APPROVAL_OUTCOME])).toEqual(['pending', 'approved', 'approved']);
  });
});

describe('a declined call', () => {
  it("is recorded as denied by recordDeclinedCalls, linked to the asking span; the model reads Mastra's decline and the tool never runs", async () => {
    const { agent, model, run } = build({ store: new InMemoryStore(), hooks: [gate], steps: [callsTools({ id: 'd1', tool: 'shell', input: { cmd: 'rm -rf /' } }), answers('not deleted')] });
    const first = await agent.generate('go', { maxSteps: 3 });
    const resumed = await agent.declineToolCallGenerate({ runId: first.runId, toolCallId: 'd1', reason: 'not on prod' });
    expect(resumed.text).toBe('not deleted');
    expect(run).not.toHaveBeenCalled();
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt as never).d1).toEqual({ type: 'text', value: 'not on prod' });
    const [asking, declined] = executeSpans();
    expect(declined?.attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_APPROVAL_OUTCOME]: 'denied', [ATTR_APPROVAL_ID]: 'd1' });
    expect(linkedSpanIds(declined)).toEqual([asking?.spanContext().spanId]);
    expect(executeSpans()).toHaveLength(2);
  });

  it("reaches the stream as Mastra's tool-output-denied, never as a tool result", async () => {
    const { agent, model, run } = build({ store: new InMemoryStore(), hooks: [gate], streamed: [callsTools({ id: 'd2', tool: 'shell', input: { cmd: 'rm a' } }), answers('ok')] });
    const first = await agent.stream('go', { maxSteps: 3 });
    for await (const _chunk of first.fullStream);
    const resumed = await agent.declineToolCall({ runId: first.runId, toolCallId: 'd2' });
    const types: string[] = [];
    for await (const chunk of resumed.fullStream) types.push(chunk.type);
    expect(types).toContain('tool-output-denied');
    expect(types).not.toContain('tool-result');
    expect(toolResultsSent(model.doStreamCalls[1]?.prompt as never).d2).toEqual({ type: 'text', value: 'Tool call was not approved by the user' });
    expect(run).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['pending', 'denied']);
  });

  it('whose hooks no longer ask when the decline is recorded still never runs: recorded as failed (ToolCallDeclined)', async () => {
    let asking = true;
    const once: ToolHook = { name: 'once', beforeTool: () => (asking ? ask('first time only') : undefined) };
    const { agent, run } = build({ store: new InMemoryStore(), hooks: [once], steps: [callsTools({ id: 'd4', tool: 'shell', input: { cmd: 'rm a' } }), answers('ok')] });
    const first = await agent.generate('go', { maxSteps: 3 });
    asking = false;
    await agent.declineToolCallGenerate({ runId: first.runId, toolCallId: 'd4' });
    expect(run).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['pending', 'failed']);
    expect(executeSpans()[1]?.attributes[ATTR_ERROR_TYPE]).toBe('ToolCallDeclined');
  });

  it('passes every other chunk on unchanged, and ignores declines it cannot place', async () => {
    const { tools } = makeShell();
    const processor = recordDeclinedCalls(withHooks(tools, new HookRunner({ hooks: [gate], tracer: tracing.tracer }), { approvals: 'framework' }));
    const store = new Map<string, unknown>();
    const requestContext = { get: (key: string) => store.get(key), set: (key: string, value: unknown) => void store.set(key, value) };
    const denied = (payload: unknown, runId: unknown = 'run-1') => ({ type: 'tool-output-denied', runId, payload });
    const parts = [
      null,
      { type: 'text-delta', payload: { text: 'hi' } },
      denied(null),
      denied({ toolName: 'shell', toolCallId: 'x1' }, undefined),
      denied({ toolName: 'shell' }),
      denied({ toolName: 'other', toolCallId: 'x2', args: {} }),
      denied({ toolName: 'shell', toolCallId: 'x3', args: 'not an object', approval: { reason: 'no' } }), // never asked here
    ];
    for (const part of parts) expect(await processor.processOutputStream({ part, requestContext })).toBe(part);
    expect(await processor.processOutputStream({ part: parts[6], requestContext: 'not a request context' })).toBe(parts[6]);
    expect(tracing.spans()).toHaveLength(0);
  });

  it('is not seen without recordDeclinedCalls: only the asking call is recorded', async () => {
    const { agent, run } = build({ store: new InMemoryStore(), hooks: [gate], withProcessor: false, steps: [callsTools({ id: 'd3', tool: 'shell', input: { cmd: 'rm a' } }), answers('ok')] });
    const first = await agent.generate('go', { maxSteps: 3 });
    await agent.declineToolCallGenerate({ runId: first.runId, toolCallId: 'd3' });
    expect(run).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['pending']);
  });
});

describe('a resumed run', () => {
  it('resumes in another process (a new Mastra and new hooked tools over the same storage): the call runs once and still links to the asking span', async () => {
    const store = new InMemoryStore();
    const steps = [callsTools({ id: 'e1', tool: 'shell', input: { cmd: 'rm old.log' } }), answers('done')];
    const asking = build({ store, hooks: [gate], steps });
    const first = await asking.agent.generate('go', { maxSteps: 3 });
    expect(first.finishReason).toBe('suspended');

    const later = build({ store, hooks: [gate], steps: [answers('done')] });
    const resumed = await later.agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'e1' });
    expect(resumed.text).toBe('done');
    expect(asking.run).not.toHaveBeenCalled();
    expect(later.run).toHaveBeenCalledTimes(1);
    const [askingSpan, continuation] = executeSpans();
    expect(continuation?.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: 'e1' });
    expect(linkedSpanIds(continuation)).toEqual([askingSpan?.spanContext().spanId]);
  });
});

describe('a replayed approval', () => {
  it('for a run already resumed is refused by Mastra: no second execution, no further span', async () => {
    const { agent, run } = build({ store: new InMemoryStore(), hooks: [gate], steps: [callsTools({ id: 'f1', tool: 'shell', input: { cmd: 'rm a' } }), answers('done'), answers('again')] });
    const first = await agent.generate('go', { maxSteps: 3 });
    await agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'f1' });
    await expect(agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'f1' })).rejects.toThrow(/suspended run/);
    expect(run).toHaveBeenCalledTimes(1);
    expect(tracing.outcomesOf('shell')).toEqual(['pending', 'completed']);
  });

  it('sent twice at once (Mastra resumes the run twice) runs the call once and warns once; the second continuation reads that it was already resolved', async () => {
    const warnings: string[] = [];
    vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => void warnings.push(String(warning)));
    const { agent, model, run } = build({ store: new InMemoryStore(), hooks: [gate], steps: [callsTools({ id: 'g1', tool: 'shell', input: { cmd: 'rm a' } }), answers('done'), answers('done too')] });
    const first = await agent.generate('go', { maxSteps: 3 });
    const both = await Promise.all([agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'g1' }), agent.approveToolCallGenerate({ runId: first.runId, toolCallId: 'g1' })]);
    expect(both.map((result) => result.finishReason)).toEqual(['stop', 'stop']);
    expect(run).toHaveBeenCalledTimes(1);
    expect(warnings.filter((warning) => warning.includes('approval "g1" was already resolved'))).toHaveLength(1);
    const sent = model.doGenerateCalls.slice(1).map((call) => toolResultsSent(call.prompt as never).g1);
    expect(sent).toEqual(expect.arrayContaining([{ type: 'text', value: 'ran rm a' }, { type: 'text', value: 'approval g1 was already resolved; the tool does not run again' }]));
    expect(tracing.outcomesOf('shell')).toEqual(['pending', 'completed']);
  });
});

describe('approvals option', () => {
  it("is 'runner' by default; a bad value, and recordDeclinedCalls without hooked tools, are TypeErrors", () => {
    const { tools } = makeShell();
    const runner = new HookRunner([]);
    expect(() => withHooks(tools, runner, { approvals: 'runner' })).not.toThrow();
    expect(() => withHooks(tools, runner, { approvals: 'mastra' } as never)).toThrow(TypeError);
    expect(() => withHooks(tools, runner, { approvals: 'mastra' } as never)).toThrow(/withHooks: options\.approvals must be 'runner' or 'framework', got the string "mastra"/);
    expect(() => recordDeclinedCalls(withHooks(tools, runner))).toThrow(/recordDeclinedCalls: tools has no tool of withHooks\(tools, runner, \{ approvals: 'framework' \}\)/);
    expect(() => recordDeclinedCalls(null as never)).toThrow(/recordDeclinedCalls: tools must be the record withHooks/);
  });

  it('a call Mastra refuses as malformed is still failed, without argument values, and nothing is asked', async () => {
    const { tools, run } = makeShell();
    const runner = new HookRunner({ hooks: [gate], tracer: tracing.tracer });
    const model = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 'm1', tool: 'shell', input: { cmd: 4242 } }), answers('ok')] as never });
    const ops = new Agent({ id: 'ops', name: 'ops', instructions: 'help', model: model as never, tools: withHooks(tools, runner, { approvals: 'framework' }), hooks: recordInvalidToolCalls(runner) as never });
    const agent = new Mastra({ agents: { ops }, storage: new InMemoryStore() }).getAgent('ops') as unknown as ApprovingAgent;
    const result = await agent.generate('go', { maxSteps: 2 });
    expect(result.finishReason).not.toBe('suspended');
    expect(run).not.toHaveBeenCalled();
    const span = tracing.onlySpan('execute_tool shell');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'ValidationError' });
    expect(tracing.spansNamed(SPAN_APPROVAL)).toHaveLength(0);
    expect(JSON.stringify(tracing.spans().map((s) => [s.attributes, s.status, s.events]))).not.toContain('4242');
  });

  it("outside an agent run (a tool's execute called directly) the runner's approver decides", async () => {
    const { tools, run } = makeShell();
    const approver = vi.fn(() => ({ approved: false as const, reason: 'no' }));
    const hooked = withHooks(tools, new HookRunner({ hooks: [gate], approver, tracer: tracing.tracer }), { approvals: 'framework' });
    expect(await hooked.shell.execute?.({ cmd: 'rm a' }, {} as never)).toBe('Tool call denied: no');
    expect(approver).toHaveBeenCalledTimes(1);
    expect(run).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['denied']);
  });
});
