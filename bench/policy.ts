/**
 * The policy rows (`toolhooks/policy`): a policy hook around each engine against the same engine's
 * `evaluate(input)` called by hand inside a plain hook, both through `executeTool` with no SDK. The hand
 * hook gives the engine the very document the policy hook does: the same fields (phase, tool, callId,
 * context, args) through the same bounded serialisation (`policyInput`, the build's own), as a careful hand
 * hook must to survive hostile arguments; so the ratio is what the policy hook adds on top (checking the
 * answer, naming the policy on the decision, the hook's plumbing). The absolute per-call cost of each engine
 * is the hand row. Loading an engine (importing its
 * package, parsing or compiling the policy) is timed once here, apart from the calls: it is never on the
 * call path. OPA's rows need the `opa` CLI to compile the Rego at run time (scripts/ci-install-tools.sh opa,
 * or OPA_BIN); without it they are left out with a note.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HookContext, HookDecision, ToolArgs, ToolHook } from '../src/index.js';
import type * as Policy from '../src/policy/index.js';
import type * as PolicyInputModule from '../src/policy/input.js';
import type { PolicyEngine, PolicyInput } from '../src/policy/index.js';
import type { Build, Library } from './library.js';
import type { Scenario } from './scenarios.js';
import { ARGS, CALL_ID, TOOL_NAME, tool } from './workload.js';

const REGO = `package toolhooks

default decision := {"decision": "allow"}

decision := {"decision": "deny", "reason": "destructive command", "policies": ["no-rm"]} if {
  input.tool == "shell"
  contains(input.args.cmd, "rm -rf")
}
`;

const CEDAR = `
@id("no-rm") forbid (principal, action == Action::"shell", resource) when { context.args.cmd like "*rm -rf*" };
@id("default") permit (principal, action, resource);
`;

/** The policy entry of the build being measured, and its input module (for the hand hook's document). */
async function loadPolicy(build: Build, distDir: string | undefined): Promise<{ policy: typeof Policy; input: Partial<typeof PolicyInputModule> }> {
  if (build === 'src') return { policy: await import('../src/policy/index.js'), input: await import('../src/policy/input.js') };
  const dir = distDir === undefined ? new URL('./.dist/', import.meta.url) : new URL(`file://${join(process.cwd(), distDir)}/`);
  return {
    policy: (await import(new URL('policy/index.js', dir).href)) as typeof Policy,
    input: (await import(new URL('policy/input.js', dir).href)) as Partial<typeof PolicyInputModule>,
  };
}

function opaBinary(): string | undefined {
  const binary = process.env.OPA_BIN || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'toolhooks', 'opa-v1.22.4', 'opa');
  try {
    accessSync(binary, constants.X_OK);
    return binary;
  } catch {
    return undefined;
  }
}

/** `fn`'s wall time in milliseconds, and what it returned. */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

const SIGNAL = { signal: new AbortController().signal };

/** How the hand hook builds its input: the build's bounded document, or (an older build without it) a literal. */
type BuildInput = (tool: string, args: ToolArgs, ctx: HookContext) => PolicyInput;

function inputBuilder(input: Partial<typeof PolicyInputModule>): BuildInput {
  const { policyInput } = input;
  if (policyInput === undefined) {
    return (tool, args, ctx) => (ctx.callId === undefined ? { phase: 'before_tool', tool, args, context: {} } : { phase: 'before_tool', tool, callId: ctx.callId, args, context: {} });
  }
  return (tool, args, ctx) => policyInput({ phase: 'before_tool', tool, args, ctx, hasResult: false, context: undefined });
}

/** The plain hook that calls `engine.evaluate(input)` by hand with the policy hook's document: the baseline of each policy row. */
function handHook(engine: PolicyEngine, deny: HookDecision, build: BuildInput): ToolHook {
  return {
    name: 'hand-policy',
    beforeTool(toolName: string, args: ToolArgs, _state: unknown, ctx: HookContext): HookDecision | undefined {
      const result = engine.evaluate(build(toolName, args, ctx), SIGNAL) as { decision: string };
      return result.decision === 'deny' ? deny : undefined;
    },
  };
}

function call(lib: Library, hook: ToolHook): () => Promise<unknown> {
  const runner = new lib.HookRunner({ hooks: [hook] });
  const { executeTool } = lib;
  return () => executeTool({ hooks: runner, toolName: TOOL_NAME, args: ARGS, execute: tool, callId: CALL_ID });
}

/** The policy rows, and one line per engine saying what loading it cost (off the call path). */
export async function policyScenarios(lib: Library, build: Build, distDir: string | undefined): Promise<{ scenarios: Scenario[]; notes: string[] }> {
  const { policy, input } = await loadPolicy(build, distDir);
  const deny = lib.abort('destructive command');
  const engines: [string, PolicyEngine][] = [];
  const notes: string[] = [];
  if (input.policyInput === undefined) notes.push("this build has no policyInput: the hand rows' input is a literal object, not the bounded document");
  const buildInput = inputBuilder(input);
  const cedar = await timed(() => policy.cedarPolicy({ policies: CEDAR, principal: () => 'Agent::"bench"' }));
  const cedarAgain = await timed(() => policy.cedarPolicy({ policies: CEDAR, principal: () => 'Agent::"bench"' }));
  notes.push(`engine load, cedar: ${cedar.ms.toFixed(1)} ms the first time (package import, wasm compile, policy parse), ${cedarAgain.ms.toFixed(1)} ms for another policy set; once, at construction`);
  engines.push(['cedar', cedar.value]);
  const opa = opaBinary();
  if (opa === undefined) {
    notes.push('opa-wasm rows left out: no opa CLI to compile the Rego (bash scripts/ci-install-tools.sh opa, or OPA_BIN)');
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'toolhooks-bench-opa-'));
    try {
      writeFileSync(join(dir, 'policy.rego'), REGO);
      execFileSync(opa, ['build', '-t', 'wasm', '-e', 'toolhooks/decision', '-o', join(dir, 'bundle.tar.gz'), join(dir, 'policy.rego')]);
      const wasm = await timed(() => policy.opaWasm({ policy: join(dir, 'bundle.tar.gz') }));
      const wasmAgain = await timed(() => policy.opaWasm({ policy: join(dir, 'bundle.tar.gz') }));
      notes.push(`engine load, opa-wasm: ${wasm.ms.toFixed(1)} ms the first time (package import, bundle read, wasm compile), ${wasmAgain.ms.toFixed(1)} ms again; once, at construction`);
      engines.push(['opa-wasm', wasm.value]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const scenarios: Scenario[] = [];
  for (const [name, engine] of engines) {
    // Cedar's rows skip the heap figures: their forced GCs crash V8 22 inside cedar-wasm (docs/performance.md).
    const heap = name === 'cedar' ? { heap: false as const } : {};
    scenarios.push(
      { id: `policy.${name}.hand`, label: `no SDK: ${name} evaluate(input) by hand in a plain hook`, setting: 'no-sdk', library: false, ...heap, call: call(lib, handHook(engine, deny, buildInput)) },
      {
        id: `policy.${name}`,
        label: `no SDK: policyHook(${name})`,
        setting: 'no-sdk',
        baseline: `policy.${name}.hand`,
        library: true,
        target: { maxRatio: 1.1 },
        paired: true,
        ...heap,
        call: call(lib, policy.policyHook(engine)),
      },
    );
  }
  return { scenarios, notes };
}
