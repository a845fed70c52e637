/**
 * The `toolhooks replay` command, run in-process: its arguments, its exit codes, and that every failure is
 * one line on stderr. (The installed bin as a child process: test/integration/replay/replay.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/commands.js';
import { VERSION } from '../../../src/version.js';
import { otlpTraffic } from '../../support/otlp-traffic.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('replay-command');
writeFileSync(
  join(dir, 'deny-shell.mjs'),
  `export default [{ name: 'deny-shell', beforeTool: (tool) => tool === 'shell' ? { kind: 'abort', reason: 'no shell' } : undefined }];\n`,
);
writeFileSync(join(dir, 'traffic.json'), otlpTraffic([{ tool: 'shell', args: { cmd: 'ls' }, callId: 'c1' }, { tool: 'search', args: { q: 'x' }, callId: 'c2' }]));
writeFileSync(join(dir, 'empty.json'), otlpTraffic([]));
// Recorded under an old policy that stopped shell and asked about mail: deny-shell keeps shell stopped
// (abort→abort) and lets mail through (ask→continue, loosened); search went from continue to nothing new.
writeFileSync(
  join(dir, 'stopped.json'),
  otlpTraffic([
    { tool: 'shell', args: { cmd: 'rm' }, callId: 'c1', before: { decision: 'abort', hook: 'deny-shell' } },
    { tool: 'send_email', args: { to: 'x' }, callId: 'c2', before: { decision: 'ask', hook: 'old-policy' } },
    { tool: 'search', args: { q: 'x' }, callId: 'c3' },
  ]),
);

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { cwd: dir, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('runCli', () => {
  it('prints the usage for --help and the version for --version, exiting 0', async () => {
    for (const argv of [['--help'], ['help'], ['replay', '--help']]) {
      const result = await run(...argv);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: toolhooks replay/);
    }
    expect(await run('--version')).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect((await run('replay', '-V')).stdout).toBe(`${VERSION}\n`);
  });

  it('exits 2 with one line naming the mistake for bad arguments', async () => {
    const cases: [string[], RegExp][] = [
      [[], /missing command; try: toolhooks replay --help/],
      [['replya'], /unknown command "replya"/],
      [['replay', '--hook', 'x.mjs', 'traffic.json'], /replay: .*--hook.*; try: toolhooks replay --help/],
      [['replay', 'traffic.json'], /replay: --hooks MODULE is required/],
      [['replay', '--hooks', 'deny-shell.mjs'], /expected one SOURCE \(file, http\(s\) URL or -\), got 0/],
      [['replay', '--hooks', 'deny-shell.mjs', '--max-bytes', '12X', 'traffic.json'], /--max-bytes takes a number of bytes.*got "12X"/],
      [['replay', '--hooks', 'missing.mjs', 'traffic.json'], /replay: hooks module missing\.mjs could not be loaded/],
      [['replay', '--hooks', 'deny-shell.mjs', 'nowhere.json'], /cannot read the file/],
    ];
    for (const [argv, message] of cases) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^toolhooks: /);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('prints the table and exits 0 without --fail-on-change, 1 with it, when a decision changed', async () => {
    const table = await run('replay', '--hooks', 'deny-shell.mjs', 'traffic.json');
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('shell');
    expect(table.stdout).toContain('deny-shell');
    expect((await run('replay', '--fail-on-change', '--hooks', 'deny-shell.mjs', 'traffic.json')).code).toBe(1);
  });

  it('--fail-on loosened exits 1 only when a call recorded as stopped would now run', async () => {
    // traffic.json: shell went continue→abort (tightened): a change, not a loosening.
    expect((await run('replay', '--fail-on', 'loosened', '--hooks', 'deny-shell.mjs', 'traffic.json')).code).toBe(0);
    expect((await run('replay', '--fail-on', 'change', '--hooks', 'deny-shell.mjs', 'traffic.json')).code).toBe(1);
    const loosened = await run('replay', '--fail-on', 'loosened', '--hooks', 'deny-shell.mjs', 'stopped.json');
    expect(loosened.code).toBe(1);
    expect(loosened.stdout).toContain('ask→continue  1');
    expect(loosened.stdout).toContain('1 loosened');
    const json = JSON.parse((await run('replay', '--json', '--hooks', 'deny-shell.mjs', 'stopped.json')).stdout) as { flips: unknown; loosened: number };
    expect(json).toMatchObject({ flips: { 'ask→continue': 1 }, loosened: 1 });
  });

  it('--fail-on takes change or loosened, once', async () => {
    const bad = await run('replay', '--fail-on', 'loose', '--hooks', 'deny-shell.mjs', 'traffic.json');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/--fail-on takes change or loosened, got "loose"/);
    const both = await run('replay', '--fail-on', 'loosened', '--fail-on-change', '--hooks', 'deny-shell.mjs', 'traffic.json');
    expect(both.stderr).toMatch(/--fail-on-change is --fail-on change; give one --fail-on/);
    expect((await run('replay', '--fail-on', 'change', '--fail-on-change', '--hooks', 'deny-shell.mjs', 'traffic.json')).code).toBe(1);
    const empty = await run('replay', '--fail-on', 'loosened', '--hooks', 'deny-shell.mjs', 'empty.json');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/--fail-on loosened needs traffic/);
  });

  it('--json prints the report as one JSON object', async () => {
    const result = await run('replay', '--json', '--hooks', 'deny-shell.mjs', 'traffic.json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { calls: number; replayed: number; changed: { tool: string; callId: string }[] };
    expect(report).toMatchObject({ calls: 2, replayed: 2 });
    expect(report.changed.map((change) => [change.tool, change.callId])).toEqual([['shell', 'c1']]);
  });

  it('--max-bytes bounds what is read, with K/M/G suffixes', async () => {
    const result = await run('replay', '--max-bytes', '64k', '--hooks', 'deny-shell.mjs', 'traffic.json');
    expect(result.code).toBe(0);
    const small = await run('replay', '--max-bytes', '10', '--hooks', 'deny-shell.mjs', 'traffic.json');
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/past maxSourceBytes \(10\)/);
  });

  it('does not let --fail-on-change pass when there was nothing to replay', async () => {
    const result = await run('replay', '--fail-on-change', '--hooks', 'deny-shell.mjs', 'empty.json');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/nothing to replay in empty\.json: no recorded tool calls/);
    expect((await run('replay', '--hooks', 'deny-shell.mjs', 'empty.json')).code).toBe(0);
  });
});
