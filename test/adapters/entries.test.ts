/**
 * The built adapter entries as an installed package sees them: built with the project's own build
 * script, installed into a project that has `@opentelemetry/api` but neither `ai` nor the MCP SDK,
 * then loaded through `require` and `import`. An optional peer must stay optional at run time.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let work: string;
let consumer: string;

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: consumer, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'toolhooks-entries-'));
  const build = join(work, 'build');
  mkdirSync(build);
  for (const entry of ['src', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.build.cjs.json']) {
    cpSync(join(root, entry), join(build, entry), { recursive: true });
  }
  symlinkSync(join(root, 'node_modules'), join(build, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: build, stdio: 'pipe' });

  consumer = join(work, 'consumer');
  const installed = join(consumer, 'node_modules', 'toolhooks');
  mkdirSync(installed, { recursive: true });
  cpSync(join(build, 'package.json'), join(installed, 'package.json'));
  cpSync(join(build, 'dist'), join(installed, 'dist'), { recursive: true });
  mkdirSync(join(consumer, 'node_modules', '@opentelemetry'), { recursive: true });
  symlinkSync(join(root, 'node_modules', '@opentelemetry', 'api'), join(consumer, 'node_modules', '@opentelemetry', 'api'), 'dir');
}, 120_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

const useAi = `
  const tools = withHooks({ shout: { description: 'd', execute: async (input) => input.text.toUpperCase() }, client: { description: 'no execute' } },
    new HookRunner([{ beforeTool: (name, args) => (args.text === 'secret' ? skip('redacted', '[hidden]') : undefined) }]));
  Promise.all([tools.shout.execute({ text: 'hi' }, { toolCallId: '1' }), tools.shout.execute({ text: 'secret' }, { toolCallId: '2' })])
    .then((out) => console.log(JSON.stringify([...out, typeof tools.client.execute])));`;

const useMcp = `
  const client = { callTool: async (params) => ({ content: [{ type: 'text', text: params.name + ':' + JSON.stringify(params.arguments) }] }) };
  const wrapped = withMcpHooks(client, new HookRunner([{ tools: /^mcp__fs__/, beforeTool: () => redirect({ newArgs: { path: '/sandbox' } }) }]), { server: 'fs' });
  wrapped.callTool({ name: 'read', arguments: { path: '/etc' } }).then((out) => console.log(out.content[0].text));`;

describe('built adapter entries without their optional peers installed', () => {
  it('the consumer project really lacks ai and @modelcontextprotocol/sdk', () => {
    for (const peer of ['ai', '@modelcontextprotocol/sdk/client/index.js']) {
      expect(() => node(['-e', `require.resolve(${JSON.stringify(peer)})`])).toThrow(/Cannot find module/);
    }
  });

  it('toolhooks/ai loads and works through require and import', () => {
    const expected = JSON.stringify(['HI', '[hidden]', 'undefined']);
    expect(node(['-e', `const { HookRunner, skip } = require('toolhooks'); const { withHooks } = require('toolhooks/ai');${useAi}`])).toBe(expected);
    expect(
      node(['--input-type=module', '-e', `import { HookRunner, skip } from 'toolhooks'; import { withHooks } from 'toolhooks/ai';${useAi}`]),
    ).toBe(expected);
  });

  it('toolhooks/mcp loads and works through require and import', () => {
    const expected = 'read:{"path":"/sandbox"}';
    expect(
      node(['-e', `const { HookRunner, redirect } = require('toolhooks'); const { withMcpHooks } = require('toolhooks/mcp');${useMcp}`]),
    ).toBe(expected);
    expect(
      node(['--input-type=module', '-e', `import { HookRunner, redirect } from 'toolhooks'; import { withMcpHooks } from 'toolhooks/mcp';${useMcp}`]),
    ).toBe(expected);
  });

  it('each entry exports exactly its public surface, in both formats', () => {
    const list = (entry: string): string => `Object.keys(require('${entry}')).sort().join(',')`;
    expect(node(['-e', `console.log(${list('toolhooks/ai')})`])).toBe('recordInvalidToolCalls,withHooks');
    expect(node(['-e', `console.log(${list('toolhooks/mcp')})`])).toBe('McpToolError,withMcpHooks');
    expect(
      node(['--input-type=module', '-e', `const m = await import('toolhooks/mcp'); console.log(Object.keys(m).sort().join(','))`]),
    ).toBe('McpToolError,withMcpHooks');
  });
});
