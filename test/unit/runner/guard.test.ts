/**
 * The guard around user code: whatever a hook, matcher or observer does — return, throw, reject, never
 * settle — comes back as a value, never as an exception or an unhandled rejection.
 */
import { describe, expect, it, vi } from 'vitest';
import { HookTimeoutError } from '../../../src/errors.js';
import { callObserver, callSync, callUser } from '../../../src/runner/guard.js';

const id = (a: unknown): unknown => a;

describe('callUser', () => {
  it('settles a synchronous result synchronously, with the arguments passed through', () => {
    const settled = callUser((a: number, b: number, c: number) => a + b + c, 1, 2, 3);
    expect(settled).toEqual({ ok: true, value: 6 });
  });

  it('turns a synchronous throw into kind threw, whatever was thrown', () => {
    expect(callUser(() => { throw 'a string'; }, 0, 0, 0)).toEqual({ ok: false, kind: 'threw', error: 'a string' });
  });

  it('awaits a promise and turns a rejection into kind threw', async () => {
    await expect(callUser(async (a: string) => a.toUpperCase(), 'x', 0, 0)).resolves.toEqual({ ok: true, value: 'X' });
    const error = new Error('rejected');
    await expect(callUser(() => Promise.reject(error), 0, 0, 0)).resolves.toEqual({ ok: false, kind: 'threw', error });
  });

  it('treats a returned value whose then cannot be read as a value, not as a throw', () => {
    const odd = new Proxy({}, { get: () => { throw new Error('no then'); } });
    const settled = callUser(() => odd, 0, 0, 0);
    expect(settled).toMatchObject({ ok: true });
  });

  it('turns a thenable whose then throws into kind threw', async () => {
    const error = new Error('then threw');
    const thenable = { then: () => { throw error; } };
    await expect(callUser(() => thenable, 0, 0, 0)).resolves.toEqual({ ok: false, kind: 'threw', error });
  });

  it('ends a hook that never settles at its timeout, and runs onTimeout with the arguments', async () => {
    vi.useFakeTimers();
    try {
      const onTimeout = vi.fn();
      const pending = callUser(() => new Promise(() => undefined), 'a', 'b', 'c', 50, onTimeout);
      await vi.advanceTimersByTimeAsync(49);
      expect(onTimeout).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      const settled = await pending;
      expect(settled).toMatchObject({ ok: false, kind: 'timeout' });
      expect((settled as { error: unknown }).error).toBeInstanceOf(HookTimeoutError);
      expect(onTimeout).toHaveBeenCalledWith('a', 'b', 'c');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the timeout result when onTimeout throws, and absorbs a rejection that comes after it', async () => {
    vi.useFakeTimers();
    try {
      let reject: (error: unknown) => void = id;
      const late = new Promise((_resolve, rejectLate) => (reject = rejectLate));
      const pending = callUser(() => late, 0, 0, 0, 10, () => { throw new Error('listener'); });
      await vi.advanceTimersByTimeAsync(10);
      reject(new Error('late'));
      await expect(pending).resolves.toMatchObject({ ok: false, kind: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves no timer behind once a hook settles in time', async () => {
    vi.useFakeTimers();
    try {
      const settled = callUser(() => Promise.resolve('fast'), 0, 0, 0, 1000);
      await expect(settled).resolves.toEqual({ ok: true, value: 'fast' });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('callObserver', () => {
  it('returns nothing when the observer returns, and the error when it throws', () => {
    expect(callObserver(() => 'ignored')).toBeUndefined();
    const error = new Error('observer');
    expect(callObserver(() => { throw error; })).toEqual({ error });
  });

  it('does not let a rejected promise from an observer go unhandled', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      expect(callObserver(() => Promise.reject(new Error('async observer')))).toBeUndefined();
      await new Promise((done) => setImmediate(done));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe('callSync', () => {
  it('returns what the function returned or what it threw', () => {
    expect(callSync(() => true)).toEqual({ ok: true, value: true });
    expect(callSync(() => { throw 7; })).toEqual({ ok: false, error: 7 });
  });
});
