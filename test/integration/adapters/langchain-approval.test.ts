/**
 * toolhooks/langchain and the decisions that need someone else: Ask (decided by the runner's approver
 * inside the call, or handed to LangGraph as an `interrupt()` resumed with `Command({ resume })`) and
 * after_tool Replace, with the real `createAgent` of langchain 1.x, LangGraph's MemorySaver and
 * LangChain's offline fake chat model.
 */
import { deserialize, serialize } from 'node:v8';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { ClientTool } from '@langchain/core/tools';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver, interrupt } from '@langchain/langgraph';
import { createAgent, tool } from 'langchain';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest, ApprovalResponse, ToolHook } from '../../../src/index.js';
import { ask, redirect, replaceResult, skip } from '../../../src/index.js';
import type { ToolhooksApprovalInterrupt, ToolhooksMiddlewareOptions } from '../../../src/adapters/langchain/index.js';
import { toolhooksMiddleware, withHooks } from '../../../src/adapters/langchain/index.js';
import {
  ATTR_APPROVAL_EDITED,
  ATTR_APPROVAL_ID,
  ATTR_ERROR_TYPE,
  ATTR_APPROVAL_OUTCOME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_OUTCOME,
  ATTR_RESULT_REPLACED,
  SPAN_AFTER_TOOL,
  SPAN_APPROVAL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

/** The ToolMessages among `messages`, by tool call id. */
function toolMessagesIn(messages: BaseMessage[] | undefined): Record<string, ToolMessage> {
  const seen: Record<string, ToolMessage> = {};
  for (const message of messages ?? []) if (ToolMessage.isInstance(message)) seen[message.tool_call_id] = message;
  return seen;
}

function makeTools() {
  const transferFn = vi.fn(async ({ to, amount }: { to: string; amount: number }) => `sent ${amount} to ${to}`);
  const balanceFn = vi.fn(async ({ account }: { account: string }) => `balance of ${account}: 120 EUR, card 4111-1111-1111-1111`);
  const transfer = tool(transferFn, { name: 'transfer', description: 'Send money', schema: z.object({ to: z.string(), amount: z.number() }) });
  const balance = tool(balanceFn, { name: 'balance', description: 'Account balance', schema: z.object({ account: z.string() }) });
  return { tools: [transfer, balance] as ClientTool[], transferFn, balanceFn };
}

const gate: ToolHook = { name: 'four-eyes', tools: ['transfer'], beforeTool: (_tool, args) => (Number(args.amount) > 100 ? ask('large transfer') : undefined) };
const start = { messages: [{ role: 'user', content: 'go' }] };

describe('Ask decided by the runner approver (no framework flow)', () => {
  function agentWith(approver: ((request: ApprovalRequest) => ApprovalResponse) | undefined, id: string, options?: ToolhooksMiddlewareOptions) {
    const { tools, transferFn } = makeTools();
    const model = fakeModel().respondWithTools([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id }]).respond(new AIMessage('done'));
    const runner = tracing.runner([gate], approver === undefined ? {} : { approver });
    const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(runner, options)] });
    return { agent, model, transferFn };
  }

  it('approved: the tool runs once with the approver edits; the model reads its result', async () => {
    const approver = vi.fn((_request: ApprovalRequest): ApprovalResponse => ({ approved: true, args: { amount: 150 } }));
    const { agent, model, transferFn } = agentWith(approver, 'a-1');
    await agent.invoke(start);

    expect(approver).toHaveBeenCalledTimes(1);
    expect(approver.mock.calls[0]![0]).toMatchObject({ toolName: 'transfer', args: { to: 'bob', amount: 500 }, reason: 'large transfer', hook: 'four-eyes', callId: 'a-1' });
    expect(transferFn).toHaveBeenCalledTimes(1);
    expect(transferFn.mock.calls[0]![0]).toEqual({ to: 'bob', amount: 150 });
    expect(toolMessagesIn(model.calls[1]?.messages)['a-1']?.content).toBe('sent 150 to bob');
    const span = tracing.onlySpan(`${SPAN_EXECUTE_TOOL_PREFIX} transfer`);
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_GEN_AI_TOOL_CALL_ID]: 'a-1' });
    expect(tracing.childNames(span)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL, SPAN_EXECUTE]);
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_EDITED]: true });
  });

  it('denied, or no approver at all: the tool does not run; the model reads the denial under the call id', async () => {
    for (const [approver, why] of [
      [() => ({ approved: false, reason: 'over the daily limit' }), 'over the daily limit'],
      [undefined, 'no_approver'],
    ] as const) {
      tracing.reset();
      const { agent, model, transferFn } = agentWith(approver, 'a-2');
      await agent.invoke(start);
      expect(transferFn).not.toHaveBeenCalled();
      const message = toolMessagesIn(model.calls[1]?.messages)['a-2'];
      expect(message?.content).toBe(`Tool call denied: ${why}`);
      expect(message?.name).toBe('transfer');
      expect(tracing.onlySpan(`${SPAN_EXECUTE_TOOL_PREFIX} transfer`).attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied' });
    }
  });
});

describe('Replace onto the ToolMessage content', () => {
  it("after_tool Replace: the model reads the replacement as the tool's message (same call id and name)", async () => {
    const { tools, balanceFn } = makeTools();
    const redact: ToolHook = { name: 'pan-redaction', afterTool: (_tool, _args, result) => replaceResult(String(result).replace(/\d{4}(-\d{4}){3}/g, '[card]'), 'card number') };
    const model = fakeModel().respondWithTools([{ name: 'balance', args: { account: 'main' }, id: 'r-1' }]).respond(new AIMessage('done'));
    const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(tracing.runner([redact]))] });
    const out = await agent.invoke(start);

    expect(balanceFn).toHaveBeenCalledTimes(1);
    const seen = toolMessagesIn(model.calls[1]?.messages)['r-1'];
    expect(seen?.content).toBe('balance of main: 120 EUR, card [card]');
    expect(seen).toMatchObject({ name: 'balance', tool_call_id: 'r-1' });
    expect(JSON.stringify(out.messages)).not.toContain('4111');
    const span = tracing.onlySpan(`${SPAN_EXECUTE_TOOL_PREFIX} balance`);
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_RESULT_REPLACED]: true });
    expect(tracing.childNames(span)).toEqual([SPAN_EXECUTE, SPAN_AFTER_TOOL]);
  });

  it('a replacement that is not a string reaches the model as JSON', async () => {
    const { tools } = makeTools();
    const model = fakeModel().respondWithTools([{ name: 'balance', args: { account: 'main' }, id: 'r-2' }]).respond(new AIMessage('done'));
    const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(tracing.runner([{ afterTool: () => replaceResult({ balance: 'hidden' }) }]))] });
    await agent.invoke(start);
    expect(toolMessagesIn(model.calls[1]?.messages)['r-2']?.content).toBe('{"balance":"hidden"}');
  });
});


describe("Ask as a LangGraph interrupt (approvals: 'framework')", () => {
  let thread = 0;
  /** An agent with a checkpointer whose model asks for `calls` in one step, then answers. */
  function setup(calls: { name: string; args: Record<string, unknown>; id: string }[], hooks: ToolHook[] = [gate], checkpointer = new MemorySaver()) {
    const made = makeTools();
    const model = fakeModel().respondWithTools(calls).respond(new AIMessage('done')).respond(new AIMessage('done again'));
    const beforeTool = vi.fn();
    const runner = tracing.runner([{ name: 'watch', beforeTool }, ...hooks]);
    const middleware = toolhooksMiddleware(runner, { approvals: 'framework' });
    const agent = createAgent({ model, tools: made.tools, middleware: [middleware], checkpointer });
    const config = { configurable: { thread_id: `thread-${(thread += 1)}` } };
    return { ...made, model, agent, config, beforeTool, checkpointer, middleware };
  }
  type Agent = ReturnType<typeof setup>['agent'];
  type Interrupted = { __interrupt__?: { id: string; value: ToolhooksApprovalInterrupt }[]; messages: BaseMessage[] };
  const invoke = async (agent: Agent, input: unknown, config: object): Promise<Interrupted> => (await agent.invoke(input as never, config)) as unknown as Interrupted;
  const transferSpans = () => tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} transfer`);
  const spanOfTool = (index: number): ReadableSpan => transferSpans()[index]!;
  const approvalOf = (span: ReadableSpan): ReadableSpan =>
    tracing.spansNamed(SPAN_APPROVAL).find((candidate) => candidate.parentSpanContext?.spanId === span.spanContext().spanId)!;

  it('the asking pass: the agent stops with the interrupt (LangChain HITL request); the call is pending; the tool does not run', async () => {
    const { agent, config, transferFn, beforeTool } = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'i-1' }]);
    const result = await invoke(agent, start, config);

    expect(transferFn).not.toHaveBeenCalled();
    expect(beforeTool).toHaveBeenCalledTimes(1);
    expect(result.__interrupt__).toHaveLength(1);
    const value = result.__interrupt__![0]!.value;
    expect(value.actionRequests).toEqual([{ name: 'transfer', args: { to: 'bob', amount: 500 }, description: expect.stringContaining('large transfer') as unknown }]);
    expect(value.reviewConfigs).toEqual([{ actionName: 'transfer', allowedDecisions: ['approve', 'edit', 'reject'] }]);
    expect(value.toolhooks).toEqual({
      approvalId: 'i-1',
      toolCallId: 'i-1',
      toolName: 'transfer',
      args: { to: 'bob', amount: 500 },
      redactedArgs: '{"to":"bob","amount":500}',
      reason: 'large transfer',
      hook: 'four-eyes',
    });
    const span = spanOfTool(0);
    expect(transferSpans()).toHaveLength(1);
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'pending', [ATTR_APPROVAL_OUTCOME]: 'pending', [ATTR_APPROVAL_ID]: 'i-1', [ATTR_GEN_AI_TOOL_CALL_ID]: 'i-1' });
    expect(span.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(tracing.childNames(span)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL]);
    expect(approvalOf(span).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'pending', [ATTR_APPROVAL_ID]: 'i-1' });
  });

  it('the interrupt description shows the arguments redacted (secret-looking keys), as the approver would see them', async () => {
    const { agent, config } = setup([{ name: 'transfer', args: { to: 'bob', amount: 500, api_key: 'sk-live-1234' }, id: 'i-s' }]);
    const result = await invoke(agent, start, config);
    const value = result.__interrupt__![0]!.value;
    expect(value.actionRequests[0]?.description).toContain('"api_key":"[REDACTED]"');
    expect(value.actionRequests[0]?.description).not.toContain('sk-live-1234');
    expect(value.toolhooks.redactedArgs).not.toContain('sk-live-1234');
  });

  it("resumed with { approved: true }: the hooks run again, the tool runs once, the span links to the asking one", async () => {
    const { agent, config, transferFn, beforeTool, model } = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'i-2' }]);
    await invoke(agent, start, config);
    const out = await invoke(agent, new Command({ resume: { approved: true, approver: 'alice' } }), config);

    expect(out.__interrupt__).toBeUndefined();
    expect(transferFn).toHaveBeenCalledTimes(1);
    expect(beforeTool).toHaveBeenCalledTimes(2);
    expect(toolMessagesIn(model.calls[1]?.messages)['i-2']?.content).toBe('sent 500 to bob');
    expect(transferSpans()).toHaveLength(2);
    const [asking, resumed] = [spanOfTool(0), spanOfTool(1)];
    expect(resumed.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: 'i-2' });
    expect(tracing.childNames(resumed)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL, SPAN_EXECUTE]);
    expect(approvalOf(resumed).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: 'i-2', 'toolhooks.approval.approver': 'alice' });
    expect(resumed.links.map((link) => link.context.spanId)).toEqual([asking.spanContext().spanId]);
    expect(resumed.links[0]?.attributes).toEqual({ [ATTR_APPROVAL_ID]: 'i-2' });
  });

  it("a resume value's approver reference is recorded bounded: a 5 MB one is cut to maxLength (issue 29)", async () => {
    const { agent, config, transferFn } = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'i-big' }]);
    await invoke(agent, start, config);
    await invoke(agent, new Command({ resume: { approved: true, approver: 'x'.repeat(5_000_000) } }), config);
    expect(transferFn).toHaveBeenCalledTimes(1);
    expect(approvalOf(spanOfTool(1)).attributes['toolhooks.approval.approver']).toBe(`${'x'.repeat(4096)}…[truncated ${5_000_000 - 4096}]`);
  });

  it("LangChain's HITL decisions: approve; edit (the edited args are the args); reject (the model reads a not-executed error message)", async () => {
    const first = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'h-1' }]);
    await invoke(first.agent, start, first.config);
    await invoke(first.agent, new Command({ resume: { decisions: [{ type: 'approve' }] } }), first.config);
    expect(first.transferFn.mock.calls.map((call) => call[0])).toEqual([{ to: 'bob', amount: 500 }]);

    const edit = setup([{ name: 'transfer', args: { to: 'bob', amount: 500, memo: 'rent' }, id: 'h-2' }]);
    await invoke(edit.agent, start, edit.config);
    await invoke(edit.agent, new Command({ resume: { decisions: [{ type: 'edit', editedAction: { name: 'transfer', args: { to: 'bob', amount: 90 } } }] } }), edit.config);
    expect(edit.transferFn).toHaveBeenCalledTimes(1);
    expect(edit.transferFn.mock.calls[0]![0]).toEqual({ to: 'bob', amount: 90 });
    expect(approvalOf(spanOfTool(3)).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_EDITED]: true });

    const reject = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'h-3' }]);
    await invoke(reject.agent, start, reject.config);
    const out = await invoke(reject.agent, new Command({ resume: { decisions: [{ type: 'reject', message: 'ask Bob first' }] } }), reject.config);
    expect(reject.transferFn).not.toHaveBeenCalled();
    const seen = toolMessagesIn(reject.model.calls[1]?.messages)['h-3'];
    expect(seen).toMatchObject({ content: 'Tool call denied: ask Bob first', status: 'error', name: 'transfer', tool_call_id: 'h-3' });
    expect(out.messages.at(-1)?.content).toBe('done');
    expect(spanOfTool(5).attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_APPROVAL_OUTCOME]: 'denied', [ATTR_APPROVAL_ID]: 'h-3' });
    expect(approvalOf(spanOfTool(5)).attributes['toolhooks.approval.denial_reason']).toBe('ask Bob first');
  });

  it('a resume value of no known shape: the approval ends as error and the call is denied (fail closed)', async () => {
    for (const resume of [{ ok: true }, { approved: true, args: 'all' }, { decisions: [] }, { decisions: [{ type: 'edit', editedAction: { name: 'balance', args: {} } }] }, 'yes']) {
      tracing.reset();
      const { agent, config, transferFn, model } = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: `m-${thread}` }]);
      await invoke(agent, start, config);
      await invoke(agent, new Command({ resume }), config);
      expect(transferFn).not.toHaveBeenCalled();
      const resumed = spanOfTool(1);
      expect(resumed.attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_APPROVAL_OUTCOME]: 'error' });
      expect(approvalOf(resumed).attributes[ATTR_ERROR_TYPE]).toBe('TypeError');
      expect(Object.values(toolMessagesIn(model.calls[1]?.messages))[0]).toMatchObject({ content: 'Tool call denied: error', status: 'error' });
    }
  });

  it('the same resume replayed into a third pass (a fork of the interrupted checkpoint): one warning, no second execution', async () => {
    const warnings: string[] = [];
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => void warnings.push(String(warning)));
    try {
      const { agent, config, transferFn } = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'x-1' }]);
      await invoke(agent, start, config);
      const interrupted = await agent.graph.getState(config);
      const resume = new Command({ resume: { approved: true } });
      await invoke(agent, resume, config);
      expect(transferFn).toHaveBeenCalledTimes(1);
      // Resuming the finished thread again: LangGraph has nothing pending and runs nothing.
      await invoke(agent, resume, config);
      expect(transferFn).toHaveBeenCalledTimes(1);
      // Resuming from the interrupted checkpoint again re-runs the tools node with the same answer.
      const forked = await invoke(agent, resume, interrupted.config);
      expect(transferFn).toHaveBeenCalledTimes(1);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('approval "x-1" was already resolved');
      const seen = forked.messages.filter((message) => ToolMessage.isInstance(message)).at(-1) as ToolMessage;
      expect(seen).toMatchObject({ content: 'approval x-1 was already resolved; the tool does not run again', status: 'error' });
      expect(spanOfTool(2).attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_APPROVAL_ID]: 'x-1' });
    } finally {
      spy.mockRestore();
    }
  });

  /** One agent (one middleware) serving two threads whose model numbers its calls alike: call_0 in each. */
  function twoThreads(args: Record<string, unknown>[], interleaved = false) {
    const made = makeTools();
    let model = fakeModel();
    // Interleaved: the first thread's resumed run reads its answer before the second thread asks.
    for (const callArgs of args) {
      model = model.respondWithTools([{ name: 'transfer', args: callArgs, id: 'call_0' }]);
      if (interleaved) model = model.respond(new AIMessage('done'));
    }
    model = model.respond(new AIMessage('done')).respond(new AIMessage('done')).respond(new AIMessage('done'));
    const middleware = toolhooksMiddleware(tracing.runner([gate]), { approvals: 'framework' });
    const agent = createAgent({ model, tools: made.tools, middleware: [middleware], checkpointer: new MemorySaver() });
    const configs = args.map(() => ({ configurable: { thread_id: `thread-${(thread += 1)}` } }));
    return { ...made, agent, configs };
  }

  it('two threads waiting at once with the same call id and arguments, both approved: each runs once', async () => {
    const { agent, configs, transferFn } = twoThreads([{ to: 'bob', amount: 500 }, { to: 'bob', amount: 500 }]);
    for (const config of configs) expect((await invoke(agent, start, config)).__interrupt__).toHaveLength(1);
    for (const config of configs) await invoke(agent, new Command({ resume: { approved: true } }), config);
    expect(transferFn).toHaveBeenCalledTimes(2);
    expect(transferSpans().map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['pending', 'pending', 'completed', 'completed']);
  });

  it('a resume replayed after another thread asked with the same call id is refused: no second execution', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const { agent, configs, transferFn } = twoThreads([{ to: 'bob', amount: 500 }, { to: 'bob', amount: 500 }], true);
      const [one, two] = configs as [object, object];
      await invoke(agent, start, one);
      const interrupted = await agent.graph.getState(one);
      const resume = new Command({ resume: { approved: true } });
      await invoke(agent, resume, one);
      expect(transferFn).toHaveBeenCalledTimes(1);
      await invoke(agent, start, two); // the other thread asks under call_0, with the same arguments
      await invoke(agent, resume, interrupted.config); // thread one's resume replayed from its interrupted checkpoint
      expect(transferFn).toHaveBeenCalledTimes(1);
      await invoke(agent, resume, two);
      expect(transferFn).toHaveBeenCalledTimes(2);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('resumed by another process from the serialised checkpoints (a new agent, middleware and saver): approved, runs once, no link', async () => {
    const asking = setup([{ name: 'transfer', args: { to: 'carol', amount: 300 }, id: 'p-1' }]);
    await invoke(asking.agent, start, asking.config);
    // What a persistent checkpointer keeps, as bytes, read back into a fresh saver.
    const bytes = serialize({ storage: asking.checkpointer.storage, writes: asking.checkpointer.writes });
    const restored = new MemorySaver();
    Object.assign(restored, deserialize(bytes) as Pick<MemorySaver, 'storage' | 'writes'>);
    const other = setup([{ name: 'transfer', args: { to: 'carol', amount: 300 }, id: 'p-1' }], [gate], restored);
    await invoke(other.agent, new Command({ resume: { approved: true } }), asking.config);
    expect(asking.transferFn).not.toHaveBeenCalled();
    expect(other.transferFn).toHaveBeenCalledTimes(1);
    const resumed = spanOfTool(1);
    expect(resumed.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: 'p-1' });
    expect(resumed.links).toEqual([]);
  });

  it('an Ask over a Redirect newTool: the interrupt names the target; resumed, the target runs (its tool is still known)', async () => {
    const toSavings: ToolHook = { name: 'route', tools: ['transfer'], beforeTool: () => redirect({ newTool: 'balance', newArgs: { account: 'savings' } }) };
    const { agent, config, transferFn, balanceFn } = setup([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'rd-1' }], [toSavings, gate]);
    const result = await invoke(agent, start, config);
    expect(result.__interrupt__?.[0]?.value.toolhooks).toMatchObject({ toolName: 'balance', args: { to: 'bob', amount: 500, account: 'savings' } });
    await invoke(agent, new Command({ resume: { approved: true } }), config);
    expect(transferFn).not.toHaveBeenCalled();
    expect(balanceFn).toHaveBeenCalledTimes(1);
    expect(spanOfTool(1).attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', 'toolhooks.tool.effective_name': 'balance' });
  });

  it('an approved tool that interrupts on its own: resumed again, it completes (the approval is not taken for a replay)', async () => {
    const sent = vi.fn();
    const confirming = tool(
      async ({ to, amount }: { to: string; amount: number }) => {
        const code = interrupt({ question: `one-time code for ${amount} to ${to}?` }) as string;
        sent(code);
        return `sent ${amount} to ${to} (code ${code})`;
      },
      { name: 'transfer', description: 'Send money', schema: z.object({ to: z.string(), amount: z.number() }) },
    );
    const model = fakeModel().respondWithTools([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'own-1' }]).respond(new AIMessage('done'));
    const agent = createAgent({ model, tools: [confirming], middleware: [toolhooksMiddleware(tracing.runner([gate]), { approvals: 'framework' })], checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: `own-${(thread += 1)}` } };
    const asked = await invoke(agent, start, config);
    expect(asked.__interrupt__?.[0]?.value.toolhooks.toolCallId).toBe('own-1');
    const confirm = await invoke(agent, new Command({ resume: { approved: true } }), config);
    expect((confirm.__interrupt__?.[0]?.value as unknown as { question: string }).question).toBe('one-time code for 500 to bob?');
    await invoke(agent, new Command({ resume: '4242' }), config);
    expect(sent.mock.calls).toEqual([['4242']]);
    expect(toolMessagesIn(model.calls[1]?.messages)['own-1']?.content).toBe('sent 500 to bob (code 4242)');
    // Pass 2 ran the tool up to its own interrupt: pending as well, never failed.
    expect(transferSpans().map((span) => [span.attributes[ATTR_OUTCOME], span.attributes[ATTR_APPROVAL_OUTCOME]])).toEqual([
      ['pending', 'pending'],
      ['pending', 'approved'],
      ['completed', 'approved'],
    ]);
  });

  it('two calls asking in one step: two interrupts, resumed together by interrupt id', async () => {
    const { agent, config, transferFn, model } = setup([
      { name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'two-1' },
      { name: 'transfer', args: { to: 'eve', amount: 900 }, id: 'two-2' },
    ]);
    const result = await invoke(agent, start, config);
    const interrupts = result.__interrupt__ ?? [];
    expect(interrupts.map((pending) => pending.value.toolhooks.toolCallId).sort()).toEqual(['two-1', 'two-2']);
    const resume = Object.fromEntries(interrupts.map((pending) => [pending.id, pending.value.toolhooks.args.to === 'bob' ? { approved: true } : { approved: false, reason: 'unknown payee' }]));
    await invoke(agent, new Command({ resume }), config);
    expect(transferFn.mock.calls.map((call) => call[0])).toEqual([{ to: 'bob', amount: 500 }]);
    const seen = toolMessagesIn(model.calls[1]?.messages);
    expect(seen['two-1']?.content).toBe('sent 500 to bob');
    expect(seen['two-2']).toMatchObject({ content: 'Tool call denied: unknown payee', status: 'error' });
  });

  it('calls that do not ask run as today; args failing the schema are still a failed call', async () => {
    const { agent, config, transferFn, balanceFn } = setup([
      { name: 'transfer', args: { to: 'bob', amount: 5 }, id: 'n-1' },
      { name: 'balance', args: { account: 7 }, id: 'n-2' },
    ]);
    const out = await invoke(agent, start, config);
    expect(out.__interrupt__).toBeUndefined();
    expect(transferFn).toHaveBeenCalledTimes(1);
    expect(balanceFn).not.toHaveBeenCalled();
    expect(tracing.onlySpan(`${SPAN_EXECUTE_TOOL_PREFIX} balance`).attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'ToolInvocationError' });
  });

  it('without a checkpointer interrupt() cannot suspend: the approval ends as error, the call is denied', async () => {
    const { tools, transferFn } = makeTools();
    const model = fakeModel().respondWithTools([{ name: 'transfer', args: { to: 'bob', amount: 500 }, id: 'nc-1' }]).respond(new AIMessage('done'));
    const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(tracing.runner([gate]), { approvals: 'framework' })] });
    await agent.invoke(start);
    expect(transferFn).not.toHaveBeenCalled();
    expect(toolMessagesIn(model.calls[1]?.messages)['nc-1']).toMatchObject({ content: 'Tool call denied: error', status: 'error' });
    expect(approvalOf(spanOfTool(0)).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'error' });
  });

  it('a bad approvals value is a TypeError naming the option', () => {
    const runner = tracing.runner([]);
    expect(() => toolhooksMiddleware(runner, { approvals: 'interrupt' as 'framework' })).toThrow(/toolhooksMiddleware: options\.approvals must be 'runner' or 'framework', got the string "interrupt"/);
    expect(() => toolhooksMiddleware(runner, { approvals: true as unknown as 'framework' })).toThrow(TypeError);
  });
});

describe('a tool that calls interrupt() itself (any approvals setting, middleware or withHooks)', () => {
  it('the interrupt reaches LangGraph (on_error hooks never see it); the call is pending, then completes on resume', async () => {
    for (const via of ['middleware', 'withHooks'] as const) {
      tracing.reset();
      const sent = vi.fn();
      const confirming = tool(
        async ({ to }: { to: string }) => {
          const answer = interrupt({ question: `really pay ${to}?` }) as string;
          sent(answer);
          return `paid ${to}`;
        },
        { name: 'pay', description: 'Pay', schema: z.object({ to: z.string() }) },
      );
      const onError = vi.fn(() => skip('would swallow the interrupt', 'not paid'));
      const hooks = tracing.runner([{ name: 'fallback', onError }]);
      const model = fakeModel().respondWithTools([{ name: 'pay', args: { to: 'bob' }, id: `own-${via}` }]).respond(new AIMessage('done'));
      const agent =
        via === 'middleware'
          ? createAgent({ model, tools: [confirming], middleware: [toolhooksMiddleware(hooks)], checkpointer: new MemorySaver() })
          : createAgent({ model, tools: [...withHooks([confirming], hooks)], checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: `own-${via}` } };
      const first = (await agent.invoke(start, config)) as unknown as { __interrupt__?: { value: { question: string } }[] };
      expect(first.__interrupt__?.[0]?.value.question).toBe('really pay bob?');
      expect(onError).not.toHaveBeenCalled();
      await agent.invoke(new Command({ resume: 'yes' }) as never, config);
      expect(sent.mock.calls).toEqual([['yes']]);
      expect(toolMessagesIn(model.calls[1]?.messages)[`own-${via}`]?.content).toBe('paid bob');
      expect(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} pay`).map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['pending', 'completed']);
    }
  });
});
