import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { memoryLimitStore } from '../../../src/limits/index.js';
import { MemoryStore, exceeds } from '../../../src/limits/memory-store.js';
import { memoryKey, namespacedKey } from '../../../src/limits/store-key.js';

afterEach(() => vi.restoreAllMocks());

describe('memoryLimitStore', () => {
  it('takes while the limit holds, atomically per key, and reads with a cost of 0', async () => {
    const store = memoryLimitStore();
    expect(await store.take('k', 2, 3, undefined)).toEqual({ allowed: true, used: 2 });
    expect(await store.take('k', 2, 3, undefined)).toEqual({ allowed: false, used: 2 });
    expect(await store.take('k', 1, 3, undefined)).toEqual({ allowed: true, used: 3 });
    expect(await store.take('k', 0, 3, undefined)).toEqual({ allowed: false, used: 3 });
    expect(await store.charge('k', 4, undefined)).toBe(7);
    expect(await store.take('other', 0, 3, undefined)).toEqual({ allowed: true, used: 0 });
  });

  it('holds the limit under concurrent takes: exactly `limit` of 1000 get through', async () => {
    const store = memoryLimitStore();
    const answers = await Promise.all(Array.from({ length: 1000 }, () => store.take('k', 1, 37, 60_000)));
    expect(answers.filter((a) => a.allowed)).toHaveLength(37);
  });

  it('charges into a window and lets it expire', () => {
    let now = 0;
    const store = new MemoryStore(10, () => now);
    expect(store.chargeNow('k', 1.5, 100)).toBe(1.5);
    now = 50;
    expect(store.chargeNow('k', 0, 100)).toBe(1.5);
    expect(store.chargeNow('k', 1, 100)).toBe(2.5);
    now = 100;
    expect(store.takeNow('k', 0, 5, 100)).toEqual({ allowed: true, used: 1 });
    now = 1000;
    expect(store.takeNow('k', 0, 5, 100)).toEqual({ allowed: true, used: 0 });
  });

  it('keeps a long window of many takes correct while it compacts', () => {
    let now = 0;
    const store = new MemoryStore(10, () => now);
    for (let i = 0; i < 500; i += 1) {
      now = i;
      expect(store.takeNow('k', 1, 100, 100).allowed).toBe(true);
    }
    expect(store.takeNow('k', 0, 100, 100).used).toBe(100);
  });

  it('the guarantee: in any window the cost let through is at most the limit (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 5 })), { maxLength: 200 }),
        (limit, windowMs, steps) => {
          let now = 0;
          const store = new MemoryStore(10, () => now);
          const letThrough: [number, number][] = [];
          for (const [advance, cost] of steps) {
            now += advance;
            if (store.takeNow('k', cost, limit, windowMs).allowed && cost > 0) letThrough.push([now, cost]);
          }
          for (const [start] of letThrough) {
            const inWindow = letThrough.filter(([t]) => t >= start && t < start + windowMs).reduce((sum, [, c]) => sum + c, 0);
            if (inWindow > limit) return false;
          }
          return true;
        },
      ),
    );
  });

  it('evicts the least recently used key past maxKeys, counts it and warns once', () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const store = new MemoryStore(2, () => 0);
    store.takeNow('a', 1, 1, undefined);
    store.takeNow('b', 1, 1, undefined);
    store.takeNow('a', 0, 1, undefined); // a is now the most recently used
    store.takeNow('c', 1, 1, undefined); // evicts b
    store.takeNow('d', 1, 1, 10); // evicts a
    expect(store.size).toBe(2);
    expect(store.evicted).toBe(2);
    expect(warning).toHaveBeenCalledTimes(1);
    expect(String(warning.mock.calls[0]?.[0])).toContain('evicted the least recently used');
    // an evicted key starts again from zero
    expect(store.takeNow('a', 1, 1, undefined)).toEqual({ allowed: true, used: 1 });
  });

  it('close() forgets every key', async () => {
    const store = memoryLimitStore();
    await store.take('k', 1, 1, undefined);
    await store.close?.();
    expect(store.size).toBe(0);
  });

  it.each([[0], [1.5], ['10'], [-1]])('rejects maxKeys %j with a TypeError', (maxKeys) => {
    expect(() => memoryLimitStore({ maxKeys } as never)).toThrow(TypeError);
  });

  it('rejects unknown options', () => {
    expect(() => memoryLimitStore({ maxkeys: 1 } as never)).toThrow('did you mean "maxKeys"?');
  });
});

describe('keys', () => {
  it('namespaces by hook name unambiguously', () => {
    expect(namespacedKey('a:b', 'c')).not.toBe(namespacedKey('a', 'b:c'));
  });

  it('holds a 1 MB key or one with control characters as a short, distinct key', () => {
    const big = 'x'.repeat(1 << 20);
    expect(memoryKey(big)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(memoryKey(big)).not.toBe(memoryKey(`${big}y`));
    expect(memoryKey('a\u0000\r\n')).toBe('a\u0000\r\n');
    const store = new MemoryStore(10, () => 0);
    expect(store.takeNow(big, 1, 1, undefined).allowed).toBe(true);
    expect(store.takeNow(big, 1, 1, undefined).allowed).toBe(false);
  });

  it('exceeds: a cost crossing the limit; a cost of 0 once nothing is left', () => {
    expect(exceeds(2, 1, 3)).toBe(false);
    expect(exceeds(3, 1, 3)).toBe(true);
    expect(exceeds(2.9, 0, 3)).toBe(false);
    expect(exceeds(3, 0, 3)).toBe(true);
  });
});
