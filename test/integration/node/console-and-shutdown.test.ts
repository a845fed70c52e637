/**
 * startTelemetry() as a user's preload sets it up (`node --import ./telemetry.mjs app.mjs`): the handle is
 * there synchronously, console output survives `await telemetry.shutdown(); process.exit(0)` even past a
 * pipe's buffer, hostile names reach the terminal escaped, and with no collector shutdown says on one
 * line what it dropped and why.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../support/ports.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PRELOAD = fileURLToPath(new URL('./fixtures/preload.ts', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/app.ts', import.meta.url));
/** Enough calls that the printed trees overflow a 64 KiB pipe buffer. */
const CALLS = 600;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const running = new Set<ReturnType<typeof spawn>>();

afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

function runApp(env: Record<string, string>): Promise<Run> {
  const base: NodeJS.ProcessEnv = {};
  // The machine's own OTEL_* settings must not leak into the app.
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OTEL_')) base[name] = value;
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', PRELOAD, APP], {
    cwd: ROOT,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve) => {
    child.once('close', (code) => {
      running.delete(child);
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') });
    });
  });
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

describe.each([
  ['tree', /^execute_tool search\b/gm],
  ['true', /name: 'execute_tool search'/g],
])('startTelemetry({ console: %s }) preloaded with node --import', (mode, rootLine) => {
  it('prints every call before process.exit(0) and shows hostile names escaped', async () => {
    const run = await runApp({ PRELOAD_CONSOLE: mode, APP_CALLS: String(CALLS) });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(64 * 1024);
    expect(count(run.stdout, rootLine)).toBe(CALLS);
    // The hostile tool and reason are printed, visibly escaped, and no ESC or BEL reaches the terminal.
    expect(run.stdout).toContain('evil');
    expect(run.stdout.includes('\u001b') || run.stdout.includes('\u0007')).toBe(false);
    // console: true prints through console.dir, which shows the escape's own backslash doubled.
    expect(run.stdout).toMatch(mode === 'tree' ? /evil\\u001b\]0;pwned\\u0007\\u001b\[1A/ : /evil\\\\u001b\]0;pwned\\\\u0007\\\\u001b\[1A/);
    if (mode === 'tree') {
      expect(run.stdout).toContain('"wipe \\u001b[2J screen"');
      // Every span is printed inside its own trace's tree: none arrives after its root as a stray tree.
      expect(run.stdout).not.toMatch(/^toolhooks\./m);
    }
  });
});

describe('startTelemetry() preloaded, with no collector listening', () => {
  it('shuts down, saying once on stderr what it dropped and why, without a diag logger', async () => {
    const port = await freePort(); // nothing listens there
    const endpoint = `http://127.0.0.1:${port}`;
    const run = await runApp({ PRELOAD_CONSOLE: 'off', APP_CALLS: '3', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    expect(run.code, run.stderr).toBe(0);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('TOOLHOOKS_TELEMETRY_DROPPED'));
    expect(warnings, run.stderr).toHaveLength(1);
    expect(warnings[0]).toMatch(/telemetry dropped at shutdown: \d+ spans \(connection refused/);
    expect(warnings[0]).toContain(`at ${endpoint}/v1/traces`);
    // The docs show the line as it prints: same code, same warning type.
    const documented = readFileSync(resolve(import.meta.dirname, '../../../docs/telemetry.md'), 'utf8')
      .split('\n')
      .find((line) => line.includes('[TOOLHOOKS_TELEMETRY_DROPPED]'));
    const shape = (line: string | undefined): string => /^\(node:\d+\) (\[\w+\] \w+: toolhooks: telemetry dropped at shutdown:)/.exec(line ?? '')?.[1] ?? `unmatched: ${line}`;
    expect(shape(documented)).toBe(shape(warnings[0]));
  });
});
