/**
 * An Ask through the OpenAI Agents SDK's own approvals: a hook asks before any email leaves, the run
 * stops with `interruptions`, the state is saved with `RunState.toString()` — and a second, fresh
 * set of hooked tools (as another process would build) restores it, approves one email, rejects the
 * other and resumes. The model is a scripted implementation of the SDK's `Model`, so this runs offline:
 *
 *   npx tsx examples/openai-agents-approval.ts
 */
import type { Model, ModelRequest, ModelResponse, RunToolApprovalItem } from '@openai/agents';
import { Agent, RunState, Runner, Usage, tool } from '@openai/agents';
import { z } from 'zod';
import { HookRunner, ask } from 'toolhooks';
import { approvalRejections, withHooks } from 'toolhooks/openai-agents';
import { startTelemetry } from 'toolhooks/node';

const telemetry = await startTelemetry({ console: 'tree' });

const sent: string[] = [];
/** The app's tools, as each process builds them. */
function mailTools() {
  const sendEmail = tool({
    name: 'send_email',
    description: 'Sends an email',
    parameters: z.object({ to: z.string(), subject: z.string() }),
    execute: async ({ to, subject }) => {
      sent.push(to);
      return `sent "${subject}" to ${to}`;
    },
  });
  const runner = new HookRunner([{ name: 'mail-gate', tools: ['send_email'], beforeTool: (_tool, args) => ask(`email to ${String(args.to)}`) }]);
  return withHooks([sendEmail], runner, { approvals: 'framework' });
}

/** Answers the first request with two emails to send, every later one with a closing message. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const usage = new Usage({ requests: 1, inputTokens: 40, outputTokens: 20, totalTokens: 60 });
    if (this.requests.length === 1) {
      return { usage, output: [email('call_1', 'team@example.com', 'Release notes'), email('call_2', 'all@example.com', 'Party!')] };
    }
    return { usage, output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'One email sent, one not.' }] }] };
  }

  // eslint-disable-next-line require-yield -- this example drives the non-streamed path only
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in this example');
  }
}

function email(callId: string, to: string, subject: string) {
  return { type: 'function_call' as const, callId, name: 'send_email', status: 'completed' as const, arguments: JSON.stringify({ to, subject }) };
}

const model = new ScriptedModel();
const instructions = 'Send the emails asked for.';

// Process 1: the run stops at the approvals; the state is saved.
const asking = new Agent({ name: 'mailer', instructions, model, tools: mailTools() });
const first = await new Runner({ tracingDisabled: true }).run(asking, 'Send the release notes to the team and a party invite to everyone.');
console.log(`Waiting for approval: ${first.interruptions.map((item) => `${item.name} ${item.arguments ?? ''}`).join(', ')}`);
const saved = first.state.toString();

// Process 2 (later): fresh tools, the saved state, a person's answers.
const tools = mailTools();
const agent = new Agent({ name: 'mailer', instructions, model, tools });
const state = await RunState.fromString(agent, saved);
for (const item of state.getInterruptions() as RunToolApprovalItem[]) {
  if (item.arguments?.includes('team@') === true) state.approve(item);
  else state.reject(item);
}
const result = await new Runner({ tracingDisabled: true, toolErrorFormatter: approvalRejections(tools) }).run(agent, state);

console.log(`Emails sent: ${sent.join(', ')}`);
console.log('What the model received as tool results:');
for (const item of model.requests[1]?.input ?? []) {
  if (typeof item === 'object' && item.type === 'function_call_result') {
    const output = item.output as { text?: string } | string;
    console.log(`  ${item.callId} ${item.name} (${item.status ?? ''}): ${typeof output === 'string' ? output : output.text}`);
  }
}
console.log(`Final answer: ${String(result.finalOutput)}`);
await telemetry.shutdown();
