/**
 * `toolhooks verify`, run in-process through the CLI's runCli: exit 0 intact, 1 tampered, 2 bad input; a
 * torn tail is one warning line. (The installed bin as a child process: test/integration/receipts/durability.test.ts.)
 */
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { receiptHook } from '../../../src/receipts/index.js';
import { runCli } from '../../../src/cli/commands.js';
import { useTempDir } from '../../support/temp-dir.js';
import { memorySink } from '../../support/memory-sink.js';

const dir = useTempDir('verify-command');
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
let lines: string[] = [];

beforeAll(async () => {
  const sink = memorySink();
  const receipts = receiptHook({ sink, stream: 's', signingKey: privateKey, headEvery: 2 });
  const runner = new HookRunner([receipts, { name: 'p', beforeTool: () => undefined }]);
  for (let i = 0; i < 3; i += 1) await executeTool({ hooks: runner, toolName: 't', args: { i }, execute: () => i });
  await receipts.close();
  lines = [...sink.lines];
  writeFileSync(join(dir, 'good.jsonl'), `${lines.join('\n')}\n`);
  const edited = lines.map((line, i) => (i === 1 ? line.replace('"outcome":"completed"', '"outcome":"failed"') : line));
  writeFileSync(join(dir, 'edited.jsonl'), `${edited.join('\n')}\n`);
  writeFileSync(join(dir, 'torn.jsonl'), `${lines.join('\n')}\n${lines[0]?.slice(0, 50) ?? ''}`);
  writeFileSync(join(dir, 'empty.jsonl'), '');
  writeFileSync(join(dir, 'key.pub.pem'), publicKey.export({ format: 'pem', type: 'spki' }));
  writeFileSync(join(dir, 'other.pub.pem'), generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
  writeFileSync(join(dir, 'rsa.pem'), generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }));
});

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['verify', ...argv], { cwd: dir, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

describe('toolhooks verify', () => {
  it('exits 0 for an intact file, with the signatures checked when given the public key', async () => {
    const plain = await run('good.jsonl');
    expect(plain).toMatchObject({ code: 0, stderr: '' });
    expect(plain.stdout).toBe('good.jsonl: intact: 6 record(s) in 1 stream(s), 3 head(s), signatures not checked (no --public-key)\n');
    const keyed = await run('--public-key', 'key.pub.pem', 'good.jsonl');
    expect(keyed.stdout).toMatch(/intact: 6 record\(s\) in 1 stream\(s\), 3 head\(s\), 3 signature\(s\) checked/);
    expect(keyed.code).toBe(0);
  });

  it('exits 1 for a tampered file, one line per problem with its stream, seq and line', async () => {
    const edited = await run('edited.jsonl');
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(/^edited\.jsonl: TAMPERED: 1 problem\(s\); 6 record\(s\)/);
    expect(edited.stdout).toMatch(/\n {2}edited stream s seq 2 \(line 2\): record 2 does not match its hash/);
    const wrongKey = await run('--public-key', 'other.pub.pem', 'good.jsonl');
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stdout).toMatch(/bad_signature stream s seq 2/);
  });

  it('prints the result as one JSON object with --json', async () => {
    const { code, stdout } = await run('--json', 'edited.jsonl');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, records: 6, streams: 1, heads: 3, problems: [{ kind: 'edited', stream: 's', seq: 2, line: 2 }] });
  });

  it('exits 0 for a torn last line, with one warning line', async () => {
    const torn = await run('torn.jsonl');
    expect(torn.code).toBe(0);
    expect(torn.stderr).toMatch(/^toolhooks: warning: verify: torn\.jsonl: line 10 is not JSON.*cut short.*not tampering/);
    expect(torn.stderr.trim().split('\n')).toHaveLength(1);
    expect(torn.stdout).toMatch(/intact/);
  });

  it.each([
    [['missing.jsonl'], /toolhooks: verify: verifyReceipts: cannot read .*missing\.jsonl: ENOENT/],
    [['empty.jsonl'], /toolhooks: verify: no receipt in empty\.jsonl: the file holds no receipt \(it is empty\)/],
    [['--public-key', 'nope.pem', 'good.jsonl'], /cannot read the publicKey file ".*nope\.pem"/],
    [['--public-key', 'rsa.pem', 'good.jsonl'], /the publicKey file ".*rsa\.pem" is a rsa key; receipts need Ed25519/],
    [['--public-key', '', 'good.jsonl'], /--public-key needs the path of a PEM file/],
    [[], /verify: expected one FILE, got 0/],
    [['a', 'b'], /verify: expected one FILE, got 2/],
    [['--sign', 'good.jsonl'], /verify: Unknown option '--sign'/],
  ])('exits 2 for bad input: %o', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toBe('');
  });

  it('prints its usage with --help, and the top-level help names it', async () => {
    expect(await run('--help')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: toolhooks verify \[--public-key PEM\] \[--json\] FILE/) as unknown });
    let stdout = '';
    await runCli(['--help'], { cwd: dir, stdout: (text) => (stdout += text), stderr: () => undefined });
    expect(stdout).toMatch(/Usage: toolhooks verify/);
  });
});
