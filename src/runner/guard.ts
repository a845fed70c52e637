/**
 * The one place user code is called from: hook methods, matchers, observers, state updaters.
 * It turns whatever user code does — return, throw, reject, never settle — into a value the runner
 * can reason about, and never lets it reach the tool path.
 * @internal
 */
import { isThenable } from '../internal/thenable.js';
import { HookTimeoutError } from '../errors.js';

/** How a call to user code ended. */
export type Settled =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly kind: 'threw' | 'timeout'; readonly error: unknown };


/**
 * Calls `fn(a, b, c)`. A synchronous result settles synchronously (no timer, no promise); a thenable is
 * raced against `timeoutMs` (0 = no timeout), and `onTimeout(a, b, c)` runs when the timer wins so the
 * hook's AbortSignal can fire. A late rejection after a timeout is absorbed, never unhandled. The
 * arguments are passed through rather than captured so that a call allocates no closure.
 */
export function callUser<A, B, C>(
  fn: (a: A, b: B, c: C) => unknown,
  a: A,
  b: B,
  c: C,
  timeoutMs = 0,
  onTimeout?: (a: A, b: B, c: C) => void,
): Settled | Promise<Settled> {
  let value: unknown;
  try {
    value = fn(a, b, c);
  } catch (error) {
    return { ok: false, kind: 'threw', error };
  }
  let thenable: boolean;
  try {
    thenable = isThenable(value);
  } catch {
    // The hook returned normally; a value whose `then` cannot even be read is not a promise, and the
    // caller's check of the value reports it (an invalid decision), not the hook as having thrown.
    thenable = false;
  }
  if (!thenable) return value === undefined ? RETURNED_NOTHING : { ok: true, value };
  return settleThenable(value as PromiseLike<unknown>, timeoutMs, onTimeout === undefined ? undefined : () => onTimeout(a, b, c));
}

/** The settlement of a call that returned nothing (the usual Continue): shared, as it carries no value. */
const RETURNED_NOTHING: Settled = Object.freeze({ ok: true, value: undefined });

/** Calls an observer-style function whose return value is ignored; returns the error it threw, if any. */
export function callObserver(fn: () => unknown): { error: unknown } | undefined {
  try {
    const value = fn();
    if (isThenable(value)) {
      // Observers are synchronous by contract; a promise they return is not awaited, but its
      // rejection must not become an unhandled rejection in the host process.
      Promise.resolve(value).catch(() => undefined);
    }
    return undefined;
  } catch (error) {
    return { error };
  }
}

function settleThenable(value: PromiseLike<unknown>, timeoutMs: number, onTimeout?: () => void): Promise<Settled> {
  return new Promise<Settled>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        resolve({ ok: false, kind: 'timeout', error: new HookTimeoutError(timeoutMs) });
        try {
          onTimeout?.();
        } catch {
          // aborting a signal runs the hook's own abort listeners; their errors are theirs
        }
      }, timeoutMs);
      // Not unref()'d: the caller is awaiting this call, and the timer is what ends a hook that never
      // settles. It is cleared as soon as the hook settles, so it never outlives the call.
    }
    try {
      value.then(
        (result) => {
          if (timer !== undefined) clearTimeout(timer);
          resolve({ ok: true, value: result });
        },
        (error: unknown) => {
          if (timer !== undefined) clearTimeout(timer);
          resolve({ ok: false, kind: 'threw', error });
        },
      );
    } catch (error) {
      if (timer !== undefined) clearTimeout(timer);
      resolve({ ok: false, kind: 'threw', error });
    }
  });
}

/** Calls a synchronous user function (a matcher); returns what it returned or what it threw. */
export function callSync<T>(fn: () => T): { ok: true; value: T } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}
