/**
 * A hook's Ask through the AI SDK's own approval flow: a mail gate asks before any mail goes out.
 * With `approvals: 'framework'`, the app receives the SDK's `tool-approval-request` (as it would in
 * a chat UI), answers with a `tool-approval-response`, and calls `generateText` again: the approved
 * mail is sent in that continuation, the denied one reaches the model as the SDK's denial, and a
 * response replayed into a later call does not send the mail twice. The model is the AI SDK's mock,
 * so this runs offline:
 *
 *   npx tsx examples/ai-approval.ts
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import type { ModelMessage } from 'ai';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { trace } from '@opentelemetry/api';
import { z } from 'zod';
import { HookRunner, ask } from 'toolhooks';
import { withHooks } from 'toolhooks/ai';
import { startTelemetry } from 'toolhooks/node';

// Each finished trace is printed as a tree, with the AI SDK's own spans (from @ai-sdk/otel).
const telemetry = await startTelemetry({ console: 'tree' });
const app = trace.getTracer('mail-app');

const sent: string[] = [];
const tools = {
  send_email: tool({
    description: 'Sends a mail',
    inputSchema: z.object({ to: z.string(), subject: z.string() }),
    execute: async ({ to, subject }) => {
      sent.push(to);
      return `sent "${subject}" to ${to}`;
    },
  }),
};
const runner = new HookRunner([{ name: 'mail-gate', tools: ['send_email'], beforeTool: (_tool, args) => ask(`mail to ${String(args.to)} needs a person`) }]);
// tools, toolApproval and onStart: spread all three into each generateText call.
const hooked = withHooks(tools, runner, { approvals: 'framework' });

type Step = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
const usage: Step['usage'] = { inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } };
const mails = (id: string, to: string): Step => ({
  content: [{ type: 'tool-call', toolCallId: id, toolName: 'send_email', input: JSON.stringify({ to, subject: 'Status report' }) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});
const says = (text: string): Step => ({ content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

/** One chat turn of the app, under a span of its own so the turn's spans share a trace. */
async function turn(label: string, model: MockLanguageModelV4, messages: ModelMessage[]) {
  return app.startActiveSpan(`chat turn: ${label}`, async (span) => {
    try {
      return await generateText({ model, ...hooked, messages, stopWhen: stepCountIs(3), telemetry: { integrations: new OpenTelemetry() } });
    } finally {
      span.end();
    }
  });
}

/** What a chat UI shows for each approval request, and the answer a person gives. */
function answer(result: Awaited<ReturnType<typeof turn>>, approved: boolean, history: ModelMessage[]): ModelMessage[] {
  const content = [];
  for (const part of result.content) {
    if (part.type !== 'tool-approval-request') continue;
    console.log(`  approval request ${part.approvalId} for ${part.toolCall.toolName} (${part.toolCall.toolCallId}): ${part.reason ?? ''}`);
    console.log(`  the person ${approved ? 'approves' : 'denies'} it`);
    content.push({ type: 'tool-approval-response' as const, approvalId: part.approvalId, approved, ...(approved ? {} : { reason: 'not to the whole company' }) });
  }
  return [...history, ...result.response.messages, { role: 'tool', content }];
}

function received(model: MockLanguageModelV4): void {
  for (const message of model.doGenerateCalls.at(-1)?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') console.log(`  the model received for ${part.toolCallId}: ${JSON.stringify(part.output)}`);
  }
}

console.log('1. A mail the person approves');
const first = new MockLanguageModelV4({ doGenerate: [mails('call_ops', 'ops@example.com'), says('The report went to ops.'), says('Already sent.')] });
const askOps: ModelMessage[] = [{ role: 'user', content: 'Mail the status report to ops.' }];
const asked = await turn('ask', first, askOps);
const approvedTurn = answer(asked, true, askOps);
const done = await turn('approved', first, approvedTurn);
received(first);
console.log(`  final answer: ${done.text}`);

console.log('\n2. The same response replayed into a third call (a client retry): the mail is not sent twice');
await turn('replayed', first, JSON.parse(JSON.stringify(approvedTurn)) as ModelMessage[]);
received(first);

console.log('\n3. A mail the person denies');
const second = new MockLanguageModelV4({ doGenerate: [mails('call_all', 'all@example.com'), says('I did not send it.')] });
const askAll: ModelMessage[] = [{ role: 'user', content: 'Mail the status report to everyone.' }];
const deniedTurn = answer(await turn('ask', second, askAll), false, askAll);
const refused = await turn('denied', second, deniedTurn);
received(second);
console.log(`  final answer: ${refused.text}`);

console.log(`\nMails sent: ${JSON.stringify(sent)}\n`);
await telemetry.shutdown();
