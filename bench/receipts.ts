/**
 * The receipts rows: the receipt hook against a hand-written SHA-256 chain that makes the same records
 * (same fields, one SHA-256 per record and one per argument digest, `JSON.stringify` instead of RFC 8785),
 * both into memory; and the receipt hook into a file with each `fsync` mode, each call awaiting its records'
 * write (`flush()`), so the time per call is what an acknowledged record costs.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import type { ToolHook, ToolHookEvent } from '../src/index.js';
import type { ReceiptSink } from '../src/receipts/index.js';
import type { Library } from './library.js';
import { ARGS } from './workload.js';

/** Lines kept before a memory sink drops them: bounds the run's heap, not its work. */
const KEEP = 10_000;

/** A sink that keeps the last lines in memory. */
export function memoryReceiptSink(): ReceiptSink {
  let lines: string[] = [];
  const done = Promise.resolve();
  return {
    write(line) {
      lines.push(line);
      if (lines.length > KEEP) lines = [];
      return done;
    },
    flush: () => done,
    close: () => done,
  };
}

/** The same records chained by hand: what the simplest correct code would do. */
export function handWrittenChain(): ToolHook {
  let seq = 0;
  let prev = '0'.repeat(64);
  let lines: string[] = [];
  const append = (fields: Record<string, unknown>): void => {
    const context = trace.getActiveSpan()?.spanContext();
    seq += 1;
    const record: Record<string, unknown> = {
      v: 1,
      stream: 'hand',
      seq,
      prev,
      time: new Date().toISOString(),
      trace_id: context?.traceId ?? '0'.repeat(32),
      span_id: context?.spanId ?? '0'.repeat(16),
      ...fields,
      args_digest: `sha256:${createHash('sha256').update(JSON.stringify(ARGS)).digest('hex')}`,
    };
    prev = createHash('sha256').update(`${prev}\n${JSON.stringify(record)}`).digest('hex');
    record.hash = prev;
    lines.push(JSON.stringify(record));
    if (lines.length > KEEP) lines = [];
  };
  return {
    name: 'hand-chain',
    onEvent(event: ToolHookEvent) {
      if (event.type === 'phase') {
        for (const hook of event.hooks) append({ tool: event.toolName, phase: event.phase, hook: hook.hook, decision: hook.decision, effective: event.decision, mode: hook.mode, reason: hook.reason });
      } else if (event.type === 'tool') {
        append({ tool: event.toolName, outcome: event.outcome });
      }
    },
  };
}

/** A signed receipt hook into a file with the given fsync mode, and what awaits its records' write. */
export function fileReceipts(lib: Library, fsync: 'always' | 'head' | 'never'): { hook: ToolHook; after: () => Promise<void> } {
  const { receiptHook, fileReceiptSink } = lib;
  if (receiptHook === undefined || fileReceiptSink === undefined) throw new Error('this build has no toolhooks/receipts');
  const dir = mkdtempSync(join(tmpdir(), 'toolhooks-bench-receipts-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  // Signed heads every 100 records (the default): what 'head' syncs on.
  const signingKey = generateKeyPairSync('ed25519').privateKey;
  const hook = receiptHook({ sink: fileReceiptSink(join(dir, `receipts-${fsync}.jsonl`), { fsync }), signingKey });
  return { hook, after: () => hook.flush() };
}
