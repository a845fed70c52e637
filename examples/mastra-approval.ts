/**
 * Asking a person through Mastra's own tool-call approval: a hook asks before any `rm`, the agent's
 * run suspends (`finishReason: 'suspended'`) and Mastra keeps it in storage; the app shows the
 * request, then resumes the run with `approveToolCallGenerate` or `declineToolCallGenerate`. The
 * approved call runs in the continuation; the declined one never runs, the model reads Mastra's
 * decline, and recordDeclinedCalls records it as denied. The model is the AI SDK's own mock
 * (`ai/test`) and the storage Mastra's in-memory store, so this runs offline:
 *
 *   npx tsx examples/mastra-approval.ts
 */
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import type { ToolHook } from 'toolhooks';
import { HookRunner, ask } from 'toolhooks';
import { recordDeclinedCalls, withHooks } from 'toolhooks/mastra';
import { startTelemetry } from 'toolhooks/node';

const telemetry = await startTelemetry({ console: 'tree' });

const tools = withHooks(
  { run_shell: createTool({ id: 'run_shell', description: 'Runs a shell command on the host', inputSchema: z.object({ cmd: z.string() }), execute: async ({ cmd }) => `host: ran "${cmd}"` }) },
  new HookRunner([{ name: 'deletions-need-a-person', tools: ['run_shell'], beforeTool: (_tool, args) => (/^rm\b/.test(String(args.cmd)) ? ask('deletes files') : undefined) } satisfies ToolHook]),
  { approvals: 'framework' },
);

const usage = { inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 20, text: 20, reasoning: 0 } };
const callsShell = (toolCallId: string, cmd: string) => ({
  content: [{ type: 'tool-call' as const, toolCallId, toolName: 'run_shell', input: JSON.stringify({ cmd }) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
const says = (text: string) => ({ content: [{ type: 'text' as const, text }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] });
const model = new MockLanguageModelV4({ doGenerate: [callsShell('call_1', 'rm -rf build'), says('Removed the build folder.'), callsShell('call_2', 'rm -rf /'), says('I did not delete anything.')] });

const ops = new Agent({
  id: 'ops',
  name: 'ops',
  instructions: 'Help with the shell.',
  // Mastra pins its own copy of the model spec types; the mock implements the same spec (v4).
  model: model as never,
  tools,
  outputProcessors: [recordDeclinedCalls(tools)],
});
// Mastra keeps a suspended run in its storage; here its in-memory store.
const agent = new Mastra({ agents: { ops }, storage: new InMemoryStore() }).getAgent('ops');

/** Runs a prompt; when the run waits for approval, "asks a person" (the scripted answer) and resumes it. */
async function run(prompt: string, person: { approve: true } | { approve: false; reason: string }): Promise<void> {
  const first = await agent.generate(prompt, { maxSteps: 3 });
  const request = first.suspendPayload as { toolCallId: string; toolName: string; args: unknown } | undefined;
  if (first.finishReason !== 'suspended' || request === undefined || first.runId === undefined) return;
  console.log(`Approval requested: ${request.toolName} ${JSON.stringify(request.args)} (tool call ${request.toolCallId})`);
  const options = { runId: first.runId, toolCallId: request.toolCallId };
  const result = person.approve ? await agent.approveToolCallGenerate(options) : await agent.declineToolCallGenerate({ ...options, reason: person.reason });
  console.log(`  ${person.approve ? 'approved' : 'declined'} → final answer: ${result.text}\n`);
}

await run('Remove the build folder.', { approve: true });
await run('Free some disk space.', { approve: false, reason: 'never on the root filesystem' });

console.log('What the model received as tool results:');
for (const message of model.doGenerateCalls.flatMap((call) => call.prompt)) {
  if (message.role !== 'tool') continue;
  for (const part of message.content) if (part.type === 'tool-result') console.log(`  ${part.toolCallId} ${part.toolName}: ${JSON.stringify(part.output)}`);
}
console.log('');
await telemetry.shutdown();
