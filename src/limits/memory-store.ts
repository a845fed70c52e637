/**
 * The in-process limit store: counts in this process only (use `redisLimitStore` for a fleet), bounded
 * to `maxKeys` keys with the least recently used evicted. Atomic because JavaScript runs one take at a
 * time: check and take happen in one synchronous step.
 */
import { quoteValue } from '../internal/describe.js';
import { optionalCount, readOptions } from '../internal/validate.js';
import { warnVisibly } from '../telemetry/warn-once.js';
import { memoryKey } from './store-key.js';
import type { LimitTake, MemoryLimitStore, MemoryLimitStoreOptions } from './types.js';

const DEFAULT_MAX_KEYS = 100_000;

/**
 * One key's count: `used`, and for a sliding window each take's time and cost, oldest first, from
 * `head` on (entries before `head` have left the window and are dropped in batches). Entries are also
 * the links of the recency list (`older` / `newer`), so that using a key and evicting the least recently
 * used one are O(1) and never reorder the Map.
 */
class Entry {
  used = 0;
  head = 0;
  times: number[] | undefined = undefined;
  costs: number[] | undefined = undefined;
  older: Entry | undefined = undefined;
  newer: Entry | undefined = undefined;

  constructor(readonly key: string) {}

  /** Drops what left the window by `now`: an entry at time t counts while now - t < windowMs. */
  prune(now: number, windowMs: number): void {
    const times = this.times;
    const costs = this.costs;
    if (times === undefined || costs === undefined) return;
    let head = this.head;
    while (head < times.length && (times[head] as number) <= now - windowMs) {
      this.used -= costs[head] as number;
      head += 1;
    }
    if (head === times.length) {
      // Empty: start again from an exact zero (no drift from adding and removing fractions).
      this.used = 0;
      this.head = 0;
      this.times = undefined;
      this.costs = undefined;
    } else if (head > 64 && head * 2 > times.length) {
      times.splice(0, head);
      costs.splice(0, head);
      this.head = 0;
    } else {
      this.head = head;
    }
  }

  /** Adds a take at `now` to the window. */
  add(now: number, cost: number): void {
    this.used += cost;
    if (this.times === undefined || this.costs === undefined) {
      // Literals of one element hold one: a key with a single take (most keys of a large store) stays small.
      this.times = [now];
      this.costs = [cost];
      return;
    }
    this.times.push(now);
    this.costs.push(cost);
  }
}

/** Warned once per process: an app with many limits sees the advice once, not once per store. */
let evictionWarned = false;

/**
 * The store behind `memoryLimitStore()`. Its synchronous `takeNow` / `chargeNow` are what the limit
 * hook calls when it is given this store, so that a limit in memory costs no promise.
 * @internal
 */
export class MemoryStore implements MemoryLimitStore {
  readonly name = 'memory';
  readonly #keys = new Map<string, Entry>();
  /** The recency list: `#oldest` is evicted first, `#newest` was used last. */
  #oldest: Entry | undefined = undefined;
  #newest: Entry | undefined = undefined;
  readonly #maxKeys: number;
  readonly #now: () => number;
  #evicted = 0;

  constructor(maxKeys: number, now: () => number) {
    this.#maxKeys = maxKeys;
    this.#now = now;
  }

  get size(): number {
    return this.#keys.size;
  }

  get evicted(): number {
    return this.#evicted;
  }

  takeNow(key: string, cost: number, limit: number, windowMs: number | undefined): LimitTake {
    const entry = this.#entry(key);
    if (windowMs === undefined) {
      if (exceeds(entry.used, cost, limit)) return { allowed: false, used: entry.used };
      entry.used += cost;
      return { allowed: true, used: entry.used };
    }
    const now = this.#now();
    entry.prune(now, windowMs);
    if (exceeds(entry.used, cost, limit)) return { allowed: false, used: entry.used };
    if (cost > 0) entry.add(now, cost);
    return { allowed: true, used: entry.used };
  }

  chargeNow(key: string, cost: number, windowMs: number | undefined): number {
    const entry = this.#entry(key);
    if (windowMs === undefined) {
      entry.used += cost;
      return entry.used;
    }
    const now = this.#now();
    entry.prune(now, windowMs);
    if (cost > 0) entry.add(now, cost);
    return entry.used;
  }

  take(key: string, cost: number, limit: number, windowMs: number | undefined): Promise<LimitTake> {
    return Promise.resolve(this.takeNow(key, cost, limit, windowMs));
  }

  charge(key: string, cost: number, windowMs: number | undefined): Promise<number> {
    return Promise.resolve(this.chargeNow(key, cost, windowMs));
  }

  close(): Promise<void> {
    this.#keys.clear();
    this.#oldest = undefined;
    this.#newest = undefined;
    return Promise.resolve();
  }

  /** The key's entry, made the most recently used (made when new, evicting the oldest past maxKeys). */
  #entry(key: string): Entry {
    const stored = memoryKey(key);
    let entry = this.#keys.get(stored);
    if (entry === undefined) {
      entry = new Entry(stored);
      this.#keys.set(stored, entry);
      this.#append(entry);
      if (this.#keys.size > this.#maxKeys) this.#evictOldest();
      return entry;
    }
    if (entry !== this.#newest) {
      this.#unlink(entry);
      this.#append(entry);
    }
    return entry;
  }

  #append(entry: Entry): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest === undefined) this.#oldest = entry;
    else this.#newest.newer = entry;
    this.#newest = entry;
  }

  #unlink(entry: Entry): void {
    if (entry.older === undefined) this.#oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) this.#newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  }

  #evictOldest(): void {
    const oldest = this.#oldest;
    if (oldest === undefined) return;
    this.#unlink(oldest);
    this.#keys.delete(oldest.key);
    this.#evicted += 1;
    if (evictionWarned) return;
    evictionWarned = true;
    warnVisibly(
      `toolhooks: a memoryLimitStore holds its maximum of ${this.#maxKeys} keys and evicted the least recently used one; ` +
        'an evicted key starts again from zero (raise maxKeys, or use redisLimitStore; see docs/limits.md)',
      'TOOLHOOKS_LIMIT_KEYS_EVICTED',
    );
  }
}

/**
 * Whether taking `cost` would exceed `limit` with `used` already counted. A cost of 0 (a limit charged
 * only after the call) is let through while some of the limit is left.
 * @internal
 */
export function exceeds(used: number, cost: number, limit: number): boolean {
  return cost > 0 ? used + cost > limit : used >= limit;
}

/**
 * A limit store in this process's memory: limits hold within the process (for a fleet, use
 * `redisLimitStore`). It holds at most `maxKeys` keys (default 100,000); past that the least recently
 * used key is evicted and starts again from zero — counted in `evicted`, and warned once.
 *
 * @throws TypeError when `maxKeys` is not an integer ≥ 1, or an option is unknown.
 * @example
 * ```ts
 * const store = memoryLimitStore({ maxKeys: 10_000 });
 * const perUser = limitHook({ name: 'search_rate', limit: 20, windowMs: 60_000, key: (_t, _a, s: { user: string }) => s.user, store });
 * ```
 */
export function memoryLimitStore(options?: MemoryLimitStoreOptions): MemoryLimitStore {
  const { maxKeys } = readOptions(options, 'memoryLimitStore(options)', 'memoryLimitStore', { maxKeys: positiveInteger });
  return new MemoryStore(optionalCount(maxKeys, DEFAULT_MAX_KEYS, 'memoryLimitStore: maxKeys', 1), () => performance.now());
}

function positiveInteger(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new TypeError(`${what} must be an integer >= 1, got ${quoteValue(value)}`);
  }
  return value;
}
