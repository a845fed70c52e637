/**
 * toolhooks/langchain and the decisions that need someone else: Ask (decided by the runner's approver
 * inside the call, or handed to LangGraph as an `interrupt()` resumed with `Command({ resume })`) and
 * after_tool Replace, with the real `createAgent` of langchain 1.x, LangGraph's MemorySaver and
 * LangChain's offline fake chat model.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { ClientTool } from '@langchain/core/tools';
import { fakeModel } from '@langchain/core/testing';
import { createAgent, tool } from 'langchain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ApprovalRequest, ApprovalResponse, ToolHook } from '../../../src/index.js';
import { ask, replaceResult } from '../../../src/index.js';
import type { ToolhooksMiddlewareOptions } from '../../../src/adapters/langchain/index.js';
import { toolhooksMiddleware } from '../../../src/adapters/langchain/index.js';
import {
  ATTR_APPROVAL_EDITED,
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
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
beforeEach(() => tracing.reset());

function childrenOf(span: ReadableSpan): string[] {
  return tracing
    .spans()
    .filter((candidate) => candidate.parentSpanContext?.spanId === span.spanContext().spanId)
    .map((child) => child.name);
}

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
    expect(childrenOf(span)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL, SPAN_EXECUTE]);
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
    expect(childrenOf(span)).toEqual([SPAN_EXECUTE, SPAN_AFTER_TOOL]);
  });

  it('a replacement that is not a string reaches the model as JSON', async () => {
    const { tools } = makeTools();
    const model = fakeModel().respondWithTools([{ name: 'balance', args: { account: 'main' }, id: 'r-2' }]).respond(new AIMessage('done'));
    const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(tracing.runner([{ afterTool: () => replaceResult({ balance: 'hidden' }) }]))] });
    await agent.invoke(start);
    expect(toolMessagesIn(model.calls[1]?.messages)['r-2']?.content).toBe('{"balance":"hidden"}');
  });
});

