/**
 * The Redis limit store: every take and charge is one call of one Lua script (`redis-script.ts`), so a
 * limit holds across every process that shares the Redis. It takes the app's own client — ioredis or
 * node-redis v4+ — and never imports a Redis package: the client is recognised by its methods.
 */
import { quoteValue } from '../internal/describe.js';
import { duration, readOptions, string } from '../internal/validate.js';
import { LIMIT_SCRIPT, LIMIT_SCRIPT_SHA1 } from './redis-script.js';
import { sha256Hex } from './store-key.js';
import type { LimitStore, LimitTake, RedisLimitStoreOptions } from './types.js';

/** Runs the script with its keys and arguments: by its SHA-1, loading it on the server first when it is not cached. */
type RunScript = (keys: readonly string[], args: readonly string[]) => Promise<unknown>;

/** ioredis: `evalsha(sha, numKeys, ...keys, ...args)`. */
interface IoRedisLike {
  evalsha(sha: string, numKeys: number, ...rest: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...rest: string[]): Promise<unknown>;
}

/** node-redis v4 and later: `evalSha(sha, { keys, arguments })`. */
interface NodeRedisLike {
  evalSha(sha: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

const DEFAULT_PREFIX = 'toolhooks:limit:';
const DEFAULT_TIMEOUT_MS = 2000;

/** Whether Redis answered that it does not have the script cached (a restarted or flushed server). */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/** How to run the script with `client`, or undefined when it is neither an ioredis nor a node-redis client. */
function scriptRunner(client: unknown): RunScript | undefined {
  if (typeof client !== 'object' || client === null) return undefined;
  const candidate = client as Partial<Record<'evalsha' | 'evalSha' | 'eval', unknown>>;
  if (typeof candidate.evalsha === 'function' && typeof candidate.eval === 'function') {
    const io = client as IoRedisLike;
    // Not async: one promise per call less (the call is one round trip; what wraps it should not add).
    return (keys, args) =>
      io.evalsha(LIMIT_SCRIPT_SHA1, keys.length, ...keys, ...args).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        return io.eval(LIMIT_SCRIPT, keys.length, ...keys, ...args);
      });
  }
  if (typeof candidate.evalSha === 'function' && typeof candidate.eval === 'function') {
    const node = client as NodeRedisLike;
    return (keys, args) =>
      node.evalSha(LIMIT_SCRIPT_SHA1, { keys: [...keys], arguments: [...args] }).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        return node.eval(LIMIT_SCRIPT, { keys: [...keys], arguments: [...args] });
      });
  }
  return undefined;
}

/** The script's answer `[allowed, used]`, checked: anything else is an error naming what came back. */
function readAnswer(answer: unknown): LimitTake {
  if (Array.isArray(answer) && answer.length === 2) {
    const [allowed, used] = answer as [unknown, unknown];
    const count = typeof used === 'string' || typeof used === 'number' ? Number(used) : Number.NaN;
    if ((allowed === 0 || allowed === 1) && Number.isFinite(count)) return { allowed: allowed === 1, used: count };
  }
  throw new Error(`the limit script answered ${quoteValue(answer)}, not [allowed, used]`);
}

/** The store behind `redisLimitStore()`. */
class RedisStore implements LimitStore {
  readonly name = 'redis';
  readonly #run: RunScript;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  /** The Redis keys of recently used keys: hashing is most of a call's own work, and keys repeat. */
  readonly #hashed = new Map<string, readonly string[]>();

  constructor(run: RunScript, prefix: string, timeoutMs: number) {
    this.#run = run;
    this.#prefix = prefix;
    this.#timeoutMs = timeoutMs;
  }

  take(key: string, cost: number, limit: number, windowMs: number | undefined): Promise<LimitTake> {
    return this.#call(key, 'take', cost, limit, windowMs);
  }

  charge(key: string, cost: number, windowMs: number | undefined): Promise<number> {
    return this.#call(key, 'charge', cost, 0, windowMs).then((answer) => answer.used);
  }

  /**
   * The Redis keys of a key. The user's key only ever reaches Redis hashed: a 1 MB key, or one with
   * control characters or braces, is 64 hex characters. The braces make both keys one hash slot (Redis
   * Cluster). Short keys are remembered (up to 4096; then the memory starts again).
   */
  #redisKeys(key: string): readonly string[] {
    let keys = this.#hashed.get(key);
    if (keys !== undefined) return keys;
    const slot = `${this.#prefix}{${sha256Hex(key)}}`;
    keys = [`${slot}:w`, `${slot}:c`];
    if (key.length <= 256) {
      if (this.#hashed.size >= 4096) this.#hashed.clear();
      this.#hashed.set(key, keys);
    }
    return keys;
  }

  /** The client is the app's: closing the store leaves it open. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  #call(key: string, op: 'take' | 'charge', cost: number, limit: number, windowMs: number | undefined): Promise<LimitTake> {
    let pending: Promise<unknown>;
    try {
      pending = this.#run(this.#redisKeys(key), [op, String(cost), String(limit), String(windowMs ?? 0)]);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return answerWithin(pending, this.#timeoutMs);
  }
}

/**
 * The script's answer, checked, or an error once `timeoutMs` passed (0: no limit): one promise for both.
 * The timer never keeps a process alive.
 */
function answerWithin(pending: Promise<unknown>, timeoutMs: number): Promise<LimitTake> {
  if (timeoutMs === 0) return pending.then(readAnswer);
  return new Promise<LimitTake>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    pending.then(
      (value) => {
        clearTimeout(timer);
        try {
          resolve(readAnswer(value));
        } catch (error) {
          reject(error as Error);
        }
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * A limit store on Redis, shared by every process that uses the same server: each take is one atomic
 * Lua script, timed by the server's clock. `client` is your ioredis or node-redis (v4+) client; the store
 * never opens, closes or configures it, and toolhooks never imports a Redis package. Keys are the
 * SHA-256 of the limit's key, under `prefix`; a windowed key expires once its window has passed.
 * A command that fails or takes longer than `timeoutMs` is a hook error naming the store, which the
 * limit hook's `failureMode` decides about (default: the call is aborted).
 *
 * @throws TypeError when `client` has neither ioredis's `evalsha` nor node-redis's `evalSha`, or an option is wrong.
 * @example
 * ```ts
 * import Redis from 'ioredis';
 * const store = redisLimitStore(new Redis(process.env.REDIS_URL));
 * const perConversation = limitHook({ name: 'send_email', tools: ['send_email'], limit: 3, key: (_t, _a, s: { conversationId: string }) => s.conversationId, store });
 * ```
 */
export function redisLimitStore(client: unknown, options?: RedisLimitStoreOptions): LimitStore {
  const run = scriptRunner(client);
  if (run === undefined) {
    throw new TypeError(
      `redisLimitStore(client) needs an ioredis or node-redis (v4+) client (with evalsha or evalSha, and eval), got ${quoteValue(client)}`,
    );
  }
  const { prefix, timeoutMs } = readOptions(options, 'redisLimitStore(client, options)', 'redisLimitStore', { prefix: string, timeoutMs: duration(0) });
  if (prefix !== undefined && /[{}]/.test(prefix)) {
    throw new TypeError(`redisLimitStore: prefix must not contain { or } (toolhooks puts the hash slot in braces), got ${quoteValue(prefix)}`);
  }
  return new RedisStore(run, prefix ?? DEFAULT_PREFIX, timeoutMs ?? DEFAULT_TIMEOUT_MS);
}
