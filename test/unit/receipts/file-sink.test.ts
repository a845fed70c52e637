import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { fileReceiptSink, receiptHook, verifyReceipts } from '../../../src/receipts/index.js';
import { recordDiag } from '../../support/diag.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('file-sink');
const diagnostics = recordDiag();
beforeEach(() => diagnostics.start());
afterEach(() => diagnostics.stop());

describe('fileReceiptSink', () => {
  it.each(['always', 'head', 'never'] as const)('appends lines in order, one JSON object per line (fsync %s)', async (fsync) => {
    const path = join(dir, `order-${fsync}.jsonl`);
    const sink = fileReceiptSink(path, { fsync });
    await Promise.all(Array.from({ length: 50 }, (_, i) => sink.write(`{"n":${i}}`, i % 10 === 9 ? 'head' : 'record')));
    await sink.close();
    await sink.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await expect(sink.write('{}', 'record')).rejects.toThrow(/is closed/);
  });

  it('appends to an existing file, starting a new line after a torn one', async () => {
    const path = join(dir, 'torn.jsonl');
    writeFileSync(path, '{"whole":1}\n{"torn":');
    const sink = fileReceiptSink(path);
    await sink.write('{"next":2}', 'record');
    await sink.write('{"next":3}', 'record');
    await sink.close();
    expect(readFileSync(path, 'utf8')).toBe('{"whole":1}\n{"torn":\n{"next":2}\n{"next":3}\n');
  });

  it('keeps what it could not write and writes it, in order, once it can', async () => {
    const parent = join(dir, 'later');
    const path = join(parent, 'receipts.jsonl');
    const sink = fileReceiptSink(path);
    const first = sink.write('{"n":1}', 'record');
    await expect(first).rejects.toThrow(/cannot write receipt file .*later\/receipts\.jsonl: .*ENOENT/);
    const second = sink.write('{"n":2}', 'record');
    await expect(second).rejects.toThrow(/ENOENT/);
    mkdirSync(parent);
    await sink.flush();
    await sink.close();
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
  });

  it('reports a file it cannot write and never fails a call', async () => {
    // A directory where the file should be: open fails as it would without permission (EISDIR, even as root).
    const taken = join(dir, 'taken');
    mkdirSync(taken);
    const receipts = receiptHook({ sink: fileReceiptSink(taken) });
    const result = await executeTool({ hooks: new HookRunner([receipts]), toolName: 't', args: {}, execute: () => 'ran' });
    expect(result).toBe('ran');
    await expect(receipts.flush()).rejects.toThrow(/cannot write receipt file .*taken: .*EISDIR/);
    expect(diagnostics.messages.filter((message) => message.includes('could not write a receipt'))).toHaveLength(1);
  });

  it.skipIf(!existsSync('/dev/full'))('keeps the lines a full disk refused (/dev/full: ENOSPC) and tries them again', async () => {
    const sink = fileReceiptSink('/dev/full', { fsync: 'never' });
    await expect(sink.write('{"n":1}', 'record')).rejects.toThrow(/cannot write receipt file \/dev\/full: .*ENOSPC/);
    await expect(sink.flush()).rejects.toThrow(/ENOSPC/);
    await expect(sink.write('{"n":2}', 'record')).rejects.toThrow(/ENOSPC/);
    await expect(sink.close()).rejects.toThrow(/ENOSPC/);
  });

  it('works with the receipt hook end to end', async () => {
    const path = join(dir, 'hook.jsonl');
    const receipts = receiptHook({ sink: fileReceiptSink(path, { fsync: 'always' }) });
    const runner = new HookRunner([receipts, { beforeTool: () => undefined }]);
    for (let i = 0; i < 5; i += 1) await executeTool({ hooks: runner, toolName: 't', args: { i }, execute: () => i });
    await receipts.flush();
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(10);
    await receipts.close();
    expect(await verifyReceipts(path)).toMatchObject({ ok: true, records: 10 });
  });

  it('rejects a bad path or option', () => {
    expect(() => fileReceiptSink('')).toThrow(/needs a file path, got an empty string/);
    expect(() => fileReceiptSink(3 as never)).toThrow(/needs a file path, got number/);
    expect(() => fileReceiptSink('x', { fsync: 'sometimes' as never })).toThrow(/fsync must be 'always' or 'head' or 'never'/);
  });
});
