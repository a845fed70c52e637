/**
 * verifyReceipts on large files (the unit tests of src/receipts/verify.ts are in test/unit/receipts/verify.test.ts):
 * a 100 MB line read in bounded memory, and a 5,000-record stream past the window it keeps. In the
 * integration tier for their size: they write and read megabytes, which the unit loop should not pay for.
 */
import { generateKeyPairSync } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyReceipts } from '../../../src/receipts/index.js';
import { recordHash } from '../../../src/receipts/chain.js';
import { useTempDir } from '../../support/temp-dir.js';
import { receiptFileWriter, validReceiptLines } from '../../support/receipt-files.js';

const dir = useTempDir('verify-large');
const { privateKey } = generateKeyPairSync('ed25519');
/** The lines of a valid file: 12 records in stream `s` (heads after 4, 8 and 12), all signed. */
let valid: string[] = [];

beforeAll(async () => {
  valid = await validReceiptLines(privateKey);
});

const file = receiptFileWriter(dir);

describe('verifyReceipts on large files', () => {
  it('reads a 100 MB line in bounded memory and reports it as malformed with its line number', async () => {
    const path = join(dir, 'long-line.jsonl');
    const fd = openSync(path, 'w');
    writeSync(fd, `${valid[0] as string}\n`);
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 100; i += 1) writeSync(fd, chunk);
    writeSync(fd, `\n${valid.slice(1).join('\n')}\n`);
    closeSync(fd);
    const before = process.memoryUsage().rss;
    const result = await verifyReceipts(path);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
    expect(result.records).toBe(12);
    expect(result.problems).toEqual([{ stream: '', seq: 0, kind: 'malformed', line: 2, message: expect.stringMatching(/104857600 bytes long/) as unknown }]);
  });

  it('places records in a long stream (past the window it keeps) and lists at most 1000 problems', async () => {
    const lines: string[] = [];
    let prev = '0'.repeat(64);
    for (let seq = 1; seq <= 5000; seq += 1) {
      const content = { v: 1, stream: 'long', seq, prev, time: '2026-01-01T00:00:00.000Z', trace_id: '0'.repeat(32), span_id: '0'.repeat(16), tool: 't', outcome: 'completed', args_digest: 'sha256:x' };
      prev = recordHash(prev, content);
      lines.push(JSON.stringify({ ...content, hash: prev }));
    }
    expect(await verifyReceipts(file(lines))).toMatchObject({ ok: true, records: 5000 });
    const junk = await verifyReceipts(file([...lines, ...Array.from({ length: 1100 }, () => 'junk'), '', '   ']));
    expect(junk.problems).toHaveLength(1001);
    expect(junk.problems.at(-1)?.message).toBe('100 more problem(s) not listed');
  });

});
