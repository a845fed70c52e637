/**
 * An in-memory ReceiptSink for the receipt tests (unit and integration): keeps the lines, can be told to fail, and writes them to a
 * file for verifyReceipts.
 */
import { writeFileSync } from 'node:fs';
import type { ReceiptSink } from '../../src/receipts/index.js';

export interface MemorySink extends ReceiptSink {
  readonly lines: string[];
  /** While set, writes and flushes reject with it (the lines are kept to write later, as a sink must). */
  failing: Error | undefined;
  /** The records (heads left out), parsed. */
  records(): Record<string, unknown>[];
  heads(): Record<string, unknown>[];
  saveTo(path: string): void;
  closed: boolean;
}

export function memorySink(): MemorySink {
  const lines: string[] = [];
  const held: string[] = [];
  const parsed = (): Record<string, unknown>[] => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const sink: MemorySink = {
    lines,
    failing: undefined,
    closed: false,
    write(line) {
      held.push(line);
      return sink.flush();
    },
    flush() {
      if (sink.failing !== undefined) return Promise.reject(sink.failing);
      lines.push(...held.splice(0));
      return Promise.resolve();
    },
    async close() {
      await sink.flush();
      sink.closed = true;
    },
    records: () => parsed().filter((line) => line.type === undefined),
    heads: () => parsed().filter((line) => line.type === 'head'),
    saveTo: (path) => writeFileSync(path, lines.map((line) => `${line}\n`).join('')),
  };
  return sink;
}
