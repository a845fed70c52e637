/**
 * Whether a value is a thenable (what `await` would adopt): an object or function with a callable
 * `then`. Reads `then` once; a `then` getter that throws throws here, as `await` would reject with it.
 * @internal
 * @example
 * ```ts
 * let result = run();
 * if (isThenable(result)) result = await result; // a plain value costs no promise and no turn
 * ```
 */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}
