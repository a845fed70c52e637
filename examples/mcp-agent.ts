/**
 * An MCP client whose tool calls go through toolhooks. The server (an in-process McpServer with a
 * small file toolset) and the client are joined by the SDK's in-memory transport, so this runs
 * offline:
 *
 *   npx tsx examples/mcp-agent.ts
 *
 * Hooks see every tool as `mcp__files__<tool>`: a policy hook refuses deletes, a dry-run hook
 * skips writes outside /tmp, and a recovery hook turns a failed read into a helpful stub.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ToolHook } from 'toolhooks';
import { HookAbortError, HookRunner, abort, skip } from 'toolhooks';
import { McpToolError, withMcpHooks } from 'toolhooks/mcp';
import { startTelemetry } from 'toolhooks/node';

// Each finished trace is printed as a tree (with the AI SDK's own spans, when it records them).
const telemetry = await startTelemetry({ console: 'tree' });

// The server side: what a real MCP file server would expose.
const files = new Map([['/notes/todo.txt', 'buy milk']]);
const server = new McpServer({ name: 'files', version: '1.0.0' });
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
server.registerTool('read_file', { description: 'Reads a file', inputSchema: { path: z.string() } }, async ({ path }) => {
  const body = files.get(path);
  return body === undefined ? { ...text(`ENOENT: ${path}`), isError: true } : text(body);
});
server.registerTool('write_file', { description: 'Writes a file', inputSchema: { path: z.string(), body: z.string() } }, async ({ path, body }) => {
  files.set(path, body);
  return text(`wrote ${path}`);
});
server.registerTool('delete_file', { description: 'Deletes a file', inputSchema: { path: z.string() } }, async ({ path }) => {
  files.delete(path);
  return text(`deleted ${path}`);
});

// The agent side: hooks, then the wrapped client.
const hooks: ToolHook[] = [
  { name: 'no-deletes', tools: ['mcp__files__delete_file'], beforeTool: () => abort('deleting files is not allowed in this session') },
  {
    name: 'dry-run-writes',
    tools: ['mcp__files__write_file'],
    beforeTool: (_tool, args) => (String(args.path).startsWith('/tmp/') ? undefined : skip('dry run outside /tmp', `dry run: would write ${String(args.path)}`)),
  },
  {
    name: 'missing-file-help',
    tools: /^mcp__files__read/,
    onError: (_tool, args, error) =>
      error instanceof McpToolError && error.message.startsWith('ENOENT') ? skip('missing file', `${String(args.path)} does not exist; try /notes/todo.txt`) : undefined,
  },
  { name: 'outcomes', onEvent: (event) => void (event.type === 'tool' && console.log(`  [${event.toolName}] ${event.outcome}`)) },
];
const runner = new HookRunner(hooks);

const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await server.connect(serverTransport);
const client = withMcpHooks(new Client({ name: 'mcp-agent-example', version: '1.0.0' }), runner, { server: 'files' });
await client.connect(clientTransport);

const { tools } = await client.listTools();
console.log(`Server tools: ${tools.map((tool) => tool.name).join(', ')}\n`);

// What a model might ask for, in order.
const plan = [
  { name: 'read_file', arguments: { path: '/notes/todo.txt' } },
  { name: 'read_file', arguments: { path: '/notes/missing.txt' } },
  { name: 'write_file', arguments: { path: '/notes/todo.txt', body: 'buy oat milk' } },
  { name: 'write_file', arguments: { path: '/tmp/scratch.txt', body: 'draft' } },
  { name: 'delete_file', arguments: { path: '/notes/todo.txt' } },
];
for (const request of plan) {
  console.log(`callTool ${request.name} ${JSON.stringify(request.arguments)}`);
  try {
    const result = await client.callTool(request);
    const first = Array.isArray(result.content) ? (result.content[0] as { text?: string } | undefined) : undefined;
    console.log(`  → ${first?.text ?? JSON.stringify(result)}${result.isError === true ? ' (isError)' : ''}`);
  } catch (error) {
    if (!(error instanceof HookAbortError)) throw error;
    console.log(`  → rejected: HookAbortError from ${error.sourceHook ?? '?'}: ${error.reason}`);
  }
}
console.log(`\nFiles on the server: ${JSON.stringify(Object.fromEntries(files))}\n`);
await client.close();

await telemetry.shutdown();
