/**
 * Validation of what users pass to the runner, the flows and the adapters: bad input is a
 * TypeError/RangeError naming the parameter and the fix, raised before any hook runs.
 * @internal
 */
import { typeName } from './describe.js';
import { isPlainObject } from '../decisions.js';
import type { ToolArgs } from '../hook.js';

export function requireObject(value: unknown, what: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') throw new TypeError(`${what} must be an object, got ${typeName(value)}`);
}

export function requireToolName(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0) {
    throw new TypeError(`${what} must be a non-empty string, got ${typeof value === 'string' ? 'an empty string' : typeName(value)}`);
  }
}

export function requireArgs(value: unknown, what: string): asserts value is ToolArgs {
  if (!isPlainObject(value)) throw new TypeError(`${what} must be a plain object of tool arguments, got ${typeName(value)}`);
}

export function requireFunction(value: unknown, what: string): void {
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function, got ${typeName(value)}`);
}

export function optionalCount(value: unknown, fallback: number, what: string, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new RangeError(`${what} must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

export function optionalString(value: unknown, what: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeName(value)}`);
  return value;
}

/**
 * Rejects option names that `where` does not know: a misspelt option would otherwise be ignored
 * silently (a `timeout` meant as `timeoutMs` leaves the default in force). `hints` maps known
 * misspellings to the right name; otherwise a name that differs only in case or by a letter or two
 * is suggested.
 */
export function rejectUnknownOptions(
  options: object,
  known: readonly string[] | ReadonlySet<string>,
  where: string,
  hints: Readonly<Record<string, string>> = {},
): void {
  // for…in, not Object.keys: no array per call (options objects are plain, so no inherited keys).
  for (const key in options) {
    if (Array.isArray(known) ? known.includes(key) : (known as ReadonlySet<string>).has(key)) continue;
    const names = [...known];
    const hint = Object.prototype.hasOwnProperty.call(hints, key) ? hints[key] : closest(key, names);
    throw new TypeError(
      `${where}: unknown option ${JSON.stringify(key)}` +
        (hint === undefined ? `; the options are ${names.join(', ')}` : `; did you mean ${JSON.stringify(hint)}?`),
    );
  }
}

/** The known name closest to `key` (same letters ignoring case and '_', or at most two edits away). */
function closest(key: string, known: readonly string[]): string | undefined {
  const folded = fold(key);
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of known) {
    if (fold(name) === folded) return name;
    const distance = editDistance(key.toLowerCase(), name.toLowerCase(), bestDistance);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Levenshtein distance, giving up (returning `limit`) once it reaches `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin >= limit) return limit;
    previous = current;
  }
  return Math.min(previous[b.length] ?? limit, limit);
}
