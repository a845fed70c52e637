/**
 * The TypeScript types reject the same wiring mistakes the runtime rejects: each mistake is compiled
 * with the compiler API under strict options (as a user's strict project would) and must produce a
 * diagnostic in its own file; a correct program must produce none.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = resolve(fileURLToPath(new URL('../../../', import.meta.url)));
const ENTRY = join(REPO, 'src', 'index.js');

const IMPORTS = `import { HookRunner, abort, executeTool } from ${JSON.stringify(ENTRY)};\nimport type { ToolHook } from ${JSON.stringify(ENTRY)};\n`;
const POLICY = `const policy = { name: 'p', failureMode: 'closed' as const, beforeTool: () => undefined };\n`;

/** Each mistake in a file of its own, with what its diagnostic must mention. */
const MISTAKES: Record<string, { source: string; mentions: RegExp }> = {
  'single-hook.ts': { source: `${POLICY}export const runner = new HookRunner(policy);\n`, mentions: /'beforeTool' are incompatible/ },
  'hook-as-option.ts': { source: `${POLICY}export const runner = new HookRunner({ policy });\n`, mentions: /policy/ },
  'tool-member.ts': {
    source: `export const runner = new HookRunner({ hooks: [{ tool: ['x'], beforeTool() {} }] });\n`,
    mentions: /tool/,
  },
  'tools-member-variable.ts': {
    // Not a fresh literal at the call, so only the typed misspelling members can catch it.
    source: `const gate = { Tools: ['x'], beforeTool() {} };\nexport const runner = new HookRunner([gate]);\n`,
    mentions: /'Tools' are incompatible/,
  },
  'lowercase-method-class.ts': {
    // The fail-closed gate whose beforeTool is spelt beforetool: its tool would run unguarded.
    source: `class Gate implements ToolHook {\n  readonly failureMode = 'closed';\n  beforetool() { return abort('x'); }\n  onEvent() {}\n}\nexport const g = new Gate();\n`,
    mentions: /beforetool/,
  },
  'snake-method-variable.ts': {
    source: `const gate = { on_error() {}, onEvent() {} };\nexport const runner = new HookRunner([gate]);\n`,
    mentions: /on_error/,
  },
  'plural-method-class.ts': {
    source: `class Audit implements ToolHook {\n  afterTools() {}\n  onEvent() {}\n}\nexport const a = new Audit();\n`,
    mentions: /afterTools/,
  },
  'failuremode-variable.ts': {
    source: `const gate = { failuremode: 'closed', beforeTool() {} };\nexport const runner = new HookRunner([gate]);\n`,
    mentions: /failuremode/,
  },
  'timeout-ms-variable.ts': {
    source: `const gate = { timeoutMS: 5000, beforeTool() {} };\nexport const runner = new HookRunner([gate]);\n`,
    mentions: /timeoutMS/,
  },
  'before-tool-call.ts': { source: `export const h = { beforeToolCall() {} } satisfies ToolHook;\n`, mentions: /beforeToolCall|NotAFunction/ },
  'before-tool-snake.ts': {
    source: `export const runner = new HookRunner([{ name: 'x', before_tool: () => abort('no') }]);\n`,
    mentions: /before_tool|NotAFunction/,
  },
  'runner-timeout.ts': { source: `${POLICY}export const runner = new HookRunner({ hooks: [policy], timeout: 5 });\n`, mentions: /timeout/ },
  'execute-timeout.ts': {
    source: `${POLICY}export const run = executeTool({ hooks: new HookRunner([policy]), toolName: 't', args: {}, execute: () => 1, timeout: 5 });\n`,
    mentions: /timeout/,
  },
  'agent-name-number.ts': {
    source: `${POLICY}export const run = executeTool({ hooks: new HookRunner([policy]), toolName: 't', args: {}, execute: () => 1, agentName: 5 });\n`,
    mentions: /number|string/,
  },
};

const CORRECT = `${POLICY}
class Gate implements ToolHook {
  readonly name = 'Gate';
  readonly #denied = new Set(['rm']);
  isDenied(tool: string): boolean {
    return this.#denied.has(tool);
  }
  beforeTool(toolName: string) {
    return this.isDenied(toolName) ? abort('denied') : undefined;
  }
}
const standalone = {
  name: 'standalone',
  tools: ['shell'],
  mode: 'audit',
  beforeTool(toolName, args) {
    return String(args.cmd).startsWith('rm ') ? abort(\`no \${toolName}\`) : undefined;
  },
} satisfies ToolHook;
/** A hook's own state may have any name: a redirect target in a private tool field is not \`tools\`. */
class Reroute implements ToolHook {
  constructor(private tool: string, private readonly timeout: string = 'soon') {}
  beforeTool(toolName: string) {
    return toolName === this.tool ? undefined : abort(this.timeout);
  }
}
const stateful = { tool: 'sandbox', mode: 'audit' as const, beforeTool() {} };
export const reroute = new HookRunner([new Reroute('sandbox'), stateful]);
export const a = new HookRunner([policy]);
export const b = new HookRunner({ hooks: [policy, new Gate(), standalone], timeoutMs: 5, failureMode: 'closed', agentName: 'bot' });
export const c = new HookRunner();
export const run = executeTool({
  hooks: b,
  toolName: 'shell',
  args: { cmd: 'ls' },
  execute: () => 1,
  toolDescription: 'runs a shell command',
  agentName: 'support-bot',
  callId: 'c1',
});
`;

let dir: string;
let byFile: Map<string, string[]>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'toolhooks-types-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  const files = { ...Object.fromEntries(Object.entries(MISTAKES).map(([name, m]) => [name, IMPORTS + m.source])), 'correct.ts': IMPORTS + CORRECT };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram(
    Object.keys(files).map((name) => join(dir, name)),
    {
      target: ts.ScriptTarget.ES2022,
      lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(REPO, 'node_modules', '@types')],
    },
  );
  byFile = new Map(Object.keys(files).map((name) => [name, []]));
  const other: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file === undefined ? undefined : diagnostic.file.fileName;
    const name = file !== undefined && resolve(file).startsWith(resolve(dir)) ? file.slice(resolve(dir).length + 1) : undefined;
    if (name !== undefined && byFile.has(name)) byFile.get(name)?.push(text);
    else other.push(`${file ?? '(global)'}: ${text}`);
  }
  // The library itself must compile under these options, or the per-file results mean nothing.
  expect(other).toEqual([]);
}, 120_000);

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('strict TypeScript rejects the wiring mistakes', () => {
  it.each(Object.entries(MISTAKES))('%s does not compile', (name, { mentions }) => {
    const diagnostics = byFile.get(name) ?? [];
    expect(diagnostics, `no diagnostic for ${name}`).not.toEqual([]);
    expect(diagnostics.join('\n')).toMatch(mentions);
  });

  it('a correct program (arrays, options, class hooks with helpers and state of their own, satisfies ToolHook, the GenAI options) compiles', () => {
    expect(byFile.get('correct.ts')).toEqual([]);
  });
});
