/**
 * The in-process limit store: counts in this process only (use `redisLimitStore` for a fleet), bounded
 * to `maxKeys` keys with the least recently used evicted. Atomic because JavaScript runs one take at a
 * time: check and take happen in one synchronous step.
 */
import { quoteValue } from '../internal/describe.js';
import { optionalCount, readOptions } from '../internal/validate.js';
import { warnVisibly } from '../telemetry/warn-once.js';
import { memoryKey } from './store-key.js';
import type { LimitStore, LimitTake, MemoryLimitStoreOptions } from './types.js';

/** A memory store, as `memoryLimitStore()` returns it: a {@link LimitStore} that also says how full it is. */
export interface MemoryLimitStore extends LimitStore {
  /** How many keys it holds. */
  readonly size: number;
  /** How many keys it evicted (least recently used first) to stay within `maxKeys`. */
  readonly evicted: number;
}

const DEFAULT_MAX_KEYS = 100_000;

/**
 * The cost let through for one key within a sliding window: each take's time and cost, oldest first,
 * from `head` on (entries before `head` have left the window and are dropped in batches).
 */
class Window {
  used = 0;
  head = 0;
  times: number[] = [];
  costs: number[] = [];

  /** Drops what left the window by `now`: an entry at time t counts while now - t < windowMs. */
  prune(now: number, windowMs: number): void {
    const times = this.times;
    let head = this.head;
    while (head < times.length && (times[head] as number) <= now - windowMs) {
      this.used -= this.costs[head] as number;
      head += 1;
    }
    if (head === times.length) {
      // Empty: start again from an exact zero (no drift from adding and removing fractions).
      this.used = 0;
      this.head = 0;
      times.length = 0;
      this.costs.length = 0;
    } else if (head > 64 && head * 2 > times.length) {
      times.splice(0, head);
      this.costs.splice(0, head);
      this.head = 0;
    } else {
      this.head = head;
    }
  }

  add(now: number, cost: number): void {
    this.times.push(now);
    this.costs.push(cost);
    this.used += cost;
  }
}

/**
 * The store behind `memoryLimitStore()`. Its synchronous `takeNow` / `chargeNow` are what the limit
 * hook calls when it is given this store, so that a limit in memory costs no promise.
 * @internal
 */
export class MemoryStore implements MemoryLimitStore {
  readonly name = 'memory';
  /** Lifetime counts are plain numbers; windowed ones a {@link Window}. Map order is recency order. */
  readonly #keys = new Map<string, number | Window>();
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
    const stored = memoryKey(key);
    if (windowMs === undefined) {
      const used = this.#lifetime(stored);
      if (exceeds(used, cost, limit)) return { allowed: false, used };
      this.#set(stored, used + cost);
      return { allowed: true, used: used + cost };
    }
    const now = this.#now();
    const window = this.#window(stored, now, windowMs);
    if (exceeds(window.used, cost, limit)) return { allowed: false, used: window.used };
    if (cost > 0) window.add(now, cost);
    return { allowed: true, used: window.used };
  }

  chargeNow(key: string, cost: number, windowMs: number | undefined): number {
    const stored = memoryKey(key);
    if (windowMs === undefined) {
      const used = this.#lifetime(stored) + cost;
      this.#set(stored, used);
      return used;
    }
    const now = this.#now();
    const window = this.#window(stored, now, windowMs);
    if (cost > 0) window.add(now, cost);
    return window.used;
  }

  take(key: string, cost: number, limit: number, windowMs: number | undefined): Promise<LimitTake> {
    return Promise.resolve(this.takeNow(key, cost, limit, windowMs));
  }

  charge(key: string, cost: number, windowMs: number | undefined): Promise<number> {
    return Promise.resolve(this.chargeNow(key, cost, windowMs));
  }

  close(): Promise<void> {
    this.#keys.clear();
    return Promise.resolve();
  }

  /** A lifetime count, made the most recently used key. */
  #lifetime(stored: string): number {
    const value = this.#keys.get(stored);
    if (typeof value === 'number') {
      this.#keys.delete(stored);
      this.#keys.set(stored, value);
      return value;
    }
    return 0;
  }

  /** A key's window, pruned to `now` and made the most recently used key (made when new). */
  #window(stored: string, now: number, windowMs: number): Window {
    const value = this.#keys.get(stored);
    if (value instanceof Window) {
      this.#keys.delete(stored);
      this.#keys.set(stored, value);
      value.prune(now, windowMs);
      return value;
    }
    const window = new Window();
    this.#set(stored, window);
    return window;
  }

  #set(stored: string, value: number | Window): void {
    const keys = this.#keys;
    keys.delete(stored);
    keys.set(stored, value);
    if (keys.size <= this.#maxKeys) return;
    const oldest = keys.keys().next();
    if (oldest.done === true) return;
    keys.delete(oldest.value);
    this.#evicted += 1;
    if (this.#evicted === 1) {
      warnVisibly(
        `toolhooks: memoryLimitStore holds its maximum of ${this.#maxKeys} keys and evicted the least recently used one; ` +
          'an evicted key starts again from zero (raise maxKeys, or use redisLimitStore; see docs/limits.md)',
        'TOOLHOOKS_LIMIT_KEYS_EVICTED',
      );
    }
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
