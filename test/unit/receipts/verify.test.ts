import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { receiptHook, verifyReceipts } from '../../../src/receipts/index.js';
import { recordHash } from '../../../src/receipts/chain.js';
import { useTempDir } from '../../support/temp-dir.js';
import { receiptFileWriter, validReceiptLines } from '../../support/receipt-files.js';
import { memorySink } from '../../support/memory-sink.js';

const dir = useTempDir('verify');
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
/** The lines of a valid file: 12 records in stream `s` (heads after 4, 8 and 12), all signed. */
let valid: string[] = [];

beforeAll(async () => {
  valid = await validReceiptLines(privateKey);
});

const file = receiptFileWriter(dir);

/** The index in `valid` of the record with this seq. */
function at(seq: number): number {
  return valid.findIndex((line) => !line.includes('"type":"head"') && (JSON.parse(line) as { seq: number }).seq === seq);
}

function edit(seq: number, change: (record: Record<string, unknown>) => void, rehash = false): string[] {
  const lines = [...valid];
  const record = JSON.parse(lines[at(seq)] as string) as Record<string, unknown>;
  change(record);
  if (rehash) {
    const { hash: _hash, ...content } = record;
    record.hash = recordHash(record.prev as string, content);
  }
  lines[at(seq)] = JSON.stringify(record);
  return lines;
}

const kinds = (result: { problems: readonly { kind: string; stream: string; seq: number }[] }) => result.problems.map((p) => `${p.kind} ${p.stream}#${p.seq}`);

describe('verifyReceipts', () => {
  it('finds nothing wrong in an intact file, and checks every signature with the public key', async () => {
    expect(valid.filter((line) => line.includes('"type":"head"'))).toHaveLength(3);
    expect(await verifyReceipts(file(valid), { publicKey })).toEqual({ ok: true, records: 12, streams: 1, heads: 3, signaturesChecked: 3, problems: [] });
    expect(await verifyReceipts(file(valid))).toMatchObject({ ok: true, signaturesChecked: 0 });
  });

  it('names an edited record', async () => {
    const result = await verifyReceipts(file(edit(5, (r) => (r.reason = 'yes'))));
    expect(result.ok).toBe(false);
    expect(kinds(result)).toEqual(['edited s#5']);
    expect(result.problems[0]?.line).toBe(at(5) + 1);
  });

  it('names an edited record whose hash was recomputed: the next one no longer chains from it', async () => {
    const result = await verifyReceipts(file(edit(5, (r) => (r.tool = 'other'), true)));
    expect(kinds(result)).toEqual(['edited s#5']);
  });

  it('names an edited hash and an edited seq as edits', async () => {
    expect(kinds(await verifyReceipts(file(edit(5, (r) => (r.hash = 'f'.repeat(64))))))).toEqual(['edited s#5']);
    expect(kinds(await verifyReceipts(file(edit(5, (r) => (r.seq = 50)))))).toEqual(['edited s#5']);
    expect(kinds(await verifyReceipts(file(edit(1, (r) => (r.prev = '1'.repeat(64)), true))))).toEqual(['edited s#1']);
  });

  it('names the first missing seq', async () => {
    const lines = valid.filter((_, index) => index !== at(6) && index !== at(7));
    expect(kinds(await verifyReceipts(file(lines)))).toEqual(['missing s#6']);
    expect(kinds(await verifyReceipts(file(valid.filter((_, index) => index !== at(1)))))).toEqual(['missing s#1']);
  });

  it('names records removed after the last head that signs them', async () => {
    const lines = valid.filter((_, index) => index !== at(11) && index !== at(12));
    expect(kinds(await verifyReceipts(file(lines), { publicKey }))).toEqual(['missing s#11']);
  });

  it('names a reordered record', async () => {
    const lines = [...valid];
    [lines[at(3)], lines[at(4)]] = [lines[at(4)] as string, lines[at(3)] as string];
    expect(kinds(await verifyReceipts(file(lines)))).toEqual(['reordered s#3']);
  });

  it('names an inserted record: a repeated seq, or one that chains from a record that already has a successor', async () => {
    const copied = [...valid];
    copied.splice(at(7) + 1, 0, valid[at(3)] as string);
    expect(kinds(await verifyReceipts(file(copied)))).toEqual(['inserted s#3']);

    const forged = JSON.parse(valid[at(3)] as string) as Record<string, unknown>;
    forged.reason = 'forged';
    const { hash: _hash, ...content } = forged;
    forged.hash = recordHash(forged.prev as string, content);
    const fork = [...valid];
    fork.splice(at(3), 0, JSON.stringify(forged));
    const result = await verifyReceipts(file(fork));
    expect(result.ok).toBe(false);
    expect(kinds(result)).toEqual(['inserted s#3']);
    expect(result.problems[0]?.message).toMatch(/repeats a seq|already has a successor/);
  });

  it('names a bad signature: another key, an edited head, a forged signature', async () => {
    const other = generateKeyPairSync('ed25519').publicKey;
    const wrongKey = await verifyReceipts(file(valid), { publicKey: other });
    expect(kinds(wrongKey)).toEqual(['bad_signature s#4', 'bad_signature s#8', 'bad_signature s#12']);
    expect(wrongKey.problems[0]?.message).toMatch(/names key [0-9a-f]{16}, not the given key/);

    const heads = valid.map((line, index) => (line.includes('"type":"head"') ? index : -1)).filter((index) => index >= 0);
    const edited = [...valid];
    const head = JSON.parse(edited[heads[0] as number] as string) as Record<string, unknown>;
    head.hash = 'a'.repeat(64);
    edited[heads[0] as number] = JSON.stringify(head);
    expect(kinds(await verifyReceipts(file(edited), { publicKey }))).toEqual(['bad_signature s#4']);
    expect(kinds(await verifyReceipts(file(edited)))).toEqual(['bad_signature s#4']);

    const forgedSig = [...valid];
    const second = JSON.parse(forgedSig[heads[1] as number] as string) as Record<string, unknown>;
    second.sig = Buffer.alloc(64, 7).toString('base64url');
    forgedSig[heads[1] as number] = JSON.stringify(second);
    expect(kinds(await verifyReceipts(file(forgedSig), { publicKey }))).toEqual(['bad_signature s#8']);
  });

  it('reports a torn last line as torn_tail, not tampering', async () => {
    const last = valid.at(-1) as string;
    const torn = [...valid.slice(0, -1), last.slice(0, 60)];
    const result = await verifyReceipts(file(torn, ''));
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([{ stream: 's', seq: 12, kind: 'torn_tail', message: expect.stringMatching(/cut short/) as unknown, line: valid.length }]);
  });

  it('reports a cut record that ends its stream, followed by a new run\'s stream, as torn_tail; one that its stream goes on after as malformed', async () => {
    const cut = (valid[at(12)] as string).slice(0, 70);
    const sink = memorySink();
    const next = receiptHook({ sink, stream: 'next run' });
    await executeTool({ hooks: new HookRunner([next]), toolName: 't', args: {}, execute: () => 1 });
    const restarted = [...valid.slice(0, at(12)), cut, ...sink.lines];
    const result = await verifyReceipts(file(restarted));
    expect(result.ok).toBe(true);
    expect(result.problems).toEqual([{ stream: 's', seq: 12, kind: 'torn_tail', line: at(12) + 1, message: expect.stringMatching(/cut short \(a crash mid-write, then a new run appended\)/) as unknown }]);
    const inside = [...valid];
    inside[at(5)] = (valid[at(5)] as string).slice(0, 70);
    expect(kinds(await verifyReceipts(file(inside)))).toEqual(['malformed s#5', 'missing s#5']);
  });

  it('reports a line that is not a receipt as malformed, with its line number', async () => {
    const lines = [...valid];
    lines.splice(2, 0, 'not json at all');
    lines.splice(5, 0, '{"v":2,"stream":"s","seq":1}');
    lines.splice(6, 0, '[1,2]');
    lines.splice(7, 0, '{"v":1,"stream":"s","seq":1,"hash":"' + '0'.repeat(64) + '","type":"tail"}');
    const result = await verifyReceipts(file(lines));
    expect(result.ok).toBe(false);
    expect(result.problems.map((p) => [p.kind, p.line])).toEqual([
      ['malformed', 3],
      ['malformed', 6],
      ['malformed', 7],
      ['malformed', 8],
    ]);
    expect(result.problems[1]?.message).toMatch(/unknown format version 2/);
  });

  it('reports a binary file and an empty one as malformed, holding no receipt', async () => {
    const binary = join(dir, 'binary.bin');
    writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0xc3, 0x28, 0x0a]));
    const result = await verifyReceipts(binary);
    expect(result).toMatchObject({ ok: false, records: 0 });
    expect(result.problems.map((p) => [p.kind, p.line])).toEqual([
      ['malformed', 1],
      ['malformed', 2],
    ]);
    expect(result.problems[0]?.message).toMatch(/not UTF-8/);
    const empty = await verifyReceipts(file([]));
    expect(empty).toMatchObject({ ok: false, records: 0, problems: [{ kind: 'malformed', message: expect.stringMatching(/empty/) as unknown }] });
  });

  it('names a record that chains from one that already has a successor, and one that cannot be canonicalised', async () => {
    const forged = JSON.parse(valid[at(4)] as string) as Record<string, unknown>;
    forged.seq = 13;
    forged.reason = 'late fork';
    const { hash: _hash, ...content } = forged;
    forged.hash = recordHash(forged.prev as string, content);
    const fork = [...valid, JSON.stringify(forged)];
    const result = await verifyReceipts(file(fork));
    expect(kinds(result)).toEqual(['inserted s#13']);
    expect(result.problems[0]?.message).toMatch(/already has a successor \(record 4\)/);

    const surrogate = valid[at(2)]?.replace('"tool":"ok"', '"tool":"\\ud800"') as string;
    const lines = [...valid];
    lines[at(2)] = surrogate;
    expect((await verifyReceipts(file(lines))).problems[0]).toMatchObject({ kind: 'malformed', seq: 2, message: expect.stringMatching(/cannot be canonicalised.*lone surrogate/) as unknown });
  });

  it('keeps streams apart', async () => {
    const sink = memorySink();
    const a = receiptHook({ sink, stream: 'a' });
    const b = receiptHook({ sink, stream: 'b' });
    await executeTool({ hooks: new HookRunner([a, b, { beforeTool: () => undefined }]), toolName: 't', args: {}, execute: () => 1 });
    const path = join(dir, 'two-streams.jsonl');
    sink.saveTo(path);
    expect(await verifyReceipts(path)).toMatchObject({ ok: true, streams: 2, records: 4 });
  });

  it('rejects a file it cannot read and a bad key, naming them', async () => {
    await expect(verifyReceipts(join(dir, 'nope.jsonl'))).rejects.toThrow(/cannot read .*nope\.jsonl: .*ENOENT/);
    await expect(verifyReceipts(dir)).rejects.toThrow(/not a regular file/);
    await expect(verifyReceipts(file(valid), { publicKey: join(dir, 'missing.pem') })).rejects.toThrow(/cannot read the publicKey file ".*missing\.pem"/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'pem', type: 'spki' }).toString();
    await expect(verifyReceipts(file(valid), { publicKey: rsa })).rejects.toThrow(/the publicKey PEM is a rsa key; receipts need Ed25519/);
    await expect(verifyReceipts('')).rejects.toThrow(/needs the path/);
    // a private key stands for its public half
    expect((await verifyReceipts(file(valid), { publicKey: privateKey })).ok).toBe(true);
  });
});
