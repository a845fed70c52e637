/**
 * The public capture options and their validation into a resolved {@link Capture}: what the runner and
 * flows record of tool arguments and results, and the functions that make values safe to record.
 * See docs/capture.md.
 */
import { errorMessage, quoteValue } from '../../internal/describe.js';
import { rejectUnknownOptions } from '../../internal/validate.js';
import { serializeBounded } from './bounded-json.js';
import { ErrorScrubber } from './error-text.js';
import { redactionMatcher } from './redaction.js';
import { cut } from './truncate.js';

/**
 * What toolhooks records of tool arguments and results (see docs/capture.md). Off by default: without
 * it no argument or result value reaches spans, events, metrics or logs — only tool names, argument key
 * names and decisions.
 *
 * When on, values are recorded as JSON strings in which
 * - the value of every key matching the redaction list is replaced by `"[REDACTED]"`, at any depth
 *   (object properties and Map keys); `redactKeys` adds to the built-in list, it never replaces it;
 * - every string is cut to `maxLength` characters with a `…[truncated N]` marker (N = characters cut);
 * - the whole JSON is at most `max(4 × maxLength, 1024)` characters: arrays and objects that do not fit
 *   end with a `"…[N more items]"` / `"…": "[N more keys]"` marker;
 * - nesting deeper than 12 levels is summarised (`"[Object]"`, `"[Array(n)]"`).
 *
 * Hook reasons and error messages are always recorded, cut to `maxLength` with the same marker. Error
 * messages and stacks are scrubbed of the call's argument values first: of every value with `args`
 * off, of the values under redacted keys with it on (a framework error may quote the whole input).
 *
 * @example
 * ```ts
 * const hooks = new HookRunner({
 *   hooks: [policy],
 *   capture: { args: true, results: true, maxLength: 1024, redactKeys: ['ssn', /^x-internal-/i] },
 * });
 * ```
 */
export interface CaptureOptions {
  /** Record tool arguments (and Redirect `newArgs`). Default `false`. */
  readonly args?: boolean;
  /** Record tool results. Default `false`. */
  readonly results?: boolean;
  /**
   * Longest string kept, in UTF-16 code units (JavaScript `length`), for every string inside a captured
   * value and for reasons and error messages. A positive integer; default 4096.
   */
  readonly maxLength?: number;
  /**
   * Extra key patterns to redact, added to the built-in list. A string matches any key containing it,
   * ignoring case (`'ssn'` matches `userSsn`); a RegExp is tested as given (its `g`/`y` flags are dropped).
   */
  readonly redactKeys?: readonly (string | RegExp)[];
}

/**
 * A resolved, validated capture configuration: what the runner and flows record, and the functions
 * that make values safe to record. Internal; built once per runner by {@link resolveCapture}.
 *
 * @example
 * ```ts
 * const capture = resolveCapture({ args: true });
 * if (capture.args) span.setAttribute(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, capture.serialize(args));
 * span.setAttribute(ATTR_DECISION_REASON, capture.limit(decision.reason));
 * ```
 */
export interface Capture {
  /** Whether tool arguments (and Redirect `newArgs`) are recorded. */
  readonly args: boolean;
  /** Whether tool results are recorded. */
  readonly results: boolean;
  /** Longest string kept inside a captured value, and longest reason or message. */
  readonly maxLength: number;
  /** Longest JSON `serialize` returns. */
  readonly maxTotalLength: number;
  /** Redacted, bounded JSON for any value; never throws. */
  serialize(value: unknown): string;
  /**
   * {@link serialize}, written to fit in `limit` characters as well (a span's attribute length limit, which
   * would otherwise cut the JSON mid-value): still valid JSON. Undefined `limit`: the same as `serialize`.
   */
  serializeWithin(value: unknown, limit: number | undefined): string;
  /** A reason or error message cut to `maxLength` with a `…[truncated N]` marker; never throws. */
  limit(text: string): string;
  /** Whether the value under this key is redacted. */
  isRedactedKey(key: string): boolean;
  /**
   * The error-text scrubber of one call: describes errors (type, message, stack) bounded to
   * `maxLength`, without the call's argument values (all of them with `args` off, those under redacted
   * keys with it on). Building it costs nothing until an error is described.
   */
  scrubber(args: readonly unknown[]): ErrorScrubber;
}

/**
 * Default `maxLength`.
 *
 * @example
 * ```ts
 * resolveCapture(undefined).maxLength === DEFAULT_MAX_LENGTH; // true
 * ```
 */
export const DEFAULT_MAX_LENGTH = 4096;

/** The whole JSON gets `max(4 × maxLength, 1024)` characters. */
const MIN_TOTAL_LENGTH = 1024;
const TOTAL_PER_MAX_LENGTH = 4;

const OPTION_NAMES: readonly string[] = ['args', 'results', 'maxLength', 'redactKeys'];

function readBoolean(options: CaptureOptions, name: 'args' | 'results'): boolean {
  const value: unknown = options[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`capture.${name} must be a boolean, got ${quoteValue(value)}`);
  return value;
}

function readMaxLength(options: CaptureOptions): number {
  const value: unknown = options.maxLength;
  if (value === undefined) return DEFAULT_MAX_LENGTH;
  if (typeof value !== 'number') throw new TypeError(`capture.maxLength must be a number, got ${quoteValue(value)}`);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`capture.maxLength must be a positive integer, got ${quoteValue(value)}`);
  }
  return value;
}

function readRedactKeys(options: CaptureOptions): readonly (string | RegExp)[] {
  const value: unknown = options.redactKeys;
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new TypeError('capture.redactKeys must be an array of strings and RegExps');
  const keys: (string | RegExp)[] = [];
  value.forEach((entry: unknown, index) => {
    if (typeof entry === 'string') {
      if (entry === '') {
        throw new RangeError(`capture.redactKeys[${index}] is an empty string, which would match every key; use /^/ to redact everything`);
      }
      keys.push(entry);
    } else if (entry instanceof RegExp) {
      keys.push(entry);
    } else {
      throw new TypeError(`capture.redactKeys[${index}] must be a string or a RegExp, got ${quoteValue(entry)}`);
    }
  });
  return keys;
}

/**
 * Validates capture options and resolves them into the functions the runner and flows use. Throws a
 * TypeError or RangeError naming the bad option; unknown option names are rejected too, since a typo
 * such as `redactkeys` would otherwise silently leave secrets unredacted.
 *
 * @example
 * ```ts
 * const capture = resolveCapture({ args: true, redactKeys: ['ssn'] });
 * capture.serialize({ user: 'ann', ssn: '078-05-1120', auth: { password: 'x' } });
 * // '{"user":"ann","ssn":"[REDACTED]","auth":"[REDACTED]"}'
 * ```
 */
export function resolveCapture(options: CaptureOptions | undefined): Capture {
  const given: CaptureOptions = options ?? {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new TypeError('capture must be an object such as { args: true, results: true }');
  }
  rejectUnknownOptions(given, OPTION_NAMES, 'capture');
  const args = readBoolean(given, 'args');
  const results = readBoolean(given, 'results');
  const maxLength = readMaxLength(given);
  const isRedactedKey = redactionMatcher(readRedactKeys(given));
  const maxTotalLength = Math.min(Number.MAX_SAFE_INTEGER, Math.max(MIN_TOTAL_LENGTH, TOTAL_PER_MAX_LENGTH * maxLength));

  const serialize = (value: unknown): string => serializeBounded(value, maxTotalLength, maxLength, isRedactedKey);
  const serializeWithin = (value: unknown, within: number | undefined): string =>
    within === undefined || within >= maxTotalLength ? serialize(value) : fitted(serializeBounded(value, within, maxLength, isRedactedKey), within);
  const limit = (text: string): string => cut(typeof text === 'string' ? text : errorMessage(text), maxLength);

  const policy = { args, maxLength, isRedactedKey };
  const scrubber = (argsList: readonly unknown[]): ErrorScrubber => new ErrorScrubber(policy, argsList);

  return Object.freeze({ args, results, maxLength, maxTotalLength, serialize, serializeWithin, limit, isRedactedKey, scrubber });
}

/** The bounded writer's smallest answer is `null`; under a limit too small even for that, `0` (still JSON). */
function fitted(json: string, limit: number): string {
  return json.length <= limit ? json : 'null'.length <= limit ? 'null' : '0';
}
