/**
 * replay() with limit hooks: each runs as a fresh copy on a memory store, on the recorded clock and in
 * the recorded order, so "what if the limit had been 10?" has one answer, and the live store is untouched.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { limitHook } from '../../../src/limits/index.js';
import type { LimitStore } from '../../../src/limits/index.js';
import { replay } from '../../../src/replay/index.js';
import { otlpTraffic } from '../../support/otlp-traffic.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('replay-limits');
const source = join(dir, 'traffic.json');
// 12 searches, one every 10 seconds, all let through live (under 20 a minute).
writeFileSync(source, otlpTraffic(Array.from({ length: 12 }, (_, i) => ({ tool: 'search', args: { q: `q${i}` }, callId: `c${i}`, atMs: i * 10_000 }))));

describe('replay with limit hooks', () => {
  it('answers "what if the limit had been lower" on the recorded times, the same every run', async () => {
    const hooks = [limitHook({ name: 'search_rate', limit: 3, windowMs: 60_000 })];
    const first = await replay({ hooks, source });
    const second = await replay({ hooks, source });
    // Calls at 0, 10, 20 s pass; 30, 40, 50 s are stopped; at 60, 70 and 80 s the calls of 0, 10 and 20 s
    // have left the window, so those pass; 90, 100 and 110 s are stopped again.
    expect(first.changed.map((c) => c.callId)).toEqual(['c3', 'c4', 'c5', 'c9', 'c10', 'c11']);
    expect(first.changed[0]?.replayed).toEqual({ decision: 'abort', hook: 'search_rate', reason: 'limit search_rate: 3 per minute reached' });
    expect(second).toEqual(first);
  });

  it('a lifetime limit stops everything after it', async () => {
    const report = await replay({ hooks: [limitHook({ name: 'total', limit: 10 })], source });
    expect(report.changed.map((c) => c.callId)).toEqual(['c10', 'c11']);
  });

  it('never touches the store the live hook counts in', async () => {
    const untouchable: LimitStore = { take: () => Promise.reject(new Error('live store used')), charge: () => Promise.reject(new Error('live store used')) };
    const report = await replay({ hooks: [limitHook({ limit: 100, store: untouchable })], source });
    expect(report.hookErrors).toEqual([]);
    expect(report.unchanged).toBe(12);
  });
});
