/**
 * Receipts with real processes: a process SIGKILLed mid-run with `fsync: 'always'` leaves a file that
 * verifies (at most a torn tail) and holds every record it acknowledged; 200 concurrent calls keep one
 * contiguous chain; two processes write two streams into two files that both verify; a sink that cannot
 * write is reported once and fails no call, unless the hook fails closed; and `toolhooks verify` (the bin)
 * exits 0, 1 and 2.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyReceipts } from '../../../src/receipts/index.js';
import { pollUntil } from '../../support/poll.js';
import { useTempDir } from '../../support/temp-dir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const APP = fileURLToPath(new URL('./fixtures/receipt-app.ts', import.meta.url));
const CLI = fileURLToPath(new URL('../../../src/cli/bin.ts', import.meta.url));
const dir = useTempDir('receipts-durability');

interface Child {
  stdout: string;
  stderr: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

const children: Child[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

function start(script: string, args: readonly string[], env: Record<string, string>): Child {
  const process_ = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const child: Child = {
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => process_.once('close', (code, signal) => resolve({ code, signal }))),
    kill: (signal) => {
      if (process_.exitCode === null && process_.signalCode === null) process_.kill(signal);
    },
  };
  process_.stdout.on('data', (chunk: Buffer) => (child.stdout += chunk.toString('utf8')));
  process_.stderr.on('data', (chunk: Buffer) => (child.stderr += chunk.toString('utf8')));
  children.push(child);
  return child;
}

function app(env: Record<string, string>): Child {
  return start(APP, [], env);
}

function lastAcked(child: Child): number {
  const acks = [...child.stdout.matchAll(/acked (\d+)/g)];
  return acks.length === 0 ? 0 : Number(acks.at(-1)?.[1]);
}

describe('receipts durability (real processes)', () => {
  it.each(['always', 'never'] as const)("fsync '%s': a process SIGKILLed mid-run leaves a file that verifies, holding every acknowledged record", async (fsync) => {
    const file = join(dir, `killed-${fsync}.jsonl`);
    const child = app({ RECEIPTS_FILE: file, RECEIPTS_FSYNC: fsync, RECEIPTS_CALLS: '0', RECEIPTS_CONCURRENCY: '20', RECEIPTS_STREAM: `killed-${fsync}` });
    await pollUntil('the app to acknowledge 400 records', () => Promise.resolve(lastAcked(child) >= 400), { label: 'app output', output: () => child.stdout + child.stderr });
    child.kill('SIGKILL');
    const { signal } = await child.exited;
    expect(signal).toBe('SIGKILL');
    const acked = lastAcked(child);
    const result = await verifyReceipts(file);
    expect(result.problems.filter((problem) => problem.kind !== 'torn_tail')).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.records).toBeGreaterThanOrEqual(acked);
  }, 60_000);

  it('keeps one contiguous chain across 200 concurrent calls in one process', async () => {
    const file = join(dir, 'concurrent.jsonl');
    const child = app({ RECEIPTS_FILE: file, RECEIPTS_CALLS: '200', RECEIPTS_CONCURRENCY: '200', RECEIPTS_STREAM: 'concurrent' });
    expect((await child.exited).code).toBe(0);
    expect(child.stdout).toMatch(/done \d+ 0/);
    const result = await verifyReceipts(file);
    expect(result).toMatchObject({ ok: true, records: 400, streams: 1, problems: [] });
    const seqs = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { seq: number; type?: string }).filter((line) => line.type === undefined).map((line) => line.seq);
    expect(seqs).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
  }, 60_000);

  it('two processes write two streams into two files that both verify', async () => {
    const files = [join(dir, 'one.jsonl'), join(dir, 'two.jsonl')];
    const children_ = files.map((file, i) => app({ RECEIPTS_FILE: file, RECEIPTS_CALLS: '100', RECEIPTS_CONCURRENCY: '25', RECEIPTS_STREAM: `process-${i}` }));
    for (const child of children_) expect((await child.exited).code).toBe(0);
    for (const file of files) expect(await verifyReceipts(file)).toMatchObject({ ok: true, records: 200, streams: 1, problems: [] });
  }, 60_000);

  it('a sink that cannot write is reported once and fails no call', async () => {
    const taken = join(dir, 'taken-open');
    mkdirSync(taken);
    const child = app({ RECEIPTS_FILE: taken, RECEIPTS_CALLS: '50', RECEIPTS_CONCURRENCY: '10' });
    expect((await child.exited).code).toBe(0);
    // 50 calls, every seventh aborted by the policy, none refused by the receipts.
    expect(child.stdout).toMatch(/done 43 0/);
    expect(child.stdout).not.toMatch(/acked/);
    const warnings = child.stderr.split('\n').filter((line) => line.includes('could not write a receipt'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/TOOLHOOKS_RECEIPTS_UNWRITTEN.*EISDIR.*tool calls go on/);
  }, 60_000);

  it('failing closed, calls stop while the sink cannot write', async () => {
    const taken = join(dir, 'taken-closed');
    mkdirSync(taken);
    const child = app({ RECEIPTS_FILE: taken, RECEIPTS_CALLS: '50', RECEIPTS_CONCURRENCY: '10', RECEIPTS_FAILURE_MODE: 'closed' });
    expect((await child.exited).code).toBe(0);
    // The first batch of 10 runs before any write has failed; after it every call the policy lets through
    // (34 of the other 40: it aborts every seventh) is refused.
    const [, completed, refused] = /done (\d+) (\d+)/.exec(child.stdout) ?? [];
    expect(Number(completed)).toBeLessThanOrEqual(10);
    expect(Number(refused)).toBe(34);
    expect(child.stderr).toMatch(/tool calls are refused until the receipt sink can write again/);
  }, 60_000);

  it('toolhooks verify (the bin) exits 0 intact, 1 tampered, 2 bad input', async () => {
    const file = join(dir, 'concurrent.jsonl');
    const intact = start(CLI, ['verify', file], {});
    expect((await intact.exited).code).toBe(0);
    expect(intact.stdout).toMatch(/intact: 400 record\(s\) in 1 stream\(s\)/);

    const lines = readFileSync(file, 'utf8').split('\n');
    lines[10] = (lines[10] as string).replace('"tool":"work"', '"tool":"play"');
    const tampered = join(dir, 'tampered.jsonl');
    writeFileSync(tampered, lines.join('\n'));
    const bad = start(CLI, ['verify', '--json', tampered], {});
    expect((await bad.exited).code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, problems: [{ kind: 'edited', stream: 'concurrent', seq: 11 }] });

    const missing = start(CLI, ['verify', join(dir, 'nope.jsonl')], {});
    expect((await missing.exited).code).toBe(2);
    expect(missing.stderr).toMatch(/toolhooks: verify: .*nope\.jsonl/);
  }, 60_000);
});
