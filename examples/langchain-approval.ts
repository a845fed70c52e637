/**
 * Approvals through LangGraph's own human-in-the-loop flow: a hook asks before large transfers, the
 * LangChain agent stops with an interrupt (LangChain's HITL request, plus toolhooks' details), the app
 * decides, and the agent resumes with `Command({ resume })`. One call is approved, one rejected; then
 * the same answer is replayed from the interrupted checkpoint and refused. The model is LangChain's
 * offline fake chat model; the checkpointer is LangGraph's MemorySaver:
 *
 *   npx tsx examples/langchain-approval.ts
 */
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { Command, MemorySaver } from '@langchain/langgraph';
import type { HITLResponse } from 'langchain';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import { HookRunner, ask } from 'toolhooks';
import type { ToolhooksApprovalInterrupt } from 'toolhooks/langchain';
import { toolhooksMiddleware } from 'toolhooks/langchain';
import { startTelemetry } from 'toolhooks/node';

const telemetry = await startTelemetry({ console: 'tree' });

const transfer = tool(async ({ to, amount }) => `sent ${amount} EUR to ${to}`, {
  name: 'transfer',
  description: 'Sends money to a payee',
  schema: z.object({ to: z.string(), amount: z.number() }),
});

const runner = new HookRunner([
  { name: 'four-eyes', tools: ['transfer'], beforeTool: (_tool, args) => (Number(args.amount) > 100 ? ask('transfers over 100 EUR need a second person') : undefined) },
]);
const model = fakeModel()
  .respondWithTools([
    { name: 'transfer', args: { to: 'landlord', amount: 900 }, id: 'call_1' },
    { name: 'transfer', args: { to: 'unknown-payee', amount: 5000 }, id: 'call_2' },
  ])
  .respond(new AIMessage('Rent is paid; the other transfer was refused.'))
  .respond(new AIMessage('(replayed run)'));
const agent = createAgent({
  model,
  tools: [transfer],
  middleware: [toolhooksMiddleware(runner, { approvals: 'framework' })],
  checkpointer: new MemorySaver(),
});
const config = { configurable: { thread_id: 'payments-1' } };

// 1. The agent stops: each asking call is one interrupt.
const first = await agent.invoke({ messages: [{ role: 'user', content: 'Pay the rent, and the invoice.' }] }, config);
const interrupts = (first.__interrupt__ ?? []) as { id: string; value: ToolhooksApprovalInterrupt }[];
console.log(`Waiting for approval: ${interrupts.length} call(s)`);
for (const { value } of interrupts) console.log(`  ${value.toolhooks.toolCallId} ${value.toolhooks.toolName} ${JSON.stringify(value.toolhooks.args)}: ${value.toolhooks.reason}`);
const interrupted = await agent.graph.getState(config);

// 2. A person decides (LangChain's HITL decision shape; toolhooks' { approved } works too), by interrupt id.
const decide = (value: ToolhooksApprovalInterrupt): HITLResponse =>
  value.toolhooks.args.to === 'landlord' ? { decisions: [{ type: 'approve' }] } : { decisions: [{ type: 'reject', message: 'payee not on the list' }] };
const resume = Object.fromEntries(interrupts.map(({ id, value }) => [id, decide(value)]));
const done = await agent.invoke(new Command({ resume }), config);
console.log('What the model read:');
for (const message of model.calls[1]?.messages ?? []) {
  if (ToolMessage.isInstance(message)) console.log(`  ${message.tool_call_id} (${message.status ?? 'success'}): ${String(message.content)}`);
}
console.log(`Answer: ${String(done.messages.at(-1)?.content)}`);

// 3. The same answer replayed from the interrupted checkpoint: refused, the transfer does not run again.
process.removeAllListeners('warning');
process.on('warning', (warning) => console.log(`Warning: ${warning.message}`));
const replay = await agent.invoke(new Command({ resume }), interrupted.config);
for (const message of replay.messages.slice(-3)) {
  if (ToolMessage.isInstance(message)) console.log(`Replayed ${message.tool_call_id}: ${String(message.content)}`);
}

await telemetry.shutdown();
