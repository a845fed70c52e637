/**
 * Runs an example as a user would (`npx tsx examples/<name>.ts`), from the project root.
 */
import { execFile, execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

const root = resolve(import.meta.dirname, '../..');
const tsx = resolve(root, 'node_modules/.bin/tsx');
const execFileAsync = promisify(execFile);

/** Runs an example to completion and returns its stdout. No OTLP endpoint unless `env` sets one. */
export function runExample(name: string, env: Record<string, string> = {}): string {
  return execFileSync(tsx, [`examples/${name}.ts`], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
  });
}

/** Runs an example without blocking this process (so a receiver in this process can answer it). */
export async function runExampleAsync(name: string, env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  return execFileAsync(tsx, [`examples/${name}.ts`], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
}
