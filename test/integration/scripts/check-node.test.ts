/**
 * A clone on a Node.js older than 22.15: `npm install`, `npm run demo` and `npm test` stop within seconds,
 * each before anything is installed or run, naming the version found and the one needed.
 *
 * - `npm run demo` and `npm test` run scripts/check-node.cjs first (predemo, pretest): its one line also
 *   names the command that gets Node 22, and it is the only line besides npm's "> toolhooks@… pretest"
 *   banner, on every npm.
 * - `npm install` stops on `engine-strict` (.npmrc) after reading the lockfile, with npm's own EBADENGINE
 *   message. No line of ours can come first: npm runs a root `preinstall` only after every dependency is
 *   installed, and devEngines (npm 10.9 and newer) would stop `npm run` and `npm test` with npm's message
 *   before our line too, so package.json has none.
 *
 * Run for real on each older Node with the npm it ships with (scripts/older-nodes.sh: 18.20 and 20.20 with
 * npm 10.8.2, 21.7 with npm 10.5.0, 22.14 with npm 10.9.2; cached, installed by .ci/run), and on the
 * machine's own older Node with its own npm (`OLD_NODE`, else /usr/bin/node, when older than 22.15).
 * A pair not installed yet fails the test in CI and is skipped elsewhere, saying how to install it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isCi } from '../../support/programs.js';
import { useTempDir } from '../../support/temp-dir.js';

const root = resolve(import.meta.dirname, '../../..');
const script = join(root, 'scripts/check-node.cjs');
const { check, needed, INSTALL } = createRequire(import.meta.url)(script) as {
  check(found: string, need: readonly number[]): string | undefined;
  needed(root: string): readonly number[];
  INSTALL: string;
};

/** An older Node to try a clone on, and the npm to run with it. */
interface OlderNode {
  /** "18.20.8", without the v. */
  readonly version: string;
  /** The folder holding its `node`. */
  readonly bin: string;
  readonly npmVersion: string;
  /** The folder holding the `npm` to run with it. */
  readonly npmDir: string;
}

/** scripts/older-nodes.sh's pairs as far as they are installed; `missing` ones have no folders yet. */
function cachedOlderNodes(): { ready: OlderNode[]; missing: string[] } {
  const listing = execFileSync('bash', [join(root, 'scripts/older-nodes.sh'), '--cached'], { encoding: 'utf8' });
  const ready: OlderNode[] = [];
  const missing: string[] = [];
  for (const line of listing.trim().split('\n')) {
    const [version = '', bin = '-', npmVersion = '', npmDir = '-'] = line.split('\t');
    if (bin === '-' || npmDir === '-') missing.push(`Node ${version} with npm ${npmVersion}`);
    else ready.push({ version, bin, npmVersion, npmDir });
  }
  return { ready, missing };
}

/** The machine's own Node when it is older than 22.15 (`OLD_NODE`, else /usr/bin/node), with the npm beside it. */
function machineOlderNode(): OlderNode | undefined {
  const candidate = process.env['OLD_NODE'] ?? '/usr/bin/node';
  const npm = join(dirname(candidate), 'npm');
  if (!existsSync(candidate) || !existsSync(npm)) return undefined;
  const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim();
  if (check(version, needed(root)) === undefined) return undefined;
  const npmVersion = execFileSync(npm, ['--version'], { encoding: 'utf8', env: cleanEnv(dirname(candidate)) }).trim();
  return { version: version.slice(1), bin: dirname(candidate), npmVersion, npmDir: dirname(candidate) };
}

/**
 * The environment of a newcomer's shell with `older` first on PATH: none of the npm_* variables of the npm
 * that runs these tests (its prefix would redirect the npm under test to this repository), no coverage.
 */
function cleanEnv(...path: string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) || key === 'NODE_OPTIONS' || key === 'NODE_V8_COVERAGE' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return { ...env, PATH: [...path, '/usr/bin', '/bin'].join(':'), npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

/** Runs `npm args` in `cwd`; resolves with the exit status, everything printed, and how long it took. */
function runNpm(older: OlderNode, cwd: string, args: readonly string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; output: string; seconds: number }> {
  const started = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const child = spawn(join(older.npmDir, 'npm'), args, { cwd, env: { ...cleanEnv(older.bin, older.npmDir), ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (status) => done({ status, output, seconds: Number(process.hrtime.bigint() - started) / 1e9 }));
  });
}

/** A fresh clone as far as npm's checks go: package.json, the lockfile, .npmrc and the script, nothing installed. */
function clone(parent: string): string {
  const dir = mkdtempSync(join(parent, 'clone-'));
  mkdirSync(join(dir, 'scripts'));
  for (const file of ['package.json', 'package-lock.json', '.npmrc', 'scripts/check-node.cjs']) copyFileSync(join(root, file), join(dir, file));
  return dir;
}

/** The lines a person reads: without npm's "> toolhooks@0.1.0 pretest" / "> node scripts/check-node.cjs" banner and blank lines. */
function messageLines(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('> '));
}

const cached = cachedOlderNodes();
const machine = machineOlderNode();
const dir = useTempDir('check-node');

describe('the Node.js version check', () => {
  it('reads the version needed from package.json engines', () => {
    expect(needed(root)).toEqual([22, 15, 0]);
  });

  it.each(['v18.20.4', 'v20.19.0', 'v21.7.3', 'v22.14.0'])('turns %s away in one line naming both versions and the fix', (found) => {
    const line = check(found, [22, 15, 0]);
    expect(line).toContain('needs Node.js 22.15 or newer');
    expect(line).toContain(`this is Node.js ${found.slice(1)}`);
    expect(line).toContain(INSTALL);
    expect(line).not.toContain('\n');
  });

  it.each(['v22.15.0', 'v22.23.5', 'v24.0.0', 'v26.1.0'])('lets %s through', (found) => {
    expect(check(found, [22, 15, 0])).toBeUndefined();
  });

  it('has every older Node of scripts/older-nodes.sh installed (CI installs them; elsewhere: skipped)', (ctx) => {
    if (cached.missing.length === 0) return;
    const note = `${cached.missing.join(', ')} not installed: run \`bash scripts/older-nodes.sh\` (from the npm registry into ~/.cache/toolhooks, about 10 s each, once)`;
    if (isCi()) throw new Error(`${note}. CI must provide them: .ci/run runs it first.`);
    console.warn(`[skipped] ${note}`);
    ctx.skip(note);
  });

  const olderNodes = [...cached.ready, ...(machine === undefined ? [] : [machine])];
  it.each(olderNodes.map((older) => [`${older.version} with npm ${older.npmVersion}`, older] as const))(
    'stops npm install, npm run demo and npm test in a clone on Node %s, before installing or running anything',
    async (_label, older) => {
      const cwd = clone(dir);
      const node = join(older.bin, 'node');
      const ours = `toolhooks needs Node.js 22.15 or newer; this is Node.js ${older.version} (${node}). Get it with: ${INSTALL}`;
      for (const args of [['run', 'demo'], ['test']]) {
        const result = await runNpm(older, cwd, args);
        expect(result.status, result.output).toBe(1);
        expect(messageLines(result.output), `npm ${args.join(' ')} (${result.seconds.toFixed(1)} s)`).toEqual([ours]);
      }
      // Offline: the check must come before any download (nothing is downloaded, so nothing can fail on it).
      const install = await runNpm(older, cwd, ['install'], { npm_config_offline: 'true' });
      const said = `npm install (${install.seconds.toFixed(1)} s):\n${install.output}`;
      expect(install.status, said).not.toBe(0);
      expect(install.output, said).toMatch(/npm (error|ERR!) code EBADENGINE/);
      expect(install.output, said).toContain('Required: {"node":">=22.15.0"}');
      expect(install.output, said).toContain(`"node":"v${older.version}"`);
      expect(install.output, said).not.toMatch(/^\s+at /m);
      expect(existsSync(join(cwd, 'node_modules')), said).toBe(false);
    },
    180_000,
  );

  it.skipIf(machine === undefined)('lets the fix it names run in a clone on the older Node: scripts/install-node.sh answers with Node 22', () => {
    // The README's first command, in the clone, before Node 22 is on PATH.
    const result = execFileSync('bash', [join(root, 'scripts/install-node.sh'), '22'], { cwd: root, env: cleanEnv(machine!.bin), encoding: 'utf8', timeout: 300_000 });
    expect(execFileSync(join(result.trim(), 'node'), ['--version'], { encoding: 'utf8' })).toMatch(/^v22\./);
  });
});
