/**
 * fileReceiptSink under a flood: past 100,000 lines waiting it drops the oldest and rejects the writes of
 * their batch. The unit tests of src/receipts/file-sink.ts are in test/unit/receipts/file-sink.test.ts;
 * this one is in the integration tier for its size (100,002 writes to a file).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileReceiptSink } from '../../../src/receipts/index.js';
import { recordDiag } from '../../support/diag.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('file-sink-flood');
const diagnostics = recordDiag();
beforeEach(() => diagnostics.start());
afterEach(() => diagnostics.stop());

describe('fileReceiptSink under a flood', () => {
  it('drops the oldest lines past 100,000 waiting, rejecting the writes of their batch', async () => {
    const path = join(dir, 'flood.jsonl');
    const sink = fileReceiptSink(path, { fsync: 'never' });
    const writes = Array.from({ length: 100_002 }, (_, i) => sink.write(`${i}`, 'record'));
    const settled = await Promise.allSettled(writes);
    await sink.close();
    const rejected = settled.filter((result) => result.status === 'rejected');
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    expect(String((rejected[0] as PromiseRejectedResult).reason)).toMatch(/\d+ line\(s\) dropped while the file could not keep up/);
    const lines = readFileSync(path, 'utf8').split('\n').slice(0, -1);
    expect(lines.length).toBeLessThan(100_002);
    expect(lines.at(-1)).toBe('100001');
  });
});
