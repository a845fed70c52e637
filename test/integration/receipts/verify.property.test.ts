import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { HookRunner, abort, executeTool } from '../../../src/index.js';
import { receiptHook, verifyReceipts } from '../../../src/receipts/index.js';
import { recordHash } from '../../../src/receipts/chain.js';
import { useTempDir } from '../../support/temp-dir.js';
import { memorySink } from '../../support/memory-sink.js';

const dir = useTempDir('verify-property');
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
let valid: string[] = [];
let runs = 0;

beforeAll(async () => {
  // Two streams interleaved in one file, each closed with a final signed head.
  const sink = memorySink();
  const a = receiptHook({ sink, stream: 'a', signingKey: privateKey, headEvery: 5 });
  const b = receiptHook({ sink, stream: 'b', signingKey: privateKey, headEvery: 7 });
  const policy = { name: 'p', beforeTool: (tool: string) => (tool === 'bad' ? abort('no') : undefined) };
  const ra = new HookRunner([policy, a]);
  const rb = new HookRunner([policy, b]);
  for (let i = 0; i < 12; i += 1) {
    await executeTool({ hooks: i % 2 === 0 ? ra : rb, toolName: i % 5 === 4 ? 'bad' : 'ok', args: { i }, execute: () => i }).catch(() => undefined);
  }
  await a.close();
  await b.close();
  valid = [...sink.lines];
});

const isHead = (line: string): boolean => line.includes('"type":"head"');
const FIELDS = ['stream', 'seq', 'prev', 'time', 'trace_id', 'span_id', 'tool', 'hook', 'decision', 'reason', 'outcome', 'args_digest', 'hash', 'v'] as const;
const HEAD_FIELDS = ['stream', 'seq', 'hash', 'key_id', 'sig'] as const;

/** One edit an attacker (or a broken copy) could make; applied to the lines, it returns false when it changed nothing. */
type Edit =
  | { op: 'field'; at: number; field: (typeof FIELDS)[number]; value: string | number }
  | { op: 'head'; at: number; field: (typeof HEAD_FIELDS)[number]; value: string | number }
  | { op: 'delete'; at: number }
  | { op: 'swap'; at: number; with: number }
  | { op: 'duplicate'; at: number; to: number }
  | { op: 'forge'; at: number; to: number; reason: string };

const value = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: 40 }), fc.constantFrom('0'.repeat(64), 'f'.repeat(64)));
const index = fc.nat({ max: 1000 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('field' as const), at: index, field: fc.constantFrom(...FIELDS), value }),
  fc.record({ op: fc.constant('head' as const), at: index, field: fc.constantFrom(...HEAD_FIELDS), value }),
  fc.record({ op: fc.constant('delete' as const), at: index }),
  fc.record({ op: fc.constant('swap' as const), at: index, with: index }),
  fc.record({ op: fc.constant('duplicate' as const), at: index, to: index }),
  fc.record({ op: fc.constant('forge' as const), at: index, to: index, reason: fc.string({ maxLength: 6 }) }),
);

function apply(lines: string[], change: Edit): void {
  const records = lines.map((line, i) => (isHead(line) ? -1 : i)).filter((i) => i >= 0);
  const heads = lines.map((line, i) => (isHead(line) ? i : -1)).filter((i) => i >= 0);
  const pick = (from: number[], n: number): number => from[n % from.length] as number;
  switch (change.op) {
    case 'field':
    case 'head': {
      const target = change.op === 'field' ? pick(records, change.at) : pick(heads, change.at);
      const parsed = JSON.parse(lines[target] as string) as Record<string, unknown>;
      parsed[change.field] = change.value;
      lines[target] = JSON.stringify(parsed);
      return;
    }
    case 'delete':
      lines.splice(pick(records, change.at), 1);
      return;
    case 'swap': {
      const i = pick(records, change.at);
      const j = pick(records, change.with);
      [lines[i], lines[j]] = [lines[j] as string, lines[i] as string];
      return;
    }
    case 'duplicate':
      lines.splice(change.to % (lines.length + 1), 0, lines[pick(records, change.at)] as string);
      return;
    case 'forge': {
      // A made-up record with a correct hash of its own, slipped in anywhere.
      const parsed = JSON.parse(lines[pick(records, change.at)] as string) as Record<string, unknown>;
      parsed.reason = `forged ${change.reason}`;
      const { hash: _hash, ...content } = parsed;
      parsed.hash = recordHash(parsed.prev as string, content);
      lines.splice(change.to % (lines.length + 1), 0, JSON.stringify(parsed));
      return;
    }
  }
}

describe('verifyReceipts finds every random edit (property)', () => {
  it('reports a problem for any file made different from a valid one by edits to its records and heads', async () => {
    expect((await verifyReceipts(write(valid), { publicKey })).ok).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), async (edits) => {
        const lines = [...valid];
        for (const change of edits) apply(lines, change);
        // Edits that undo each other, rewrite a value with itself, only move a line past another stream's
        // (streams chain apart; how they interleave is not recorded) or a record past its own stream's head
        // leave a valid file.
        fc.pre(byStream(lines) !== byStream(valid));
        const result = await verifyReceipts(write(lines), { publicKey });
        expect(result.ok, `edits ${JSON.stringify(edits)} went unnoticed`).toBe(false);
        expect(result.problems.length).toBeGreaterThan(0);
        for (const problem of result.problems) expect(problem.kind).not.toBe('torn_tail');
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Each stream's records in file order and its heads as a set, streams apart: what a file says. A head names
 * the seq it signs, so where it stands among its stream's records says nothing (a swap that only moves a
 * record past its stream's head leaves the same file in meaning).
 */
function byStream(lines: readonly string[]): string {
  const streams = new Map<string, { records: string[]; heads: string[] }>();
  for (const line of lines) {
    const stream = /"stream":("[^"]*")/.exec(line)?.[1] ?? '';
    const group = streams.get(stream) ?? { records: [], heads: [] };
    (isHead(line) ? group.heads : group.records).push(line);
    streams.set(stream, group);
  }
  return [...streams.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([, group]) => [...group.records, '--heads--', ...group.heads.sort()].join('\n'))
    .join('\n--\n');
}

function write(lines: readonly string[]): string {
  runs += 1;
  const path = join(dir, `p${runs}.jsonl`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
