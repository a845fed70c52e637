/**
 * The README and docs/ as a newcomer uses them, against the packed package installed into an empty
 * project:
 * - every ```ts block marked `<!-- runnable: NAME -->` runs as written (with tsx, as `NAME.mts`) and
 *   prints what the expectations below say — the README's first screen prints a trace tree;
 * - every ```js block marked `<!-- runnable: NAME -->` (the adapter pages' snippets) runs as written with
 *   node, as `NAME.js` in a project made with `npm init -y` (CommonJS: a top-level `await` fails), with
 *   the packages of the install line right before it installed at the repository's own versions;
 * - every ```ts block not marked `<!-- fragment -->` compiles with `tsc --strict` against the
 *   package's own types;
 * - the shipped examples run from the installed package, and its source maps point at nothing missing.
 * The markers are described in test/support/markdown.ts and in the README's Development notes.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeBlock } from '../../support/markdown.js';
import { codeBlocks, documentationFiles } from '../../support/markdown.js';
import type { PackedApp } from '../../support/packed-app.js';
import { packAndInstall, pinnedDevDependencies, repoRoot, run } from '../../support/packed-app.js';

const tsx = join(repoRoot, 'node_modules/tsx/dist/cli.mjs');
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

const docBlocks = documentationFiles(repoRoot).flatMap((file) => codeBlocks(repoRoot, file));
const tsBlocks = docBlocks.filter((block) => block.lang === 'ts');
/** CommonJS snippets, run with node as a user of a default `npm init -y` project would. */
const jsRunnable = docBlocks.filter((block) => block.lang === 'js' && block.marker?.kind === 'runnable');
const runnable = [...tsBlocks.filter((block) => block.marker?.kind === 'runnable'), ...jsRunnable];

/** The packages the install line right before a CommonJS snippet names (`npm install toolhooks …`), toolhooks aside. */
function installLine(block: CodeBlock): string[] {
  const before = docBlocks[docBlocks.indexOf(block) - 1];
  const command = before?.file === block.file && before.lang === 'sh' ? /^npm install toolhooks ([^#\n]+)/.exec(before.code) : null;
  if (command === null) throw new Error(`${block.file}:${block.line}: no \`npm install toolhooks …\` block right before the snippet`);
  return (command[1] ?? '').trim().split(/\s+/);
}
/** What the CommonJS snippets' install lines name, but the OpenTelemetry SDK every packed app has. */
const frameworks = [...new Set(jsRunnable.flatMap(installLine))].filter((name) => name !== '@opentelemetry/sdk-node').sort();

/** The lines of one adapter snippet: its own two results, and one trace tree per call (completed, then aborted). */
function adapterRun(toolName: string, results: readonly [string, string]): (stdout: string) => void {
  return (out) => {
    expect(out.startsWith(`${results[0]}\n${results[1]}\n`), out).toBe(true);
    expect(out).toMatch(new RegExp(`^execute_tool ${toolName} {2}\\d+\\.\\d ms {2}(id=\\S+ {2})?outcome=completed$`, 'm'));
    expect(out).toMatch(/^├─ toolhooks\.before_tool {2}\d+\.\d ms {2}decision=continue$/m);
    expect(out).toMatch(/^└─ toolhooks\.execute {2}\d+\.\d ms {2}attempt=1$/m);
    expect(out).toMatch(new RegExp(`^execute_tool ${toolName} {2}\\d+\\.\\d ms {2}(id=\\S+ {2})?outcome=aborted {2}error\\.type=HookAbortError {2}"destructive command"$`, 'm'));
    expect(out).toMatch(/^└─ toolhooks\.before_tool {2}\d+\.\d ms {2}decision=abort by policy$/m);
    expect(out.match(/^execute_tool /gm)).toHaveLength(2);
  };
}
const STOPPED = 'policy stopped it: destructive command';
const compiled = tsBlocks.filter((block) => block.marker?.kind !== 'fragment');

/** What each runnable snippet must print on stdout (it must also exit 0 and write nothing on stderr). */
const EXPECTED: Record<string, (stdout: string) => void> = {
  'first-screen': (out) => {
    // One tree per call, printed by startTelemetry({ console: 'tree' }), and the snippet's own lines.
    expect(out).toMatch(/^execute_tool shell {2}\d+\.\d ms {2}outcome=completed$/m);
    expect(out).toMatch(/^├─ toolhooks\.before_tool {2}\d+\.\d ms {2}decision=continue$/m);
    expect(out).toMatch(/^│ {6}• policy: continue \(\d+\.\d\d ms\)$/m);
    expect(out).toMatch(/^└─ toolhooks\.execute {2}\d+\.\d ms {2}attempt=1$/m);
    expect(out).toMatch(/^ran ls$/m);
    expect(out).toMatch(/^execute_tool shell {2}\d+\.\d ms {2}outcome=aborted {2}error\.type=HookAbortError {2}"destructive command"$/m);
    expect(out).toMatch(/^└─ toolhooks\.before_tool {2}\d+\.\d ms {2}decision=abort by policy$/m);
    expect(out).toMatch(/^ {7}• policy: abort "destructive command" \(\d+\.\d\d ms\)$/m);
    expect(out).toMatch(/^policy stopped it: destructive command$/m);
    expect(out).not.toContain('rm -rf /\n');
  },
  'write-a-hook': (out) => {
    expect(out).toBe('sandbox ran: curl https://example.com\npolicy stopped it: destructive command\n');
  },
  'tree-exporter': (out) => {
    expect(out).toMatch(/^execute_tool search {2}\d+\.\d ms {2}outcome=skipped$/m);
    // One tree: the phase span nests under the call's span.
    expect(out).toMatch(/^└─ toolhooks\.before_tool {2}\d+\.\d ms {2}decision=skip by cache$/m);
    expect(out).toMatch(/^ {7}• cache: skip "cache hit" \(\d+\.\d\d ms\)$/m);
    expect(out).toMatch(/^result: from cache$/m);
  },
  'literal-decisions': (out) => {
    expect(out).toBe('["cached",true]\n');
  },
  'adapter-ai': adapterRun('shell', ['ran ls', STOPPED]),
  'adapter-openai-agents': adapterRun('shell', ['ran ls', STOPPED]),
  'adapter-mastra': adapterRun('shell', ['ran ls', STOPPED]),
  'adapter-mcp': adapterRun('mcp__ops__shell', ['ran ls', STOPPED]),
  'adapter-langchain': adapterRun('shell', ['ran ls', STOPPED]),
  'adapter-claude': adapterRun('Bash', ['ls: {}', 'rm -rf /: deny, destructive command']),
  'adapter-adk': adapterRun('shell', ['call_1: {"result":"ran ls"}', 'call_2: {"error":"This tool call was aborted by policy. Reason: destructive command"}']),
};

/** The environment of a snippet run: the test's own OTEL_* settings must not change what it prints. */
function snippetEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('OTEL_')) env[key] = value;
  return env;
}

function runTsx(file: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [tsx, file], { cwd, encoding: 'utf8', env: snippetEnv(), timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runNode(file: string, cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [file], { cwd, encoding: 'utf8', env: snippetEnv(), timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function snippetName(block: CodeBlock): string {
  if (block.marker?.kind === 'runnable') return block.marker.name;
  return `${block.file.replace(/[/.]/g, '_')}_L${block.line}`;
}

let packed: PackedApp;
/** The project `npm init -y` made, inside the packed app (it resolves the app's node_modules). */
let commonjsApp: string;
const sources = new Map<string, CodeBlock>();

beforeAll(() => {
  // The frameworks of the adapter snippets, in the same npm command as the tarball.
  packed = packAndInstall('toolhooks-snippets-', pinnedDevDependencies(frameworks));
  commonjsApp = join(packed.app, 'commonjs-app');
  mkdirSync(commonjsApp, { recursive: true });
  run('npm', ['init', '-y'], commonjsApp);
  for (const block of jsRunnable) writeFileSync(join(commonjsApp, `${snippetName(block)}.js`), block.code);
  const dir = join(packed.app, 'snippets');
  mkdirSync(dir, { recursive: true });
  for (const block of compiled) {
    const name = `${snippetName(block)}.mts`;
    sources.set(`snippets/${name}`, block);
    writeFileSync(join(dir, name), block.code);
  }
  writeFileSync(
    join(packed.app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        lib: ['ES2022'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(repoRoot, 'node_modules/@types')],
      },
      include: ['snippets/*.mts'],
    }),
  );
}, 600_000);

afterAll(() => packed?.remove(), 300_000); // the frameworks make the app large to delete on a busy disk

describe('the docs, against the packed package', () => {
  it('mark the README first screen runnable, and every runnable snippet has expectations (and the reverse)', () => {
    const names = runnable.map((block) => block.marker?.kind === 'runnable' && block.marker.name);
    expect(new Set(names).size, 'runnable names are unique').toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(runnable.find((block) => block.file === 'README.md')?.marker).toEqual({ kind: 'runnable', name: 'first-screen' });
  });

  it('start each adapter page with its install line and a CommonJS snippet (no top-level await), whose packages the repository tests', () => {
    const adapterPages = docBlocks.filter((block) => block.file === 'docs/adapters.md');
    expect(jsRunnable.filter((block) => block.file === 'docs/adapters.md')).toHaveLength(7);
    for (const block of jsRunnable) {
      expect(block.code, `${block.file}:${block.line}`).not.toMatch(/^(await |for await |const \w+ = await )/m);
      expect(block.code, `${block.file}:${block.line}`).not.toMatch(/^import /m);
      installLine(block);
    }
    expect(adapterPages.length).toBeGreaterThan(jsRunnable.length);
    expect(frameworks).toEqual(expect.arrayContaining(['ai', '@openai/agents', '@mastra/core', '@modelcontextprotocol/sdk', 'langchain', '@langchain/core', '@anthropic-ai/claude-agent-sdk', '@google/adk']));
    // What `npm init -y` makes is a CommonJS project (npm 10+ says so; older ones leave "type" out).
    const manifest = JSON.parse(readFileSync(join(commonjsApp, 'package.json'), 'utf8')) as { type?: string };
    expect(manifest.type ?? 'commonjs').toBe('commonjs');
  });

  it.each(jsRunnable.map((block) => [snippetName(block), block] as const))(
    'CommonJS snippet %s runs as written with node in an `npm init -y` project',
    (name, block) => {
      const { status, stdout, stderr } = runNode(`${name}.js`, commonjsApp);
      expect(stderr, `${block.file}:${block.line} wrote on stderr`).toBe('');
      expect(status, `${block.file}:${block.line} exited with ${String(status)}`).toBe(0);
      EXPECTED[name]?.(stdout);
    },
    120_000,
  );

  it.each(runnable.filter((block) => block.lang === 'ts').map((block) => [snippetName(block), block] as const))('runnable snippet %s runs as written', (name, block) => {
    const { status, stdout, stderr } = runTsx(join('snippets', `${name}.mts`), packed.app);
    expect(stderr, `${block.file}:${block.line} wrote on stderr`).toBe('');
    expect(status, `${block.file}:${block.line} exited with ${String(status)}`).toBe(0);
    EXPECTED[name]?.(stdout);
  });

  it('every ```ts block that is not marked as a fragment compiles with tsc --strict against the package types', () => {
    expect(compiled.length).toBeGreaterThan(runnable.length);
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: packed.app, encoding: 'utf8' });
    // Errors name the snippet file; point them at the doc instead.
    const errors = result.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const at = /^(snippets\/[^(]+)\((\d+),(\d+)\): (.*)$/.exec(line);
        const block = at === null ? undefined : sources.get(at[1] ?? '');
        return block === undefined || at === null ? line : `${block.file}:${block.line + Number(at[2]) - 1}: ${at[4] ?? ''}`;
      });
    expect(errors).toEqual([]);
    expect(result.status).toBe(0);
  });
});

describe('the installed package stands alone', () => {
  it('ships the examples, and they run from the installed package', () => {
    const example = join('node_modules', 'toolhooks', 'examples', 'quickstart.ts');
    const { status, stdout, stderr } = runTsx(example, packed.app);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^result: host ran: ls$/m);
    expect(stdout).toMatch(/^result: sandbox ran: curl https:\/\/example\.com$/m);
    expect(stdout).toMatch(/^aborted by policy: destructive command$/m);
    expect(stdout).toMatch(/^execute_tool shell {2}\d+\.\d ms {2}outcome=aborted/m);
  });

  it('source maps and declaration maps point only at files the package ships (or carry the source)', () => {
    const pkg = join(packed.app, 'node_modules', 'toolhooks');
    const maps: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.map')) maps.push(path);
      }
    };
    walk(join(pkg, 'dist'));
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const map of maps) {
      const parsed = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] };
      parsed.sources.forEach((source, index) => {
        if (typeof parsed.sourcesContent?.[index] === 'string') return;
        const target = join(dirname(map), parsed.sourceRoot ?? '', source);
        if (!existsSync(target)) missing.push(`${relative(pkg, map)} → ${source}`);
      });
    }
    expect(missing).toEqual([]);
  });

  it('ships a LICENSE matching package.json, and a CHANGELOG for its version', () => {
    const pkg = join(packed.app, 'node_modules', 'toolhooks');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { license: string; version: string };
    expect(manifest.license).toBe('MIT');
    expect(readFileSync(join(pkg, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} toolhooks contributors\n/);
    expect(readFileSync(join(pkg, 'CHANGELOG.md'), 'utf8')).toContain(`## ${manifest.version}`);
  });

  it('names where the project lives (repository, homepage, bugs), all one repository', () => {
    const manifest = JSON.parse(readFileSync(join(packed.app, 'node_modules', 'toolhooks', 'package.json'), 'utf8')) as {
      repository?: { type?: string; url?: string };
      homepage?: string;
      bugs?: { url?: string };
    };
    const repository = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(manifest.repository?.url ?? '')?.[1];
    expect(manifest.repository?.type).toBe('git');
    expect(repository).toBeDefined();
    expect(manifest.homepage).toBe(`${repository ?? ''}#readme`);
    expect(manifest.bugs?.url).toBe(`${repository ?? ''}/issues`);
  });

  it('runs the demo from the installed package (examples import toolhooks by name)', () => {
    const { status, stdout, stderr } = runTsx(join('node_modules', 'toolhooks', 'examples', 'demo.ts'), packed.app);
    expect(status, stderr).toBe(0);
    expect(stdout).toMatch(/tool calls\s+22/);
    expect(stdout.match(/^execute_tool /gm)).toHaveLength(22);
  });

  it('the toolhooks bin prints its version, and says how to load a TypeScript policy', () => {
    const bin = join(packed.app, 'node_modules', '.bin', 'toolhooks');
    const manifest = JSON.parse(readFileSync(join(packed.app, 'node_modules', 'toolhooks', 'package.json'), 'utf8')) as { version: string };
    const version = spawnSync(bin, ['--version'], { cwd: packed.app, encoding: 'utf8' });
    expect([version.status, version.stdout, version.stderr]).toEqual([0, `${manifest.version}\n`, '']);
    // An enum: no Node version runs it without a loader (type stripping refuses it, older Nodes refuse .ts).
    writeFileSync(join(packed.app, 'policy.ts'), "enum Level { Low }\nexport default [{ name: 'p', beforeTool: () => (Level.Low === 0 ? undefined : undefined) }];\n");
    const run = spawnSync(bin, ['replay', '--hooks', 'policy.ts', 'traces.jsonl'], { cwd: packed.app, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      "a TypeScript policy needs a loader: npm install --save-dev tsx, then NODE_OPTIONS='--import tsx' npx toolhooks replay --hooks policy.ts …",
    );
  });

  it("runs the README's first screen with exactly the install and run commands the README gives, in a non-interactive shell", () => {
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const match = /`npm install ([^`]+)`, save this as\s+`agent\.mts` and run `([^`]+)`/.exec(readme);
    expect(match).not.toBeNull();
    const packages = (match?.[1] ?? '').split(/\s+/).map((name) => (name === 'toolhooks' ? packed.tarball : name));
    const app = join(packed.work, 'first-hour');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'first-hour', private: true, version: '1.0.0' }));
    const install = spawnSync('npm', ['install', '--prefer-offline', '--no-package-lock', '--no-audit', '--no-fund', ...packages], {
      cwd: app,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(install.status, install.stderr).toBe(0);
    writeFileSync(join(app, 'agent.mts'), runnable.find((block) => block.marker?.kind === 'runnable' && block.marker.name === 'first-screen')?.code ?? '');
    const [command = '', ...args] = (match?.[2] ?? '').split(/\s+/);
    // CI=true and no terminal: npx refuses to install anything it would have to ask about.
    const run = spawnSync(command, args, { cwd: app, encoding: 'utf8', env: { ...snippetEnv(), CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    EXPECTED['first-screen']?.(run.stdout);
  }, 300_000);
});
