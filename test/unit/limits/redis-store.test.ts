import { describe, expect, it } from 'vitest';
import { redisLimitStore } from '../../../src/limits/index.js';
import { LIMIT_SCRIPT, LIMIT_SCRIPT_SHA1 } from '../../../src/limits/redis-script.js';

/** A client that answers like ioredis (positional arguments); `cached` says whether the server has the script. */
function ioredisLike(answer: unknown, cached = true) {
  const calls: { method: string; args: unknown[] }[] = [];
  const client = {
    calls,
    evalsha: (...args: unknown[]) => {
      calls.push({ method: 'evalsha', args });
      return cached ? Promise.resolve(answer) : Promise.reject(new Error('NOSCRIPT No matching script. Please use EVAL.'));
    },
    eval: (...args: unknown[]) => {
      calls.push({ method: 'eval', args });
      cached = true;
      return Promise.resolve(answer);
    },
  };
  return client;
}

describe('redisLimitStore', () => {
  it('runs the one script by its SHA-1 with hashed keys in one hash slot and the cost, limit and window as arguments', async () => {
    const client = ioredisLike([1, '3']);
    const store = redisLimitStore(client);
    expect(await store.take('5:limit:user\u0000\r\n{x}', 1, 10, 60_000)).toEqual({ allowed: true, used: 3 });
    const [sha, numKeys, windowKey, countKey, ...args] = client.calls[0]?.args ?? [];
    expect(sha).toBe(LIMIT_SCRIPT_SHA1);
    expect(numKeys).toBe(2);
    expect(windowKey).toMatch(/^toolhooks:limit:\{[0-9a-f]{64}\}:w$/);
    expect(countKey).toBe(String(windowKey).replace(/:w$/, ':c'));
    expect(args).toEqual(['take', '1', '10', '60000']);
    expect(JSON.stringify(client.calls)).not.toContain('user');
  });

  it('loads the script with EVAL when the server does not have it (a restarted server)', async () => {
    const client = ioredisLike([0, '2.5'], false);
    const store = redisLimitStore(client, { prefix: 'app:' });
    expect(await store.take('k', 1, 2, undefined)).toEqual({ allowed: false, used: 2.5 });
    expect(client.calls.map((c) => c.method)).toEqual(['evalsha', 'eval']);
    expect(client.calls[1]?.args[0]).toBe(LIMIT_SCRIPT);
    expect(String(client.calls[1]?.args[2])).toMatch(/^app:\{/);
    expect(await store.charge('k', 2, undefined)).toBe(2.5);
    expect(client.calls[2]?.args.slice(4)).toEqual(['charge', '2', '0', '0']);
  });

  it('works with a node-redis (v4+) client: evalSha with keys and arguments', async () => {
    const calls: unknown[][] = [];
    let cached = false;
    const client = {
      evalSha: (...args: unknown[]) => {
        calls.push(['evalSha', ...args]);
        return cached ? Promise.resolve([1, 1]) : Promise.reject(new Error('NOSCRIPT'));
      },
      eval: (...args: unknown[]) => {
        calls.push(['eval', ...args]);
        cached = true;
        return Promise.resolve([1, 1]);
      },
    };
    const store = redisLimitStore(client);
    expect(await store.take('k', 1, 5, 1000)).toEqual({ allowed: true, used: 1 });
    expect(await store.take('k', 1, 5, 1000)).toEqual({ allowed: true, used: 1 });
    expect(calls.map((c) => c[0])).toEqual(['evalSha', 'eval', 'evalSha']);
    expect(calls[0]?.[2]).toMatchObject({ arguments: ['take', '1', '5', '1000'] });
  });

  it('passes a Redis error on (the hook names the store) and checks the answer', async () => {
    const failing = { evalsha: () => Promise.reject(new Error('WRONGTYPE')), eval: () => Promise.resolve(null) };
    await expect(redisLimitStore(failing).take('k', 1, 1, undefined)).rejects.toThrow('WRONGTYPE');
    const rejectsNonError = { evalsha: () => Promise.reject('down'), eval: () => Promise.resolve(null) };
    await expect(redisLimitStore(rejectsNonError).take('k', 1, 1, undefined)).rejects.toThrow('down');
    await expect(redisLimitStore(ioredisLike('OK')).take('k', 1, 1, undefined)).rejects.toThrow('the limit script answered the string "OK"');
    await expect(redisLimitStore(ioredisLike([2, '1'])).take('k', 1, 1, undefined)).rejects.toThrow('not [allowed, used]');
  });

  it('gives up on a command that takes longer than timeoutMs', async () => {
    const hanging = { evalsha: () => new Promise(() => undefined), eval: () => new Promise(() => undefined) };
    await expect(redisLimitStore(hanging, { timeoutMs: 20 }).take('k', 1, 1, undefined)).rejects.toThrow('no answer within 20 ms');
    const slowButFine = { evalsha: () => new Promise((resolve) => setTimeout(() => resolve([1, '1']), 5)), eval: () => Promise.resolve(null) };
    await expect(redisLimitStore(slowButFine, { timeoutMs: 0 }).take('k', 1, 1, undefined)).resolves.toEqual({ allowed: true, used: 1 });
  });

  it('a client that throws at once, or answers with something that is not a promise, rejects', async () => {
    const throwing = { evalsha: () => { throw new Error('closed'); }, eval: () => Promise.resolve(null) };
    await expect(redisLimitStore(throwing).take('k', 1, 1, undefined)).rejects.toThrow('closed');
    const throwsString = { evalsha: () => { throw 'nope'; }, eval: () => Promise.resolve(null) };
    await expect(redisLimitStore(throwsString).take('k', 1, 1, undefined)).rejects.toThrow('nope');
    const notAPromise = { evalsha: () => [1, '1'], eval: () => Promise.resolve(null) };
    await expect(redisLimitStore(notAPromise).take('k', 1, 1, undefined)).rejects.toThrow(TypeError);
  });

  it('hashes a long key every time (not remembered) and a short one once, to the same Redis keys', async () => {
    const client = ioredisLike([1, '1']);
    const store = redisLimitStore(client);
    const long = 'k'.repeat(300);
    await store.take(long, 1, 5, undefined);
    await store.take(long, 1, 5, undefined);
    for (let i = 0; i < 4100; i += 1) await store.take(`user-${i}`, 1, 5, undefined);
    await store.take('user-0', 1, 5, undefined);
    const keysOf = (index: number) => client.calls[index]?.args.slice(2, 4);
    expect(keysOf(0)).toEqual(keysOf(1));
    expect(keysOf(2)).toEqual(keysOf(client.calls.length - 1));
  });

  it('close() leaves the client alone', async () => {
    const client = ioredisLike([1, '1']);
    await redisLimitStore(client).close?.();
    expect(client.calls).toEqual([]);
  });

  it.each([[null], [{}], ['redis://localhost'], [{ evalsha: () => undefined }]])('rejects %j as a client with a TypeError', (client) => {
    expect(() => redisLimitStore(client)).toThrow(TypeError);
    expect(() => redisLimitStore(client)).toThrow('redisLimitStore(client) needs an ioredis or node-redis (v4+) client');
  });

  it('rejects bad options', () => {
    const client = ioredisLike([1, '1']);
    expect(() => redisLimitStore(client, { prefix: 'a{b}' })).toThrow('must not contain { or }');
    expect(() => redisLimitStore(client, { timeoutMs: -1 })).toThrow(RangeError);
    expect(() => redisLimitStore(client, { prefx: 'a' } as never)).toThrow('did you mean "prefix"?');
  });
});
