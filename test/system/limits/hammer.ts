/**
 * One process of a fleet hammering one limit on a shared Redis (test/system/limits/redis.test.ts):
 * connects, says `ready`, waits for `go` on stdin, then fires CALLS tool calls at once through a
 * runner with a Redis-backed limit hook, and prints how many ran and how many the limit stopped.
 * Env: REDIS_PORT, LIMIT, WINDOW_MS (empty: lifetime), CALLS, KEY.
 */
import { createInterface } from 'node:readline';
import { Redis } from 'ioredis';
import { HookAbortError, HookRunner, executeTool } from '../../../src/index.js';
import { limitHook, redisLimitStore } from '../../../src/limits/index.js';

const env = (name: string): string => process.env[name] ?? '';
const client = new Redis({ port: Number(env('REDIS_PORT')), host: '127.0.0.1' });
const windowMs = env('WINDOW_MS') === '' ? undefined : Number(env('WINDOW_MS'));
const hook = limitHook<{ user: string }>({
  name: 'hammer',
  limit: Number(env('LIMIT')),
  ...(windowMs === undefined ? {} : { windowMs }),
  key: (_tool, _args, state) => state.user,
  store: redisLimitStore(client, { timeoutMs: 10_000 }),
});
const runner = new HookRunner<{ user: string }>({ hooks: [hook] });

await client.ping();
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line === 'go') break;

let ran = 0;
let stopped = 0;
let other = 0;
await Promise.all(
  Array.from({ length: Number(env('CALLS')) }, async () => {
    try {
      await executeTool({ hooks: runner, toolName: 'search', args: {}, state: { user: env('KEY') }, execute: () => (ran += 1) });
    } catch (error) {
      if (error instanceof HookAbortError && error.message.startsWith('limit hammer:')) stopped += 1;
      else other += 1;
    }
  }),
);
process.stdout.write(`${JSON.stringify({ ran, stopped, other })}\n`);
client.disconnect();
lines.close();
