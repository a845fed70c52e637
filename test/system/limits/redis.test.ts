/**
 * Limits on a real redis-server (the Debian package; CI installs it with scripts/ci-install-tools.sh):
 * the guarantee across processes — several processes hammering one key at once let exactly `limit`
 * calls through, for a lifetime limit and a sliding window — the script with hostile keys, and the
 * server stopped and restarted under a running app (fail closed naming the store, then working again
 * without restarting the app). Each test starts its own server on a free port and stops it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { HookAbortError, HookRunner, executeTool } from '../../../src/index.js';
import { limitHook, redisLimitStore } from '../../../src/limits/index.js';
import { pollUntil } from '../../support/poll.js';
import { freePort } from '../../support/ports.js';
import { requirePrograms } from '../../support/programs.js';
import type { RedisServer } from '../../support/redis.js';
import { startRedis } from '../../support/redis.js';

const HAMMER = fileURLToPath(new URL('./hammer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(ctx: { skip(note?: string): never }): Promise<RedisServer> {
  const { 'redis-server': binary } = requirePrograms(ctx, ['redis-server']);
  const redis = await startRedis(binary, await freePort());
  cleanups.push(() => redis.stop());
  return redis;
}

function client(port: number): Redis {
  const redis = new Redis({ port, host: '127.0.0.1' });
  redis.on('error', () => undefined); // reconnects are expected in these tests
  cleanups.push(() => redis.disconnect());
  return redis;
}

interface HammerResult {
  readonly ran: number;
  readonly stopped: number;
  readonly other: number;
}

/** Starts `processes` hammer processes, waits until all are connected, says go to all, and collects what each saw. */
async function hammer(port: number, processes: number, env: Record<string, string>): Promise<HammerResult[]> {
  const children = Array.from({ length: processes }, () =>
    spawn(process.execPath, ['--import', 'tsx', HAMMER], {
      cwd: ROOT,
      env: { ...process.env, REDIS_PORT: String(port), ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  let errors = '';
  for (const child of children) {
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  }
  const outputs = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]());
  const ready = await Promise.all(outputs.map((lines) => lines.next()));
  expect(ready.map((line) => line.value), errors).toEqual(children.map(() => 'ready'));
  for (const child of children) child.stdin.write('go\n');
  const results = await Promise.all(outputs.map(async (lines) => JSON.parse(String((await lines.next()).value)) as HammerResult));
  await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  return results;
}

describe('limits on a real Redis', () => {
  it.for([
    ['a lifetime limit', ''],
    ['a sliding window', '60000'],
  ] as const)('%s holds across 4 processes hammering one key: exactly `limit` calls run', { timeout: 120_000 }, async ([, windowMs], ctx) => {
    const redis = await server(ctx);
    const results = await hammer(redis.port, 4, { LIMIT: '25', WINDOW_MS: windowMs, CALLS: '40', KEY: 'user-1' });
    expect(results.map((r) => r.other)).toEqual([0, 0, 0, 0]);
    expect(results.reduce((sum, r) => sum + r.ran, 0)).toBe(25);
    expect(results.reduce((sum, r) => sum + r.stopped, 0)).toBe(4 * 40 - 25);
  });

  it('works with a node-redis client too (evalSha, loading the script the first time)', { timeout: 60_000 }, async (ctx) => {
    const redis = await server(ctx);
    const nodeRedis = createClient({ url: `redis://127.0.0.1:${redis.port}` });
    nodeRedis.on('error', () => undefined);
    await nodeRedis.connect();
    // destroy() from node-redis 5; node-redis 4 (the version matrix's oldest) has disconnect() only.
    cleanups.push(() => ('destroy' in nodeRedis ? nodeRedis.destroy() : (nodeRedis as { disconnect(): Promise<void> }).disconnect()));
    const runner = new HookRunner({ hooks: [limitHook({ name: 'nr', limit: 2, windowMs: 60_000, store: redisLimitStore(nodeRedis) })] });
    const call = () => executeTool({ hooks: runner, toolName: 'search', args: {}, execute: () => 'ran' });
    await expect(call()).resolves.toBe('ran');
    await expect(call()).resolves.toBe('ran');
    await expect(call()).rejects.toThrow('limit nr: 2 per minute reached');
  });

  it('slides: a call leaves the window after windowMs, on the server clock', { timeout: 60_000 }, async (ctx) => {
    const redis = await server(ctx);
    const store = redisLimitStore(client(redis.port));
    expect(await store.take('k', 1, 2, 400)).toEqual({ allowed: true, used: 1 });
    expect(await store.take('k', 1, 2, 400)).toEqual({ allowed: true, used: 2 });
    expect(await store.take('k', 1, 2, 400)).toEqual({ allowed: false, used: 2 });
    await pollUntil('the window to slide', async () => (await store.take('k', 1, 2, 400)).allowed, { label: 'redis', output: () => redis.log(), timeoutMs: 5000 });
    expect(await store.charge('k', 0.25, 400)).toBeGreaterThan(1);
  });

  it('stores a 1 MB key and keys with control characters or Lua and Redis syntax safely, each under a hashed name', { timeout: 60_000 }, async (ctx) => {
    const redis = await server(ctx);
    const raw = client(redis.port);
    const store = redisLimitStore(raw);
    const keys = ['x'.repeat(1 << 20), 'a\u0000b\r\nFLUSHALL\r\n', "']]) redis.call('FLUSHALL') --", '{slot}', '\u{1F600}'];
    for (const key of keys) expect(await store.take(key, 1, 1, undefined)).toEqual({ allowed: true, used: 1 });
    for (const key of keys) expect(await store.take(key, 1, 1, undefined)).toEqual({ allowed: false, used: 1 });
    const names = await raw.keys('*');
    expect(names).toHaveLength(keys.length);
    for (const name of names) expect(name).toMatch(/^toolhooks:limit:\{[0-9a-f]{64}\}:c$/);
  });

  it('Redis stopped: fail closed aborts naming the store; restarted: the limit works again without restarting the app', { timeout: 120_000 }, async (ctx) => {
    const { 'redis-server': binary } = requirePrograms(ctx, ['redis-server']);
    const port = await freePort();
    let redis = await startRedis(binary, port);
    cleanups.push(() => redis.stop());
    const app = client(port);
    const runner = new HookRunner({ hooks: [limitHook({ name: 'search_rate', limit: 3, windowMs: 60_000, store: redisLimitStore(app, { timeoutMs: 500 }) })] });
    const call = () => executeTool({ hooks: runner, toolName: 'search', args: {}, execute: () => 'ran' });
    await expect(call()).resolves.toBe('ran');

    await redis.stop();
    const down = await call().catch((error: unknown) => error);
    expect(down).toBeInstanceOf(HookAbortError);
    expect((down as Error).message).toMatch(/^hook search_rate failed: limit search_rate: limit store redis failed to take: /);

    redis = await startRedis(binary, port);
    await pollUntil('the limit to work again', () => call().then(() => true, () => false), { label: 'redis-server output', output: () => redis.log(), timeoutMs: 30_000 });
    // The restarted server starts empty: at most 3 in the window, then the limit's own sentence.
    const reason = await (async () => {
      for (let i = 0; i < 5; i += 1) {
        const outcome = await call().catch((error: unknown) => error);
        if (outcome instanceof HookAbortError) return outcome.message;
      }
      return 'never stopped';
    })();
    expect(reason).toBe('limit search_rate: 3 per minute reached');
    const info = await app.info('clients');
    expect(Number(/connected_clients:(\d+)/.exec(info)?.[1])).toBe(1);
  });
});
