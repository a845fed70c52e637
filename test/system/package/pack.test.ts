/**
 * The published package, as a user gets it: `npm pack`, install the tarball into an empty folder
 * (with `@opentelemetry/sdk-node`, which brings `@opentelemetry/api`, as the README says; without the adapters'
 * optional peers), then `import` and `require` every
 * entry point. Also lints the packed exports with publint and
 * @arethetypeswrong/cli.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTempDir } from '../../support/temp-dir.js';

const root = resolve(import.meta.dirname, '../../..');
const work = useTempDir('pack');
const app = join(work, 'app');
let tarball = '';

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } });
}

beforeAll(() => {
  run('npm', ['pack', '--pack-destination', work], root);
  const file = readdirSync(work).find((name) => name.endsWith('.tgz'));
  if (file === undefined) throw new Error(`npm pack wrote no tarball into ${work}`);
  tarball = join(work, file);
  execFileSync('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  run('npm', ['install', '--prefer-offline', '--no-package-lock', tarball, '@opentelemetry/sdk-node@^0.301.0'], app);
}, 240_000);


const script = `
  const { HookRunner, executeTool, skip, VERSION } = toolhooks;
  const hooks = new HookRunner([{ name: 'cache', beforeTool: () => skip('cached', 'stub') }]);
  executeTool({ hooks, toolName: 'search', args: {}, execute: () => 'real' })
    .then((result) => console.log(JSON.stringify({ result, version: VERSION })));
`;

const useAi = `
  const tools = withHooks({ shout: { description: 'd', execute: async (input) => input.text.toUpperCase() }, client: { description: 'no execute' } },
    new HookRunner([{ beforeTool: (name, args) => (args.text === 'secret' ? skip('redacted', '[hidden]') : undefined) }]));
  Promise.all([tools.shout.execute({ text: 'hi' }, { toolCallId: '1' }), tools.shout.execute({ text: 'secret' }, { toolCallId: '2' })])
    .then((out) => console.log(JSON.stringify([...out, typeof tools.client.execute])));`;

const useMcp = `
  const client = { callTool: async (params) => ({ content: [{ type: 'text', text: params.name + ':' + JSON.stringify(params.arguments) }] }) };
  const wrapped = withMcpHooks(client, new HookRunner([{ tools: /^mcp__fs__/, beforeTool: () => redirect({ newArgs: { path: '/sandbox' } }) }]), { server: 'fs' });
  wrapped.callTool({ name: 'read', arguments: { path: '/etc' } }).then((out) => console.log(out.content[0].text));`;

describe('the packed package', () => {
  it('works with import in an empty project', () => {
    const out = run('node', ['--input-type=module', '-e', `import * as toolhooks from 'toolhooks';\n${script}`], app);
    expect(JSON.parse(out)).toEqual({ result: 'stub', version: '0.1.0' });
  });

  it('works with require in an empty project', () => {
    const out = run('node', ['-e', `const toolhooks = require('toolhooks');\n${script}`], app);
    expect(JSON.parse(out)).toEqual({ result: 'stub', version: '0.1.0' });
  });

  it('loads toolhooks/hooks and toolhooks/node with import and with require', () => {
    const check = `
      const ok = [typeof hooks.MetricsHook, typeof hooks.LoggingHook, typeof node.startTelemetry, typeof node.TreeSpanExporter];
      console.log(JSON.stringify(ok));
    `;
    const esm = run('node', ['--input-type=module', '-e', `import * as hooks from 'toolhooks/hooks'; import * as node from 'toolhooks/node';\n${check}`], app);
    const cjs = run('node', ['-e', `const hooks = require('toolhooks/hooks'); const node = require('toolhooks/node');\n${check}`], app);
    expect(JSON.parse(esm)).toEqual(['function', 'function', 'function', 'function']);
    expect(JSON.parse(cjs)).toEqual(['function', 'function', 'function', 'function']);
  });

  it('installs without the adapters\' optional peers (ai, @modelcontextprotocol/sdk)', () => {
    for (const peer of ['ai', '@modelcontextprotocol/sdk/client/index.js']) {
      expect(() => run('node', ['-e', `require.resolve(${JSON.stringify(peer)})`], app)).toThrow(/Cannot find module/);
    }
  });

  it('toolhooks/ai loads and works through require and import without ai installed', () => {
    const expected = JSON.stringify(['HI', '[hidden]', 'undefined']);
    expect(run('node', ['-e', `const { HookRunner, skip } = require('toolhooks'); const { withHooks } = require('toolhooks/ai');${useAi}`], app).trim()).toBe(expected);
    expect(
      run('node', ['--input-type=module', '-e', `import { HookRunner, skip } from 'toolhooks'; import { withHooks } from 'toolhooks/ai';${useAi}`], app).trim(),
    ).toBe(expected);
  });

  it('toolhooks/mcp loads and works through require and import without the MCP SDK installed', () => {
    const expected = 'read:{"path":"/sandbox"}';
    expect(
      run('node', ['-e', `const { HookRunner, redirect } = require('toolhooks'); const { withMcpHooks } = require('toolhooks/mcp');${useMcp}`], app).trim(),
    ).toBe(expected);
    expect(
      run('node', ['--input-type=module', '-e', `import { HookRunner, redirect } from 'toolhooks'; import { withMcpHooks } from 'toolhooks/mcp';${useMcp}`], app).trim(),
    ).toBe(expected);
  });

  it('each adapter entry exports exactly its public surface, in both formats', () => {
    const list = (entry: string): string => `Object.keys(require('${entry}')).sort().join(',')`;
    expect(run('node', ['-e', `console.log(${list('toolhooks/ai')})`], app).trim()).toBe('recordInvalidToolCalls,withHooks');
    expect(run('node', ['-e', `console.log(${list('toolhooks/mcp')})`], app).trim()).toBe('McpToolError,withMcpHooks');
    expect(
      run('node', ['--input-type=module', '-e', `const m = await import('toolhooks/mcp'); console.log(Object.keys(m).sort().join(','))`], app).trim(),
    ).toBe('McpToolError,withMcpHooks');
  });

  it('passes publint', () => {
    const out = run(join(root, 'node_modules/.bin/publint'), ['--pack', 'false', '--strict'], root);
    expect(out).toContain('All good');
  });

  it('passes @arethetypeswrong/cli for every entry point', () => {
    // Exits non-zero with a table of problems when any resolution mode gets the wrong types.
    const out = run(join(root, 'node_modules/.bin/attw'), [tarball, '--format', 'json'], root);
    const report = JSON.parse(out) as { analysis?: { problems?: unknown[] } };
    expect(report.analysis?.problems).toEqual([]);
  });
});

describe('the packed package: toolhooks/langchain and toolhooks/claude', () => {
  const useClaude = `
    const hooks = claudeAgentHooks(new HookRunner([{ beforeTool: () => skip('cached', 'from cache') }]));
    hooks.PreToolUse[0].hooks[0]({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Read', tool_input: {}, tool_use_id: 't1' }, 't1', { signal: new AbortController().signal })
      .then((out) => console.log(JSON.stringify([Object.keys(hooks), out.hookSpecificOutput.permissionDecision, out.hookSpecificOutput.permissionDecisionReason])));`;

  it('toolhooks/claude loads and works through require and import without the Claude Agent SDK installed', () => {
    expect(() => run('node', ['-e', `require.resolve('@anthropic-ai/claude-agent-sdk')`], app)).toThrow(/Cannot find module/);
    const expected = JSON.stringify([['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'PermissionDenied', 'SessionEnd'], 'deny', 'from cache']);
    expect(run('node', ['-e', `const { HookRunner, skip } = require('toolhooks'); const { claudeAgentHooks } = require('toolhooks/claude');${useClaude}`], app).trim()).toBe(expected);
    expect(
      run('node', ['--input-type=module', '-e', `import { HookRunner, skip } from 'toolhooks'; import { claudeAgentHooks } from 'toolhooks/claude';${useClaude}`], app).trim(),
    ).toBe(expected);
  });

  it('toolhooks/langchain without its peers fails to load, naming the missing peer', () => {
    expect(() => run('node', ['-e', `require('toolhooks/langchain')`], app)).toThrow(/Cannot find module '(@langchain\/core\/messages|langchain)'/);
  });

  it('each new entry exports exactly its public surface', () => {
    expect(run('node', ['-e', `console.log(Object.keys(require('toolhooks/claude')).sort().join(','))`], app).trim()).toBe('ClaudeToolError,DeferredApprovals,claudeAgentHooks');
    const langchain = join(root, 'dist/cjs/adapters/langchain/index.js');
    expect(run('node', ['-e', `console.log(Object.keys(require(${JSON.stringify(langchain)})).sort().join(','))`], root).trim()).toBe('toolhooksMiddleware,withHooks');
  });
});

describe('the packed package: toolhooks/openai-agents and toolhooks/mastra', () => {
  const useAgents = `
    const invoke = async (_ctx, input) => 'ran ' + input;
    const [hooked] = withHooks([{ type: 'function', name: 'echo', description: 'd', parameters: {}, strict: true, invoke, needsApproval: async () => false }],
      new HookRunner([{ beforeTool: (name, args) => (args.x === 2 ? skip('cached', 'stub') : undefined) }]));
    Promise.all([hooked.invoke({}, '{"x":1}'), hooked.invoke({}, '{"x":2}')]).then((out) => console.log(JSON.stringify(out)));`;
  const useMastra = `
    const tools = withHooks({ echo: { description: 'd', execute: async (input) => 'ran ' + input.x } },
      new HookRunner([{ beforeTool: (name, args) => (args.x === 2 ? skip('cached', 'stub') : undefined) }]));
    Promise.all([tools.echo.execute({ x: 1 }, {}), tools.echo.execute({ x: 2 }, {})]).then((out) => console.log(JSON.stringify(out)));`;

  it('both load and work through require and import without their frameworks installed', () => {
    expect(() => run('node', ['-e', `require.resolve('@openai/agents')`], app)).toThrow(/Cannot find module/);
    for (const [entry, use, expected, surface] of [
      ['toolhooks/openai-agents', useAgents, '["ran {\\"x\\":1}","stub"]', 'approvalRejections,withHooks'],
      ['toolhooks/mastra', useMastra, '["ran 1","stub"]', 'recordDeclinedCalls,recordInvalidToolCalls,withHooks'],
    ] as const) {
      expect(run('node', ['-e', `const { HookRunner, skip } = require('toolhooks'); const { withHooks } = require('${entry}');${use}`], app).trim()).toBe(expected);
      expect(run('node', ['--input-type=module', '-e', `import { HookRunner, skip } from 'toolhooks'; import { withHooks } from '${entry}';${use}`], app).trim()).toBe(expected);
      expect(run('node', ['-e', `console.log(Object.keys(require('${entry}')).sort().join(','))`], app).trim()).toBe(surface);
    }
  });
});

describe('the packed package: toolhooks/adk', () => {
  const useAdk = `
    const plugin = toolhooksPlugin(new HookRunner([{ beforeTool: (name, args) => (args.x === 2 ? skip('cached', 'stub') : undefined) }]));
    const tool = { name: 'echo', runAsync: async ({ args }) => 'ran ' + args.x };
    const toolContext = { functionCallId: 'c', invocationContext: {}, requestConfirmation() {} };
    Promise.all([1, 2].map((x) => plugin.beforeToolCallback({ tool, toolArgs: { x }, toolContext }))).then((out) => console.log(JSON.stringify(out)));`;

  it('loads and works through require and import without Google ADK installed', () => {
    expect(() => run('node', ['-e', `require.resolve('@google/adk')`], app)).toThrow(/Cannot find module/);
    const expected = '[{"result":"ran 1"},{"result":"stub"}]';
    expect(run('node', ['-e', `const { HookRunner, skip } = require('toolhooks'); const { toolhooksPlugin } = require('toolhooks/adk');${useAdk}`], app).trim()).toBe(expected);
    expect(run('node', ['--input-type=module', '-e', `import { HookRunner, skip } from 'toolhooks'; import { toolhooksPlugin } from 'toolhooks/adk';${useAdk}`], app).trim()).toBe(expected);
    expect(run('node', ['-e', `console.log(Object.keys(require('toolhooks/adk')).sort().join(','))`], app).trim()).toBe('AdkConfirmationRefused,ToolhooksPlugin,toolhooksPlugin');
  });
});

describe('the packed package: toolhooks/limits', () => {
  const useLimits = `
    const runner = new HookRunner([limitHook({ name: 'twice', limit: 2 })]);
    const call = () => executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 'ran' }).catch((error) => error.message);
    (async () => console.log(JSON.stringify([await call(), await call(), await call()])))();`;

  it('loads and works through require and import without a Redis client installed, exporting exactly its surface', () => {
    expect(() => run('node', ['-e', `require.resolve('ioredis')`], app)).toThrow(/Cannot find module/);
    const expected = JSON.stringify(['ran', 'ran', 'limit twice: 2 reached']);
    expect(run('node', ['-e', `const { HookRunner, executeTool } = require('toolhooks'); const { limitHook } = require('toolhooks/limits');${useLimits}`], app).trim()).toBe(expected);
    expect(
      run('node', ['--input-type=module', '-e', `import { HookRunner, executeTool } from 'toolhooks'; import { limitHook } from 'toolhooks/limits';${useLimits}`], app).trim(),
    ).toBe(expected);
    expect(run('node', ['-e', `console.log(Object.keys(require('toolhooks/limits')).sort().join(','))`], app).trim()).toBe('limitHook,memoryLimitStore,redisLimitStore');
  });
});

describe('the packed package: toolhooks/receipts', () => {
  it('loads through require and import and exports exactly its public surface', () => {
    const surface = 'fileReceiptSink,receiptHook,verifyReceipts';
    expect(run('node', ['-e', `console.log(Object.keys(require('toolhooks/receipts')).sort().join(','))`], app).trim()).toBe(surface);
    expect(run('node', ['--input-type=module', '-e', `const m = await import('toolhooks/receipts'); console.log(Object.keys(m).sort().join(','))`], app).trim()).toBe(surface);
  });
});

describe('the packed package: toolhooks/strands', () => {
  // A call the hooks continue returns the tool's own result block: nothing of Strands is needed to run it.
  const useStrands = `
    const handler = toolhooksHooks(new HookRunner([{ beforeTool: () => undefined }]));
    const tool = { name: 'echo', async *stream(ctx) { return { type: 'toolResultBlock', toolUseId: ctx.toolUse.toolUseId, status: 'success', content: [{ type: 'textBlock', text: 'ran ' + ctx.toolUse.input.x }] }; } };
    const event = { agent: {}, toolUse: { name: 'echo', toolUseId: 'c', input: { x: 1 } }, tool, selectedTool: undefined };
    handler.beforeToolCall(event).apply(event);
    event.selectedTool.stream({ toolUse: event.toolUse, agent: {}, interrupt() {} }).next().then((out) => console.log(JSON.stringify(out.value.content)));`;

  it('loads and works through require and import without Strands installed', () => {
    expect(() => run('node', ['-e', `require.resolve('@strands-agents/sdk')`], app)).toThrow(/Cannot find module/);
    const expected = '[{"type":"textBlock","text":"ran 1"}]';
    expect(run('node', ['-e', `const { HookRunner } = require('toolhooks'); const { toolhooksHooks } = require('toolhooks/strands');${useStrands}`], app).trim()).toBe(expected);
    expect(run('node', ['--input-type=module', '-e', `import { HookRunner } from 'toolhooks'; import { toolhooksHooks } from 'toolhooks/strands';${useStrands}`], app).trim()).toBe(expected);
    expect(run('node', ['-e', `console.log(Object.keys(require('toolhooks/strands')).sort().join(','))`], app).trim()).toBe('ToolhooksInterventions,toolhooksHooks');
  });
});
