/**
 * opaWasm with Rego compiled at test time by the real OPA CLI (`opa build -t wasm`): bundles, .wasm paths
 * and bytes, data, entrypoints, OPA's undefined, toolhooks' extensions, a hostile input — and the same
 * policy and inputs through `@ai-sdk/policy-opa`'s own wasm client, which must decide the same.
 * Needs OPA (scripts/ci-install-tools.sh opa): skipped with a note outside CI when it is missing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opaPolicy, wasmPolicyClient } from '@ai-sdk/policy-opa';
import { describe, expect, it } from 'vitest';
import { HookAbortError, HookRunner, executeTool } from '../../../src/index.js';
import type { HookDecision, ToolArgs, ToolHook } from '../../../src/index.js';
import { opaWasm, policyHook } from '../../../src/policy/index.js';
import { sha256Hex } from '../../../src/policy/digest.js';
import { readWasmBundle } from '../../../src/policy/opa-bundle.js';
import { buildWasm, requireOpa } from '../../support/opa.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('policy-opa-wasm');

/** A policy written for @ai-sdk/policy-opa: its `{ decision, reason }` shape, read from our input document. */
const AI_SDK_POLICY = `
package toolhooks

default decision := {"decision": "not-applicable"}

decision := {"decision": "deny", "reason": "destructive command"} if {
  input.tool == "shell"
  contains(input.args.cmd, "rm -rf")
}

decision := {"decision": "allow"} if input.tool == "read_file"

decision := {"decision": "requires-approval", "reason": "mail leaves the company"} if {
  input.tool == "send_email"
  not endswith(input.args.to, "@example.com")
}

decision := {"decision": "deny"} if input.tool == "drop_table"
`;

/** The legacy boolean shape the AI SDK also reads. */
const LEGACY_POLICY = `
package legacy

default allow := {"allow": true}

allow := {"allow": false, "reason": "no deletes"} if startswith(input.tool, "delete_")
`;

/** toolhooks' extensions, with a sandbox tool named in data. */
const EXTENSIONS_POLICY = `
package ext

default decision := {"decision": "allow"}

decision := {"decision": "redirect", "tool": data.sandbox, "args": {"network": false}, "reason": "network access"} if {
  input.phase == "before_tool"
  input.tool == "shell"
  startswith(input.args.cmd, "curl")
}

decision := {"decision": "skip", "stub": {"cached": true}, "reason": "cached", "policies": ["cache"]} if input.tool == "lookup"

decision := {"decision": "replace", "result": "[redacted]", "reason": "pii"} if {
  input.phase == "after_tool"
  contains(input.result, "@")
}

undecided if input.tool == "never"
`;

const INPUTS: readonly [string, ToolArgs][] = [
  ['shell', { cmd: 'rm -rf /' }],
  ['shell', { cmd: 'ls' }],
  ['read_file', { path: '/etc/hosts' }],
  ['send_email', { to: 'eve@elsewhere.org' }],
  ['send_email', { to: 'ann@example.com' }],
  ['drop_table', { table: 'users' }],
];

/** What an AI SDK approval status is, in toolhooks' words. */
const AS_KIND: Readonly<Record<string, HookDecision['kind']>> = { approved: 'continue', 'not-applicable': 'continue', denied: 'abort', 'user-approval': 'ask' };

/** The AI SDK's approval function for a policy (opaPolicy returns one, typed as the wider configuration). */
function approvalFunction(options: Parameters<typeof opaPolicy>[0]): (request: unknown) => Promise<string | { type: string; reason?: string }> {
  const configuration: unknown = opaPolicy(options);
  if (typeof configuration !== 'function') throw new Error('opaPolicy did not return an approval function');
  return configuration as (request: unknown) => Promise<string | { type: string; reason?: string }>;
}

/** The policy hook's own before_tool decision about one call. */
async function decide(hook: ToolHook, tool: string, args: ToolArgs): Promise<{ kind: HookDecision['kind']; reason?: string }> {
  const decision = await hook.beforeTool?.(tool, args, undefined, { signal: new AbortController().signal, phase: 'before_tool', attempt: 1 });
  if (decision === undefined) throw new Error('the policy hook decided nothing');
  return decision.kind === 'continue' ? { kind: 'continue' } : { kind: decision.kind, reason: decision.reason };
}

describe('opaWasm and @ai-sdk/policy-opa, side by side', () => {
  it('the same Rego policy and inputs give the same decisions and reasons', async (ctx) => {
    const opa = requireOpa(ctx);
    const bundle = await buildWasm(opa, dir, { 'policy.rego': AI_SDK_POLICY }, ['toolhooks/decision']);
    const ours = policyHook(await opaWasm({ policy: bundle }));
    const client = await wasmPolicyClient({ wasm: readWasmBundle(readFileSync(bundle), bundle).wasm });
    const theirs = approvalFunction({
      client,
      path: 'toolhooks/decision',
      toInput: ({ toolCall }) => ({ phase: 'before_tool', tool: toolCall.toolName, args: toolCall.input, context: {} }),
    });
    for (const [tool, args] of INPUTS) {
      const decision = await decide(ours, tool, args);
      const status = await theirs({ toolCall: { toolName: tool, toolCallId: 'c1', input: args }, tools: undefined, toolsContext: {}, runtimeContext: {}, messages: [] });
      const type = typeof status === 'string' ? status : status.type;
      expect(decision.kind, `${tool} ${JSON.stringify(args)}`).toBe(AS_KIND[type]);
      const reason = typeof status === 'string' ? undefined : (status as { reason?: string }).reason;
      if (reason !== undefined) expect(decision.reason).toBe(reason);
    }
  });

  it('reads the legacy { allow, reason } shape the same way', async (ctx) => {
    const opa = requireOpa(ctx);
    const bundle = await buildWasm(opa, dir, { 'legacy.rego': LEGACY_POLICY }, ['legacy/allow']);
    const ours = policyHook(await opaWasm({ policy: bundle }));
    const theirs = approvalFunction({ client: await wasmPolicyClient({ wasm: readWasmBundle(readFileSync(bundle), bundle).wasm }), path: 'legacy/allow', toInput: ({ toolCall }) => ({ phase: 'before_tool', tool: toolCall.toolName, args: toolCall.input, context: {} }) });
    for (const tool of ['delete_user', 'get_user']) {
      const decision = await decide(ours, tool, {});
      const status = await theirs({ toolCall: { toolName: tool, toolCallId: 'c1', input: {} }, tools: undefined, toolsContext: {}, runtimeContext: {}, messages: [] });
      expect(decision.kind).toBe(AS_KIND[typeof status === 'string' ? status : status.type]);
    }
    expect(await decide(ours, 'delete_user', {})).toEqual({ kind: 'abort', reason: 'no deletes' });
  });
});

describe('opaWasm', () => {
  it('loads a bundle, its .wasm by path and as bytes; the digest is the SHA-256 of what was loaded', async (ctx) => {
    const opa = requireOpa(ctx);
    const bundle = await buildWasm(opa, dir, { 'policy.rego': AI_SDK_POLICY }, ['toolhooks/decision']);
    const wasm = readWasmBundle(readFileSync(bundle), bundle).wasm;
    const wasmPath = join(dir, 'policy.wasm');
    writeFileSync(wasmPath, wasm);
    const fromBundle = await opaWasm({ policy: bundle });
    const fromPath = await opaWasm({ policy: wasmPath });
    const fromBytes = await opaWasm({ policy: wasm, entrypoint: 'toolhooks/decision' });
    expect(fromBundle).toMatchObject({ name: 'opa-wasm', digest: sha256Hex(readFileSync(bundle)) });
    expect(fromPath.digest).toBe(sha256Hex(wasm));
    expect(fromBytes.digest).toBe(sha256Hex(wasm));
    const input = { phase: 'before_tool', tool: 'shell', args: { cmd: 'rm -rf /' }, context: {} } as const;
    const signal = new AbortController().signal;
    for (const engine of [fromBundle, fromPath, fromBytes]) expect(await engine.evaluate(input, { signal })).toEqual({ decision: 'deny', reason: 'destructive command' });
  });

  it("does what toolhooks' extensions say: redirect (tool from data), skip with a stub, replace in after_tool", async (ctx) => {
    const opa = requireOpa(ctx);
    const bundle = await buildWasm(opa, dir, { 'ext.rego': EXTENSIONS_POLICY }, ['ext/decision']);
    const engine = await opaWasm({ policy: bundle, data: { sandbox: 'sandbox_shell' } });
    const runner = new HookRunner({ hooks: [policyHook(engine, { phases: ['before_tool', 'after_tool'] })] });
    const tools = { sandbox_shell: (args: ToolArgs) => `sandboxed ${JSON.stringify(args)}` };
    const run = (toolName: string, args: ToolArgs, result: unknown) => executeTool({ hooks: runner, toolName, args, tools, execute: () => result });
    expect(await run('shell', { cmd: 'curl x' }, 'net')).toBe('sandboxed {"cmd":"curl x","network":false}');
    expect(await run('lookup', {}, 'fresh')).toEqual({ cached: true });
    expect(await run('profile', {}, 'ann@example.com')).toBe('[redacted]');
    expect(await run('profile', {}, 'nothing personal')).toBe('nothing personal');
  });

  it("OPA's undefined (no rule matched, no default) is a malformed result: fail closed", async (ctx) => {
    const opa = requireOpa(ctx);
    const bundle = await buildWasm(opa, dir, { 'ext.rego': EXTENSIONS_POLICY }, ['ext/undecided']);
    const runner = new HookRunner({ hooks: [policyHook(await opaWasm({ policy: bundle }))] });
    const error = await executeTool({ hooks: runner, toolName: 'shell', args: {}, execute: () => 'ran' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookAbortError);
    expect(String(((error as HookAbortError).cause as Error).message)).toMatch(/OPA's undefined/);
  });

  it('fails at construction when the entrypoint is not in the bundle, or several are and none is chosen', async (ctx) => {
    const opa = requireOpa(ctx);
    const bundle = await buildWasm(opa, dir, { 'policy.rego': AI_SDK_POLICY, 'legacy.rego': LEGACY_POLICY }, ['toolhooks/decision', 'legacy/allow']);
    await expect(opaWasm({ policy: bundle, entrypoint: 'toolhooks/allow' })).rejects.toThrow(/has no entrypoint "toolhooks\/allow"; it has "toolhooks\/decision", "legacy\/allow"/);
    await expect(opaWasm({ policy: bundle })).rejects.toThrow(/has 2 entrypoints .*choose one with the entrypoint option/);
    expect(await (await opaWasm({ policy: bundle, entrypoint: 'legacy/allow' })).evaluate({ phase: 'before_tool', tool: 'delete_x', args: {}, context: {} }, { signal: new AbortController().signal })).toEqual({ allow: false, reason: 'no deletes' });
  });

  it('decides a hostile input: 100k keys, a cycle, a 50 MB string', async (ctx) => {
    const opa = requireOpa(ctx);
    const bundle = await buildWasm(opa, dir, { 'policy.rego': AI_SDK_POLICY }, ['toolhooks/decision']);
    const runner = new HookRunner({ hooks: [policyHook(await opaWasm({ policy: bundle }))] });
    const huge: Record<string, unknown> = {};
    for (let index = 0; index < 100_000; index += 1) huge[`k${index}`] = index;
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const args = { cmd: `rm -rf ${'x'.repeat(50 * 1024 * 1024)}`, huge, cyclic };
    await expect(executeTool({ hooks: runner, toolName: 'shell', args, execute: () => 'ran' })).rejects.toThrow('destructive command');
  });
});
