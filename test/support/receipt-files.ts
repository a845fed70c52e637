/**
 * The receipts files verifyReceipts' tests read (unit and integration): a valid signed file made by real
 * calls through receiptHook, and numbered files written from lines the test edits.
 */
import type { KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HookRunner, abort, executeTool } from '../../src/index.js';
import { receiptHook } from '../../src/receipts/index.js';
import { memorySink } from './memory-sink.js';

/** The lines of a valid file: 12 records in stream `s` (heads after 4, 8 and 12), all signed with `privateKey`. */
export async function validReceiptLines(privateKey: KeyObject): Promise<string[]> {
  const sink = memorySink();
  const receipts = receiptHook({ sink, stream: 's', signingKey: privateKey, headEvery: 4 });
  const runner = new HookRunner([{ name: 'p', beforeTool: (tool) => (tool === 'bad' ? abort('no') : undefined) }, receipts]);
  for (let i = 0; i < 6; i += 1) {
    await executeTool({ hooks: runner, toolName: i % 3 === 2 ? 'bad' : 'ok', args: { i }, execute: () => i }).catch(() => undefined);
  }
  await receipts.close();
  return [...sink.lines];
}

/** Writes `lines` to a new numbered file in `dir` (`ending` after the last line) and returns its path. */
export function receiptFileWriter(dir: string): (lines: readonly string[], ending?: string) => string {
  let count = 0;
  return (lines, ending = '\n') => {
    count += 1;
    const path = join(dir, `r${count}.jsonl`);
    writeFileSync(path, lines.join('\n') + (lines.length > 0 ? ending : ''));
    return path;
  };
}
