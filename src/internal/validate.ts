/**
 * The one option-checking helper: what users pass to the runner, the flows, the adapters, the observer
 * hooks, startTelemetry and replay. An unknown option is a TypeError naming the nearest known one; a
 * value of the wrong type is a TypeError quoting what it got; a value out of range (a duration a timer
 * cannot hold included) is a RangeError naming the option — all raised before any hook runs.
 * {@link readOptions} checks a whole options object against a table of {@link OptionCheck}s.
 * @internal
 */
import { quoteValue, typeName } from './describe.js';
import { isPlainObject } from '../decisions.js';
import type { ToolArgs } from '../hook.js';

/** No known misspellings: one shared object, not a new default per call (the flows check options on every call). */
const NO_HINTS: Readonly<Record<string, string>> = Object.freeze({});
/** What `readOptions` returns for no options: one frozen object, not one per call (the run methods read theirs on every call). */
const NO_OPTIONS: Readonly<Record<string, never>> = Object.freeze({});

export function requireObject(value: unknown, what: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') throw new TypeError(`${what} must be an object, got ${quoteValue(value)}`);
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
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function, got ${quoteValue(value)}`);
}

export function optionalCount(value: unknown, fallback: number, what: string, min = 0): number {
  if (value === undefined) return fallback;
  return count(min)(value, what);
}

/** The longest delay a timer can hold (Node clamps longer ones to 1 ms): 2^31 - 1 ms, about 24.8 days. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Checks one option's value: returns it, or throws a TypeError/RangeError naming `what` and quoting the value. */
type OptionCheck<T = unknown> = (value: unknown, what: string) => T;

/**
 * Checks an options object: not an object → TypeError; an unknown key → TypeError naming the nearest
 * known one (`hints` maps known misspellings); each given (not undefined) value through its check.
 * `undefined` reads as `{}`. Returns a snapshot: a new object with each given known option as it was
 * read for its check, so that an option that is a getter (or a Proxy trap) cannot pass the check with
 * one value and be used with another; read the options from it, never from `value` again.
 *
 * @example
 * ```ts
 * const options = readOptions(raw, 'MetricsHook(options)', 'MetricsHook', { name: string, tools: anything, meter: object });
 * ```
 */
export function readOptions<C extends Record<string, OptionCheck>>(
  value: unknown,
  what: string,
  where: string,
  checks: C,
  hints: Readonly<Record<string, string>> = NO_HINTS,
): { readonly [K in keyof C]?: ReturnType<C[K]> } {
  if (value === undefined) return NO_OPTIONS;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`${what} must be an object, got ${quoteValue(value)}`);
  const known = Object.keys(checks);
  rejectUnknownOptions(value, known, where, hints);
  const snapshot: Record<string, unknown> = {};
  for (const key of known) {
    const option: unknown = (value as Record<string, unknown>)[key];
    if (option === undefined) continue;
    (checks[key] as OptionCheck)(option, `${where}: ${key}`);
    snapshot[key] = option;
  }
  return snapshot as { readonly [K in keyof C]?: ReturnType<C[K]> };
}

/** Any value (checked elsewhere). */
export const anything: OptionCheck = (value) => value;

export const string: OptionCheck<string> = (value, what) => {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${quoteValue(value)}`);
  return value;
};

export const boolean: OptionCheck<boolean> = (value, what) => {
  if (typeof value !== 'boolean') throw new TypeError(`${what} must be true or false, got ${quoteValue(value)}`);
  return value;
};

export const func: OptionCheck<(...args: never[]) => unknown> = (value, what) => {
  if (typeof value !== 'function') throw new TypeError(`${what} must be a function, got ${quoteValue(value)}`);
  return value as (...args: never[]) => unknown;
};

export const object: OptionCheck<object> = (value, what) => {
  if (value === null || typeof value !== 'object') throw new TypeError(`${what} must be an object, got ${quoteValue(value)}`);
  return value;
};

export const abortSignal: OptionCheck<AbortSignal> = (value, what) => {
  if (!(value instanceof AbortSignal)) throw new TypeError(`${what} must be an AbortSignal, got ${quoteValue(value)}`);
  return value;
};

/** One of the given strings. */
export function oneOf<T extends string>(...allowed: readonly T[]): OptionCheck<T> {
  return (value, what) => {
    if (!(allowed as readonly unknown[]).includes(value)) {
      throw new TypeError(`${what} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${quoteValue(value)}`);
    }
    return value as T;
  };
}

/** An integer >= `min`. */
export function count(min = 0): OptionCheck<number> {
  return (value, what) => {
    if (typeof value !== 'number') throw new TypeError(`${what} must be an integer >= ${min}, got ${quoteValue(value)}`);
    if (!Number.isInteger(value) || value < min) throw new RangeError(`${what} must be an integer >= ${min}, got ${quoteValue(value)}`);
    return value;
  };
}

/**
 * A duration in milliseconds a timer can hold: a number from `min` (0 means none where the option
 * allows it) to {@link MAX_TIMER_MS}. A longer one would fire after 1 ms, so it is a RangeError.
 */
export function duration(min: 0 | 1 = 0): OptionCheck<number> {
  const range = `a number of milliseconds from ${min} to ${MAX_TIMER_MS} (2^31 - 1, what a timer can hold)`;
  return (value, what) => {
    if (typeof value !== 'number') throw new TypeError(`${what} must be ${range}, got ${quoteValue(value)}`);
    if (!Number.isFinite(value) || value < min || value > MAX_TIMER_MS) throw new RangeError(`${what} must be ${range}, got ${quoteValue(value)}`);
    return value;
  };
}

/** An array or Set of strings. */
export const stringList: OptionCheck<ReadonlySet<string> | readonly string[]> = (value, what) => {
  const items = value instanceof Set ? [...(value as Set<unknown>)] : Array.isArray(value) ? (value as unknown[]) : undefined;
  if (items === undefined || items.some((item) => typeof item !== 'string')) {
    throw new TypeError(`${what} must be an array or Set of tool names, got ${quoteValue(value)}`);
  }
  return value as ReadonlySet<string> | readonly string[];
};

/** An optional `signal` option: an AbortSignal or undefined; a TypeError naming the option otherwise. */
export function optionalSignal(value: unknown, what: string): AbortSignal | undefined {
  if (value !== undefined && !(value instanceof AbortSignal)) throw new TypeError(`${what} must be an AbortSignal, got ${typeName(value)}`);
  return value;
}

export function optionalString(value: unknown, what: string): string | undefined {
  return value === undefined ? undefined : string(value, what);
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
  hints: Readonly<Record<string, string>> = NO_HINTS,
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

/** The known name closest to `key`: within {@link spellingDistance} 2, the nearest first. */
function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const name of known) {
    const distance = spellingDistance(key, name, bestDistance);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * How far apart two names are as a person would misspell them: the edit distance between them with case,
 * `_` and `-` ignored (`before_tool` and `beforeTool` are 0 apart), giving up (returning `limit`) once it
 * reaches `limit`.
 */
export function spellingDistance(a: string, b: string, limit: number): number {
  return editDistance(fold(a), fold(b), limit);
}

function fold(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Levenshtein distance, giving up (returning `limit`) once it reaches `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (a === b) return 0;
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
