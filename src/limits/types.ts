/**
 * The public shapes of `toolhooks/limits`: the limit hook's options and the store interface a limit
 * counts in. See docs/limits.md.
 */
import type { FailureMode, HookMode, ToolArgs, ToolMatcher } from '../hook.js';

/**
 * What {@link LimitStore.take} answers: whether the cost was taken, and the cost counted for the key —
 * after the take when it was allowed, else the count that stopped it.
 */
export interface LimitTake {
  readonly allowed: boolean;
  readonly used: number;
}

/**
 * Where a limit counts: atomic per key, shared by every process that shares the store. Implement it to
 * back limits with another store; `memoryLimitStore()` and `redisLimitStore(client)` are the built-in ones.
 *
 * The contract, for a key and a window `windowMs` (undefined: the key's lifetime):
 * - `take(key, cost, limit, windowMs)` adds `cost` to the key and answers `{ allowed: true, used }` when
 *   the cost counted in the last `windowMs` plus `cost` stays within `limit`; otherwise it adds nothing and
 *   answers `{ allowed: false, used }`. A cost of 0 adds nothing: it reads `used` (allowed while
 *   `used < limit`). Check and take are one atomic step: no two callers can both see the last unit free.
 * - `charge(key, cost, windowMs)` adds `cost` unconditionally (a cost learnt after the call ran) and
 *   answers the new `used`.
 * Keys arrive namespaced by the limit hook's name and may be any string (long, with control characters):
 * a store that cannot hold such keys hashes them.
 *
 * @example
 * ```ts
 * const store: LimitStore = {
 *   name: 'my-store',
 *   async take(key, cost, limit, windowMs) { return myService.take({ key, cost, limit, windowMs }); },
 *   async charge(key, cost, windowMs) { return myService.charge({ key, cost, windowMs }); },
 * };
 * ```
 */
export interface LimitStore {
  /** Named in hook errors (`limit store redis failed: …`). Default: `store`. */
  readonly name?: string;
  take(key: string, cost: number, limit: number, windowMs: number | undefined): Promise<LimitTake>;
  charge(key: string, cost: number, windowMs: number | undefined): Promise<number>;
  /** Releases what the store holds (never a client it was given). */
  close?(): Promise<void>;
}

/** What a limit does to a call that would exceed it. */
export type LimitExceeded = 'abort' | 'skip' | 'ask';

/**
 * The options of `limitHook`.
 *
 * @typeParam S - the agent state passed through to `key`, `cost` and `costAfter`.
 * @example
 * ```ts
 * const options: LimitHookOptions<{ userId: string }> = {
 *   name: 'search_rate', tools: ['web_search'], limit: 20, windowMs: 60_000,
 *   key: (_tool, _args, state) => state.userId,
 * };
 * ```
 */
export interface LimitHookOptions<S = unknown> {
  /** The hook's name: in telemetry, in the reason, and the namespace of its keys. Default `limit`. */
  readonly name?: string;
  /** Which tools the limit applies to. Default: all tools. */
  readonly tools?: ToolMatcher;
  /** `'audit'` counts nothing and records what the limit would have decided. Default `'enforce'`. */
  readonly mode?: HookMode;
  /** More than 0: calls, or cost units when `cost` or `costAfter` is given. */
  readonly limit: number;
  /** A sliding window in milliseconds; omitted, the limit holds for the key's lifetime. */
  readonly windowMs?: number;
  /** What the limit counts per (a user, a conversation); must return a string. Default: the tool name. */
  readonly key?: (tool: string, args: ToolArgs, state: S) => string;
  /** The cost charged before the call (a finite number ≥ 0). Default 1, or 0 when only `costAfter` is given. */
  readonly cost?: (tool: string, args: ToolArgs, state: S) => number;
  /**
   * The cost charged once the tool ran (tokens or dollars read from its result). The call that crosses
   * the limit runs (its cost is not known before) and the next one is stopped.
   */
  readonly costAfter?: (tool: string, args: ToolArgs, result: unknown, state: S) => number;
  /** What a call that would exceed the limit gets. Default `'abort'`. */
  readonly onExceeded?: LimitExceeded;
  /** Where the limit counts. Default: a `memoryLimitStore()` of this hook's own. */
  readonly store?: LimitStore;
  /** When the store fails (unreachable, too slow, an error): abort the call (`'closed'`, default) or let it run. */
  readonly failureMode?: FailureMode;
}

/** The options of `memoryLimitStore`. */
export interface MemoryLimitStoreOptions {
  /**
   * How many keys the store holds (default 100,000); past it the least recently used key is evicted and
   * starts again from zero (counted, and warned once).
   */
  readonly maxKeys?: number;
}

/** The options of `redisLimitStore`. */
export interface RedisLimitStoreOptions {
  /** Prepended to every Redis key. Default `toolhooks:limit:`. */
  readonly prefix?: string;
  /**
   * How long one command may take before the store gives up (an error naming the store), in
   * milliseconds; 0 waits as long as the client does. Default 2000: a client queueing commands while it
   * reconnects would otherwise hold the call until the hook's own timeout.
   */
  readonly timeoutMs?: number;
}

/** A memory store, as `memoryLimitStore()` returns it: a {@link LimitStore} that also says how full it is. */
export interface MemoryLimitStore extends LimitStore {
  /** How many keys it holds. */
  readonly size: number;
  /** How many keys it evicted (least recently used first) to stay within `maxKeys`. */
  readonly evicted: number;
}
