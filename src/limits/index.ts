/**
 * `toolhooks/limits`: limits on tool calls — call counts, rates and budgets per key — that hold across
 * every process sharing their store, recorded on each decision. See docs/limits.md.
 *
 * @example
 * ```ts
 * import Redis from 'ioredis';
 * import { HookRunner } from 'toolhooks';
 * import { limitHook, redisLimitStore } from 'toolhooks/limits';
 *
 * const store = redisLimitStore(new Redis(process.env.REDIS_URL));
 * const runner = new HookRunner<{ userId: string }>({
 *   hooks: [limitHook({ name: 'search_rate', tools: ['web_search'], limit: 20, windowMs: 60_000, key: (_tool, _args, state) => state.userId, store })],
 * });
 * ```
 */
export { limitHook } from './limit-hook.js';
export { memoryLimitStore } from './memory-store.js';
export { redisLimitStore } from './redis-store.js';
export type { LimitExceeded, LimitHookOptions, LimitStore, LimitTake, MemoryLimitStore, MemoryLimitStoreOptions, RedisLimitStoreOptions } from './types.js';
