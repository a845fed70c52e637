/**
 * The real OPA CLI for the policy tests: compiling Rego to wasm at test time (`opa build -t wasm`, so no
 * compiled fixture is ever committed) and running a server (`opa run --server`) on a free 127.0.0.1 port,
 * stopped by the test.
 *
 * The binary is built by `bash scripts/ci-install-tools.sh opa` into
 * `${XDG_CACHE_HOME:-~/.cache}/toolhooks/opa-v1.22.4/opa`, or given as `OPA_BIN`. Missing: the test fails
 * in CI and is skipped elsewhere, with a note saying how to build it ({@link requireOpa}).
 *
 * @example
 * ```ts
 * it('denies rm -rf', async (ctx) => {
 *   const opa = requireOpa(ctx);
 *   const bundle = await buildWasm(opa, dir, { 'policy.rego': REGO }, ['toolhooks/decision']);
 *   const engine = await opaWasm({ policy: bundle });
 * });
 * ```
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtProgram, requireBuiltProgram, runProgram, type SkippableContext } from './programs.js';
import { pollUntil } from './poll.js';
import { freePort } from './ports.js';

/** The OPA release the project builds and tests against (scripts/ci-install-tools.sh). */
export const OPA_VERSION = 'v1.22.4';

/** Where the OPA binary is: `OPA_BIN`, else the cache scripts/ci-install-tools.sh builds into. */
export function opaBinary(env: NodeJS.ProcessEnv = process.env): string {
  return builtProgram('OPA_BIN', `opa-${OPA_VERSION}`, 'opa', env);
}

/** The OPA binary for a test that needs it: fails in CI when missing, else skips with how to build it. */
export function requireOpa(ctx: SkippableContext, env: NodeJS.ProcessEnv = process.env): string {
  const binary = opaBinary(env);
  return requireBuiltProgram(
    ctx,
    binary,
    `OPA not found at ${binary}. Build it with \`bash scripts/ci-install-tools.sh opa\` (needs Go; builds OPA ${OPA_VERSION}` +
      ' from the Go module proxy once, a few minutes on 2 cores) or point OPA_BIN at an opa binary.',
    env,
  );
}

/**
 * Writes `files` (name → Rego) into a fresh folder of `dir` and compiles them with
 * `opa build -t wasm -e <entrypoint>…`; returns the bundle's path (`bundle.tar.gz`).
 */
export async function buildWasm(opa: string, dir: string, files: Readonly<Record<string, string>>, entrypoints: readonly string[]): Promise<string> {
  const folder = join(dir, `build-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(folder, 'src'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, 'src', name), text);
  const bundle = join(folder, 'bundle.tar.gz');
  const args = ['build', '-t', 'wasm', ...entrypoints.flatMap((entrypoint) => ['-e', entrypoint]), '-o', bundle, join(folder, 'src')];
  const result = await runProgram(opa, args, { cwd: folder });
  if (result.code !== 0) throw new Error(`opa build failed:\n${result.output}`);
  return bundle;
}

/** A running `opa run --server`. */
export interface OpaServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts `opa run --server` on a free loopback port with the Rego files given; ready when /health answers. */
export async function startOpaServer(opa: string, dir: string, files: Readonly<Record<string, string>>): Promise<OpaServer> {
  const folder = join(dir, `server-${Math.random().toString(36).slice(2)}`);
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const port = await freePort();
  const child = spawn(opa, ['run', '--server', '--addr', `127.0.0.1:${port}`, '--log-level', 'error', folder], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await pollUntil('OPA to answer /health', async () => (await fetch(`${url}/health`)).ok, { label: 'opa log', output: () => log, timeoutMs: 20_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
