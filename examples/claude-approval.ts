/**
 * Approvals and Replace with the Claude Agent SDK: a hook asks before the agent reads a file, and the
 * adapter defers the call (PreToolUse `defer`): `query()` ends with `deferred_tool_use`, the app asks
 * its user (here: approves as "alice"), answers with `approvals.respond()` and resumes the session;
 * the resumed query runs the approved call. A second hook replaces what a lookup tool returned (a key
 * is withheld) before the model reads it (PostToolUse `updatedToolOutput`). The trace shows the asking
 * call as `pending` and the continuation as `completed`, tied by `toolhooks.approval.id` and a link.
 * The model is a scripted stand-in for the Messages API on 127.0.0.1, so this runs offline:
 *
 *   npx tsx examples/claude-approval.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Options, SDKMessage, SDKResultSuccess } from '@anthropic-ai/claude-agent-sdk';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { HookRunner, ask, replaceResult } from 'toolhooks';
import { DeferredApprovals, claudeAgentHooks } from 'toolhooks/claude';
import { startTelemetry } from 'toolhooks/node';
import { startFakeMessagesApi, toolResultsIn } from './support/fake-messages-api.js';

const telemetry = await startTelemetry({ console: 'tree' });
const home = mkdtempSync(join(tmpdir(), 'claude-approval-example-'));
const notes = join(home, 'notes.txt');
writeFileSync(notes, 'call the plumber on Monday\n');

const runner = new HookRunner([
  { name: 'read-gate', tools: ['Read'], beforeTool: () => ask('reading a file needs a person to say yes') },
  {
    name: 'withhold-keys',
    tools: ['mcp__vault__lookup'],
    afterTool: (_tool, _args, result) => (JSON.stringify(result).includes('api_key=') ? replaceResult('[the key is withheld]', 'secret') : undefined),
  },
]);
const approvals = new DeferredApprovals();
const hooks = claudeAgentHooks(runner, { approvals });

const vault = createSdkMcpServer({
  name: 'vault',
  tools: [tool('lookup', 'Looks up a service credential', { service: z.string() }, async ({ service }) => ({ content: [{ type: 'text', text: `${service}: api_key=sk-live-123` }] }))],
});
const api = await startFakeMessagesApi([
  [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: notes } }],
  [{ type: 'tool_use', id: 'toolu_key', name: 'mcp__vault__lookup', input: { service: 'billing' } }],
  [{ type: 'text', text: 'Read your notes; the billing key is withheld.' }],
]);
const options = (resume?: string): Options => ({
  hooks,
  mcpServers: { vault },
  tools: ['Read'],
  allowedTools: ['Read', 'mcp__vault__lookup'],
  cwd: home,
  settingSources: [],
  ...(resume === undefined ? {} : { resume }),
  env: { PATH: process.env.PATH ?? '', HOME: home, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-offline-example', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' },
});
async function lastResult(messages: AsyncIterable<SDKMessage>): Promise<SDKResultSuccess | undefined> {
  let result: SDKResultSuccess | undefined;
  for await (const message of messages) if (message.type === 'result' && message.subtype === 'success') result = message;
  return result;
}

try {
  let result = await lastResult(query({ prompt: 'Read my notes, then look up the billing key.', options: options() }));
  while (result?.deferred_tool_use !== undefined) {
    const { id, name } = result.deferred_tool_use;
    console.log(`Deferred: ${name} (${id}) — ${approvals.request(id)?.reason ?? ''}`);
    approvals.respond(id, { approved: true, approver: 'alice' }); // your UI asks the user here
    result = await lastResult(query({ prompt: 'continue', options: options(result.session_id) }));
  }
  console.log(`Result: ${result?.result ?? '(none)'}`);
} finally {
  await api.close();
  rmSync(home, { recursive: true, force: true });
}

console.log('What the model read:');
for (const [id, { text, isError }] of Object.entries(toolResultsIn(api.requests.at(-1)))) console.log(`  ${id}${isError ? ' (error)' : ''}: ${text.trim()}`);
await telemetry.shutdown();
