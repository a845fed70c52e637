/**
 * The real programs some tests run (promtool, prometheus, docker-compose): finding them on PATH,
 * deciding what a test does when one is missing, and running them.
 *
 * Missing program: in CI (`CI` set) the test fails, because CI installs them (scripts/ci-install-tools.sh)
 * and a silent skip there would hide a broken pipeline. Anywhere else the test is skipped with a note
 * that says how to install the program.
 *
 * @example
 * ```ts
 * it('accepts the rules', async (ctx) => {
 *   const { promtool } = requirePrograms(ctx, ['promtool']);
 *   const result = await runProgram(promtool, ['check', 'rules', 'deploy/prometheus/alerts.yml']);
 *   expect(result.code, result.output).toBe(0);
 * });
 * ```
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve as resolvePath } from 'node:path';

/** A program the tests know how to install. */
export type KnownProgram = 'promtool' | 'prometheus' | 'docker-compose' | 'tmux' | 'redis-server';

/** The Debian/Ubuntu package that provides each program. */
const DEBIAN_PACKAGE: Readonly<Record<KnownProgram, string>> = {
  promtool: 'prometheus',
  prometheus: 'prometheus',
  'docker-compose': 'docker-compose',
  tmux: 'tmux',
  'redis-server': 'redis-server',
};

/**
 * Full path of the executable `name` on the search path, or undefined.
 *
 * @example
 * ```ts
 * findProgram('promtool'); // '/usr/bin/promtool' when installed
 * ```
 */
export function findProgram(name: string, searchPath: string = process.env['PATH'] ?? ''): string | undefined {
  for (const dir of searchPath.split(delimiter)) {
    // An empty PATH entry means the current directory to a shell; a test must not pick up a stray file.
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there or not executable: keep looking
    }
  }
  return undefined;
}

/**
 * The note shown when programs are missing: which ones, and the command that installs them.
 *
 * @example
 * ```ts
 * missingProgramsNote(['promtool']);
 * // 'promtool not found on PATH. Install with `sudo apt-get install prometheus` (...'
 * ```
 */
export function missingProgramsNote(missing: readonly KnownProgram[]): string {
  const packages = [...new Set(missing.map((name) => DEBIAN_PACKAGE[name]))].join(' ');
  return (
    `${missing.join(', ')} not found on PATH. Install with \`sudo apt-get install ${packages}\`` +
    ` (Debian/Ubuntu; the deployment tests use \`apt-get install prometheus docker-compose\`)` +
    ` or run scripts/ci-install-tools.sh as root.`
  );
}

/** True when the environment says this is a CI run (`CI` set to anything but '', '0' or 'false'). */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** The part of vitest's test context this module needs. */
export interface SkippableContext {
  skip(note?: string): never;
}

/**
 * Paths of the programs a test needs. When one is missing: throws in CI (the test fails with the
 * note), otherwise warns and skips the test with the note.
 *
 * @example
 * ```ts
 * it('runs promtool', (ctx) => {
 *   const { promtool } = requirePrograms(ctx, ['promtool']);
 * });
 * ```
 */
export function requirePrograms<const Name extends KnownProgram>(
  ctx: SkippableContext,
  names: readonly Name[],
  env: NodeJS.ProcessEnv = process.env,
): Record<Name, string> {
  const found: Partial<Record<Name, string>> = {};
  const missing: Name[] = [];
  for (const name of names) {
    const path = findProgram(name, env['PATH'] ?? '');
    if (path === undefined) missing.push(name);
    else found[name] = path;
  }
  if (missing.length === 0) return found as Record<Name, string>;
  const note = missingProgramsNote(missing);
  if (isCi(env)) {
    throw new Error(`${note} CI must provide them: .ci/run runs scripts/ci-install-tools.sh first.`);
  }
  // The skip note is easy to miss in a summary; the warning puts it in the test's output too.
  console.warn(`[skipped] ${note}`);
  return ctx.skip(note);
}

/** How a program run ended and what it printed. */
export interface ProgramResult {
  /** Exit code, or null when killed by a signal (see `signal`). */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Command line, exit status and both streams: the message to show when an assertion fails. */
  readonly output: string;
}

/** Options of {@link runProgram}. */
export interface RunProgramOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Kill the program after this long; default 30 s. */
  readonly timeoutMs?: number;
}

/**
 * Runs a program to completion without a shell and collects its output; never rejects for a
 * non-zero exit (the caller asserts on `code` and shows `output`).
 *
 * @example
 * ```ts
 * const result = await runProgram('/usr/bin/promtool', ['check', 'rules', 'alerts.yml']);
 * expect(result.code, result.output).toBe(0);
 * ```
 */
export function runProgram(
  path: string,
  args: readonly string[],
  options: RunProgramOptions = {},
): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 30_000,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const status = code === null ? `killed by ${signal ?? 'a signal'}` : `exit code ${code}`;
      const output = [`$ ${[path, ...args].join(' ')}  (${status})`, stdout.trimEnd(), stderr.trimEnd()]
        .filter((part) => part !== '')
        .join('\n');
      resolve({ code, signal, stdout, stderr, output });
    });
  });
}

/**
 * Where a program the project builds from source lives: `env[variable]` when set, else
 * `${XDG_CACHE_HOME:-~/.cache}/toolhooks/<dir>/<file>` (the cache scripts/ci-install-tools.sh builds into).
 *
 * @example
 * ```ts
 * builtProgram('JAEGER_BIN', 'jaeger-v1.76.0', 'jaeger'); // '/root/.cache/toolhooks/jaeger-v1.76.0/jaeger'
 * ```
 */
export function builtProgram(variable: string, dir: string, file: string, env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[variable];
  if (explicit !== undefined && explicit !== '') return resolvePath(explicit);
  const xdg = env['XDG_CACHE_HOME'];
  const cache = xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache');
  return join(cache, 'toolhooks', dir, file);
}

/**
 * `binary` when it is executable. Otherwise: throws in CI (CI builds it; `note` says how), else warns and
 * skips the test with `note`.
 *
 * @example
 * ```ts
 * const jaeger = requireBuiltProgram(ctx, builtProgram('JAEGER_BIN', 'jaeger-v1.76.0', 'jaeger'), 'Jaeger not found …');
 * ```
 */
export function requireBuiltProgram(ctx: SkippableContext, binary: string, note: string, env: NodeJS.ProcessEnv = process.env): string {
  try {
    accessSync(binary, constants.X_OK);
    return binary;
  } catch {
    if (isCi(env)) throw new Error(`${note} CI must provide it: .ci/run runs scripts/ci-install-tools.sh first.`);
    console.warn(`[skipped] ${note}`);
    return ctx.skip(note);
  }
}
