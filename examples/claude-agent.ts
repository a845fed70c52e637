/**
 * A Claude Agent SDK agent whose tool calls go through toolhooks: `query()` runs the SDK's bundled
 * Claude Code CLI with `claudeAgentHooks(runner)` as its `hooks`. A cache hook skips a repeated
 * lookup (the model reads the cached value), a limits hook rewrites an argument (`updatedInput`),
 * and a policy hook aborts a destructive call, which stops the agent. The model is a scripted
 * stand-in for the Messages API on 127.0.0.1 (examples/support/fake-messages-api.ts, which the tests use too), so this runs offline:
 *
 *   npx tsx examples/claude-agent.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import { HookRunner, abort, redirect, skip } from 'toolhooks';
import { claudeAgentHooks } from 'toolhooks/claude';
import { startTelemetry } from 'toolhooks/node';
import { startFakeMessagesApi, toolResultsIn } from './support/fake-messages-api.js';

const telemetry = await startTelemetry({ console: 'tree' });

const runner = new HookRunner([
  { name: 'no-deletes', tools: ['mcp__files__delete'], beforeTool: () => abort('deleting files is not allowed in this session') },
  { name: 'weather-cache', tools: ['mcp__files__read'], beforeTool: (_tool, args) => (args.path === '/cache/paris.json' ? skip('cached', { city: 'Paris', forecast: 'cloudy' }) : undefined) },
  { name: 'read-limit', tools: ['mcp__files__read'], beforeTool: (_tool, args) => (Number(args.maxBytes ?? 0) > 1024 ? redirect({ newArgs: { maxBytes: 1024 } }) : undefined) },
]);

const files = createSdkMcpServer({
  name: 'files',
  tools: [
    tool('read', 'Reads a file', { path: z.string(), maxBytes: z.number().optional() }, async ({ path, maxBytes }) => ({
      content: [{ type: 'text', text: `contents of ${path} (at most ${maxBytes ?? 'all'} bytes)` }],
    })),
    tool('delete', 'Deletes a file', { path: z.string() }, async ({ path }) => ({ content: [{ type: 'text', text: `deleted ${path}` }] })),
  ],
});

const api = await startFakeMessagesApi([
  [
    { type: 'tool_use', id: 'toolu_1', name: 'mcp__files__read', input: { path: '/cache/paris.json' } },
    { type: 'tool_use', id: 'toolu_2', name: 'mcp__files__read', input: { path: '/notes/todo.txt', maxBytes: 1_000_000 } },
  ],
  [{ type: 'tool_use', id: 'toolu_3', name: 'mcp__files__delete', input: { path: '/notes/todo.txt' } }],
  [{ type: 'text', text: 'never reached: the agent stopped' }],
]);
const home = mkdtempSync(join(tmpdir(), 'claude-agent-example-'));
try {
  for await (const message of query({
    prompt: 'Read the Paris forecast and my notes, then delete the notes.',
    options: {
      hooks: claudeAgentHooks(runner),
      mcpServers: { files },
      tools: [],
      allowedTools: ['mcp__files__read', 'mcp__files__delete'],
      cwd: home,
      settingSources: [],
      env: { PATH: process.env.PATH ?? '', HOME: home, ANTHROPIC_BASE_URL: api.url, ANTHROPIC_API_KEY: 'sk-offline-example', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' },
    },
  })) {
    if (message.type === 'result') console.log(`Result: ${message.subtype}${'result' in message ? `: ${message.result}` : ''}`);
  }
} finally {
  await api.close();
  rmSync(home, { recursive: true, force: true });
}

console.log('What the model read:');
for (const [id, { text, isError }] of Object.entries(toolResultsIn(api.requests.at(-1)))) console.log(`  ${id}${isError ? ' (error)' : ''}: ${text}`);
console.log(`Model requests: ${api.requests.length}`);
await telemetry.shutdown();
