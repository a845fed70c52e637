/**
 * The limits' rows (toolhooks/limits): a limit hook against the same limit written by hand, each run
 * through executeTool, in the same run.
 * - memory: `limitHook` on its memory store against a hook keeping a sliding window in a `Map` (target ≤ 1.2×);
 * - Redis (only with BENCH_REDIS_URL, e.g. `redis://127.0.0.1:6390`): `limitHook` on `redisLimitStore`
 *   against a hook calling the same Lua script by hand with the same ioredis client (target ≤ 1.1×): one
 *   round trip per call, one call at a time and 16 at once (ioredis pipelines what is in flight).
 * The limits are never reached: what is measured is the check and take of a call that goes on.
 */
import { Redis } from 'ioredis';
import type { ToolHook } from '../src/index.js';
import { LIMIT_SCRIPT, LIMIT_SCRIPT_SHA1 } from '../src/limits/redis-script.js';
import type { Library } from './library.js';
import type { Scenario } from './scenarios.js';
import { ARGS, CALL_ID, TOOL_NAME, tool } from './workload.js';

/** Never reached: every measured call is let through. */
const LIMIT = 1e12;
/** Short, so that each key's window holds a bounded number of takes while the bench runs. */
const WINDOW_MS = 50;
const CONCURRENCY = 16;

/** The hand-written limit: a sliding window of take times per key in a Map, checked and taken in one step. */
function handWrittenLimit(lib: Library): ToolHook {
  const windows = new Map<string, number[]>();
  return {
    name: 'hand-limit',
    beforeTool: (toolName) => {
      const now = performance.now();
      let times = windows.get(toolName);
      if (times === undefined) {
        times = [];
        windows.set(toolName, times);
      }
      let expired = 0;
      while (expired < times.length && (times[expired] as number) <= now - WINDOW_MS) expired += 1;
      if (expired > 0) times.splice(0, expired);
      if (times.length + 1 > LIMIT) return lib.abort('limit reached');
      times.push(now);
      return undefined;
    },
  };
}

/** The same Lua script the Redis store runs, called by hand: EVALSHA, loading it with EVAL when missing. */
async function evalLimit(client: Redis, keys: readonly string[], args: readonly string[]): Promise<unknown> {
  try {
    return await client.evalsha(LIMIT_SCRIPT_SHA1, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return client.eval(LIMIT_SCRIPT, keys.length, ...keys, ...args);
  }
}

function handWrittenRedisLimit(lib: Library, client: Redis): ToolHook {
  const keys = ['bench:hand:{search}:w', 'bench:hand:{search}:c'];
  const args = ['take', '1', String(LIMIT), String(WINDOW_MS)];
  return {
    name: 'hand-redis-limit',
    beforeTool: async () => {
      const answer = (await evalLimit(client, keys, args)) as [number, string];
      return answer[0] === 1 ? undefined : lib.abort('limit reached');
    },
  };
}

function call(lib: Library, hook: ToolHook, concurrency = 1): () => Promise<unknown> {
  const runner = new lib.HookRunner({ hooks: [hook] });
  const one = (): Promise<unknown> => lib.executeTool({ hooks: runner, toolName: TOOL_NAME, args: ARGS, execute: tool, callId: CALL_ID });
  if (concurrency === 1) return one;
  return () => Promise.all(Array.from({ length: concurrency }, one));
}

/** The Redis client the Redis rows share (both sides), made once when BENCH_REDIS_URL is set. */
let redisClient: Redis | undefined;

/** Closes the Redis client, if the rows made one. */
export function closeLimitBench(): void {
  redisClient?.disconnect();
  redisClient = undefined;
}

/** The limits' scenarios (no SDK); none when the build measured has no toolhooks/limits. */
export function limitScenarios(lib: Library): Scenario[] {
  const limits = lib.limits;
  if (limits === undefined) return [];
  const scenarios: Scenario[] = [
    { id: 'nosdk.limit.hand', label: 'no SDK: executeTool, hand-written Map sliding window', setting: 'no-sdk', library: false, call: call(lib, handWrittenLimit(lib)) },
    {
      id: 'nosdk.limit',
      label: 'no SDK: executeTool, limitHook (memory store, sliding window)',
      setting: 'no-sdk',
      baseline: 'nosdk.limit.hand',
      library: true,
      paired: true,
      target: { maxRatio: 1.2 },
      call: call(lib, limits.limitHook({ name: 'rate', limit: LIMIT, windowMs: WINDOW_MS })),
    },
  ];
  const url = process.env['BENCH_REDIS_URL'];
  if (url === undefined || url === '') return scenarios;
  const client = (redisClient ??= new Redis(url, { enableAutoPipelining: false }));
  const store = limits.redisLimitStore(client);
  for (const concurrency of [1, CONCURRENCY]) {
    const suffix = concurrency === 1 ? '' : `-x${concurrency}`;
    const what = concurrency === 1 ? 'one call at a time' : `${concurrency} calls at once`;
    scenarios.push(
      { id: `nosdk.limit-redis${suffix}.hand`, label: `no SDK: the limit script by hand on Redis, ${what}`, setting: 'no-sdk', library: false, call: call(lib, handWrittenRedisLimit(lib, client), concurrency) },
      {
        id: `nosdk.limit-redis${suffix}`,
        label: `no SDK: limitHook on redisLimitStore, ${what}`,
        setting: 'no-sdk',
        baseline: `nosdk.limit-redis${suffix}.hand`,
        library: true,
        // From the rounds, not paired: a round trip dwarfs the pairs' timing noise, and 600 batches of
        // 2,000 round trips would take many minutes.
        target: { maxRatio: 1.1 },
        call: call(lib, limits.limitHook({ name: 'rate', limit: LIMIT, windowMs: WINDOW_MS, store }), concurrency),
      },
    );
  }
  return scenarios;
}
