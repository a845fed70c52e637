/**
 * Capture and redaction (SPEC §5): the one place that turns tool arguments, results, hook reasons and
 * error messages into strings safe to put on spans, span events and log records.
 *
 * Nothing here ever throws at run time: whatever a tool or an attacker-controlled argument contains
 * (cycles, BigInts, proxies whose every trap throws, getters that throw, megabyte arrays), the output
 * is valid JSON no longer than the capture's budget, with the values of sensitive keys replaced.
 */
import { errorMessage, withoutStatefulFlags } from '../describe.js';

/**
 * What toolhooks records of tool arguments and results (SPEC §5). Off by default: without it no
 * argument or result value reaches spans, events, metrics or logs — only tool names, argument key
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
 * Hook reasons and error messages are always recorded, cut to `maxLength` with the same marker.
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

/** Longest diag line: diag messages quote tool names and error messages, and go to plain-text loggers. */
const MAX_DIAG_LENGTH = 16_384;

/**
 * A diag message made safe for a plain-text log: control characters (C0, DEL, C1) and U+2028/U+2029,
 * which could end the line and start a forged one or drive a terminal, are written as `\uXXXX`, and the
 * line is cut to 16 KiB with the usual marker. Span attributes and log records keep the exact text:
 * they are structured, and their exporters encode it.
 *
 * @example
 * ```ts
 * diag.warn(diagSafe(`toolhooks: hook "${name}" failed: ${message}`));
 * ```
 * @internal
 */
export function diagSafe(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return cut(escaped, MAX_DIAG_LENGTH);
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
  /** A reason or error message cut to `maxLength` with a `…[truncated N]` marker; never throws. */
  limit(text: string): string;
  /** Whether the value under this key is redacted. */
  isRedactedKey(key: string): boolean;
}

/**
 * Patterns of the keys whose values are always redacted, matched anywhere in the key and ignoring case
 * (`X-Api-Key`, `refresh_token`, `dbPassword`). `auth` alone matches only the whole key, so that
 * `author` stays visible while Node's `http.request({ auth: 'user:pass' })` does not leak.
 *
 * @example
 * ```ts
 * new RegExp(DEFAULT_REDACT_PATTERNS.join('|'), 'i').test('refresh_token'); // true
 * ```
 */
export const DEFAULT_REDACT_PATTERNS: readonly string[] = Object.freeze([
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'api[-_]?key',
  'authorization',
  '^auth$',
  'cookie',
  'credential',
  'private[-_]?key',
]);

/**
 * Default `maxLength`.
 *
 * @example
 * ```ts
 * resolveCapture(undefined).maxLength === DEFAULT_MAX_LENGTH; // true
 * ```
 */
export const DEFAULT_MAX_LENGTH = 4096;

/** What replaces a redacted value. @example `{"password":"[REDACTED]"}` */
export const REDACTED = '[REDACTED]';

/** Deeper containers are summarised: a bound on recursion and on the closing reserve below. */
const MAX_DEPTH = 12;
const MIN_TOTAL_LENGTH = 1024;
const TOTAL_PER_MAX_LENGTH = 4;
/** Messages of errors thrown while reading a value are themselves untrusted and may be huge. */
const MAX_UNREADABLE_MESSAGE = 200;

const WROTE = 0;
const OMITTED = 1;
const NO_FIT = 2;
type Status = typeof WROTE | typeof OMITTED | typeof NO_FIT;

function truncatedMarker(cut: number): string {
  return `…[truncated ${cut}]`;
}
function moreItems(count: number): string {
  return `…[${count} more items]`;
}
function moreKeys(count: number): string {
  return `[${count} more keys]`;
}
/**
 * Room every open container keeps for its own end: the longest "more" marker and the closing bracket,
 * so that a container cut short can always be closed within the budget.
 */
const CLOSE_RESERVE = Math.max(
  `,${JSON.stringify(moreItems(Number.MAX_SAFE_INTEGER))}]`.length,
  `,"…":${JSON.stringify(moreKeys(Number.MAX_SAFE_INTEGER))}}`.length,
);

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Cuts `text` to `max` code units plus a marker, never splitting a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = max;
  if (keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1)) && isLowSurrogate(text.charCodeAt(keep))) keep -= 1;
  return text.slice(0, keep) + truncatedMarker(text.length - keep);
}

/**
 * The JSON string literal of the longest prefix of `text` (at most `max` code units) that, with its
 * truncation marker, fits in `room` characters; undefined when not even the marker fits. Used only
 * when the plainly cut string does not fit, so it may walk the characters.
 */
function fitQuoted(text: string, max: number, room: number): string | undefined {
  const available = room - 2 - truncatedMarker(text.length).length;
  if (available < 0) return undefined;
  const end = Math.min(text.length, max);
  let used = 0;
  let index = 0;
  while (index < end) {
    const code = text.charCodeAt(index);
    let width = 1;
    let step = 1;
    if (isHighSurrogate(code) && index + 1 < text.length && isLowSurrogate(text.charCodeAt(index + 1))) {
      if (index + 2 > end) break;
      width = 2;
      step = 2;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      width = 6; // lone surrogate: \udxxx
    } else if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) {
      width = 2;
    } else if (code < 0x20) {
      width = 6;
    }
    if (used + width > available) break;
    used += width;
    index += step;
  }
  return JSON.stringify(text.slice(0, index) + truncatedMarker(text.length - index));
}

function unreadable(error: unknown): string {
  return `[Unreadable: ${cut(errorMessage(error), MAX_UNREADABLE_MESSAGE)}]`;
}

function describeFunction(fn: unknown): string {
  try {
    const name = (fn as { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? `[Function: ${name}]` : '[Function]';
  } catch {
    return '[Function]';
  }
}

function describeSymbol(symbol: symbol): string {
  // String() converts a symbol natively, without Symbol.prototype.toString (which could be patched).
  return `[${String(symbol)}]`;
}

/** Map keys become JSON object keys; non-primitive keys are only described, never walked. */
function mapKey(key: unknown): string {
  switch (typeof key) {
    case 'string':
      return key;
    case 'symbol':
      return describeSymbol(key);
    case 'function':
      return describeFunction(key);
    case 'object':
      return key === null ? 'null' : '[Object]';
    default:
      return String(key);
  }
}

/** A typed array, DataView or ArrayBuffer is summarised: binary content is noise, and often secret. */
function describeBinary(value: object, byteLength: unknown): string {
  let name = 'Binary';
  try {
    const ctor = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor;
    if (typeof ctor?.name === 'string' && ctor.name !== '') name = ctor.name;
  } catch {
    // keep the generic name
  }
  return typeof byteLength === 'number' ? `[${name}: ${byteLength} bytes]` : `[${name}]`;
}

/**
 * One serialisation: a single walk that writes JSON text and keeps, at every step, the invariant
 * `out.length + reserve ≤ budget`, where `reserve` is what the open containers need to close. A value
 * that does not fit is not written (NO_FIT) and its container ends with a "more" marker.
 */
class JsonWriter {
  out = '';
  private readonly ancestors: object[] = [];

  constructor(
    private readonly budget: number,
    private readonly maxLength: number,
    private readonly redacts: (key: string) => boolean,
  ) {}

  private fits(length: number, reserve: number): boolean {
    return this.out.length + length + reserve <= this.budget;
  }

  private leaf(json: string, prefix: string, reserve: number): Status {
    if (!this.fits(prefix.length + json.length, reserve)) return NO_FIT;
    this.out += prefix + json;
    return WROTE;
  }

  private string(text: string, prefix: string, reserve: number): Status {
    const json = JSON.stringify(cut(text, this.maxLength));
    if (this.fits(prefix.length + json.length, reserve)) {
      this.out += prefix + json;
      return WROTE;
    }
    const fitted = fitQuoted(text, this.maxLength, this.budget - reserve - this.out.length - prefix.length);
    if (fitted === undefined) return NO_FIT;
    this.out += prefix + fitted;
    return WROTE;
  }

  /** Writes `prefix` then `value`; `undefined` is omitted from objects and `null` elsewhere, as in JSON. */
  value(value: unknown, key: string, prefix: string, depth: number, reserve: number, inObject: boolean): Status {
    switch (typeof value) {
      case 'string':
        return this.string(value, prefix, reserve);
      case 'number':
        // JSON would turn NaN and ±Infinity into null; a string keeps them distinguishable.
        return this.leaf(Number.isFinite(value) ? String(value) : `"${String(value)}"`, prefix, reserve);
      case 'boolean':
        return this.leaf(value ? 'true' : 'false', prefix, reserve);
      case 'bigint':
        return this.string(String(value), prefix, reserve);
      case 'undefined':
        return inObject ? OMITTED : this.leaf('null', prefix, reserve);
      case 'symbol':
        return this.string(describeSymbol(value), prefix, reserve);
      case 'function':
        return this.string(describeFunction(value), prefix, reserve);
      case 'object':
        if (value === null) return this.leaf('null', prefix, reserve);
        return this.object(value, key, prefix, depth, reserve, inObject, false);
      default:
        return this.leaf('null', prefix, reserve);
    }
  }

  /**
   * Any failure while reading the object records it as unreadable instead. Reads that can throw happen
   * before anything is written or are guarded one by one; the rollback is defence in depth.
   */
  private object(
    value: object,
    key: string,
    prefix: string,
    depth: number,
    reserve: number,
    inObject: boolean,
    converted: boolean,
  ): Status {
    const mark = this.out.length;
    const ancestors = this.ancestors.length;
    try {
      return this.objectUnguarded(value, key, prefix, depth, reserve, inObject, converted);
    } catch (error) {
      this.out = this.out.slice(0, mark);
      this.ancestors.length = ancestors;
      return this.string(unreadable(error), prefix, reserve);
    }
  }

  private objectUnguarded(
    value: object,
    key: string,
    prefix: string,
    depth: number,
    reserve: number,
    inObject: boolean,
    converted: boolean,
  ): Status {
    if (this.ancestors.includes(value)) return this.string('[Circular]', prefix, reserve);
    // Before toJSON: Buffer's toJSON would spell out every byte.
    if (ArrayBuffer.isView(value)) return this.string(describeBinary(value, value.byteLength), prefix, reserve);
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)) {
      return this.string(describeBinary(value, value.byteLength), prefix, reserve);
    }
    if (!converted) {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') {
        const json: unknown = toJSON.call(value, key);
        if (typeof json === 'object' && json !== null) return this.object(json, key, prefix, depth, reserve, inObject, true);
        return this.value(json, key, prefix, depth, reserve, inObject);
      }
    }
    if (value instanceof RegExp) return this.string(String(value), prefix, reserve);
    if (value instanceof String || value instanceof Number || value instanceof Boolean) {
      return this.value(value.valueOf(), key, prefix, depth, reserve, inObject);
    }
    if (Array.isArray(value)) {
      const array: readonly unknown[] = value;
      if (depth >= MAX_DEPTH) return this.string(`[Array(${array.length})]`, prefix, reserve);
      return this.items(value, array.length, (index) => array[index], prefix, depth, reserve);
    }
    if (depth >= MAX_DEPTH) return this.string('[Object]', prefix, reserve);
    if (value instanceof Set) {
      const size = value.size;
      const items = this.take(value.values(), size);
      return this.items(value, size, (index) => items[index], prefix, depth, reserve);
    }
    if (value instanceof Map) {
      const size = value.size;
      const keys: string[] = [];
      const values: unknown[] = [];
      for (const [entryKey, entryValue] of this.take(value.entries(), size)) {
        keys.push(mapKey(entryKey));
        values.push(entryValue);
      }
      return this.members(value, keys, size, (index) => values[index], prefix, depth, reserve);
    }
    if (value instanceof Error) {
      const error = value;
      return this.members(value, ['name', 'message'], 2, (index) => (index === 0 ? error.name : error.message), prefix, depth, reserve);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    return this.members(value, keys, keys.length, (index) => record[keys[index] as string], prefix, depth, reserve);
  }

  /**
   * At most `size` entries (a subclass's iterator may never end) and at most as many as the budget has
   * characters, since every written entry costs at least one.
   */
  private take<T>(iterator: Iterator<T>, size: number): T[] {
    const taken: T[] = [];
    const limit = Math.min(size, this.budget);
    while (taken.length < limit) {
      const next = iterator.next();
      if (next.done === true) break;
      taken.push(next.value);
    }
    return taken;
  }

  private items(self: object, count: number, read: (index: number) => unknown, prefix: string, depth: number, reserve: number): Status {
    const inner = reserve + CLOSE_RESERVE;
    if (!this.fits(prefix.length + 1, inner)) return NO_FIT;
    this.out += `${prefix}[`;
    this.ancestors.push(self);
    let index = 0;
    // Every item costs at least one character, so the budget ends this loop even for 2**32 holes.
    for (; index < count; index += 1) {
      let item: unknown;
      try {
        item = read(index);
      } catch (error) {
        item = unreadable(error);
      }
      if (this.value(item, String(index), index === 0 ? '' : ',', depth + 1, inner, false) === NO_FIT) break;
    }
    this.ancestors.pop();
    if (index < count) this.out += (index === 0 ? '' : ',') + JSON.stringify(moreItems(count - index));
    this.out += ']';
    return WROTE;
  }

  private members(
    self: object,
    keys: readonly string[],
    count: number,
    read: (index: number) => unknown,
    prefix: string,
    depth: number,
    reserve: number,
  ): Status {
    const inner = reserve + CLOSE_RESERVE;
    if (!this.fits(prefix.length + 1, inner)) return NO_FIT;
    this.out += `${prefix}{`;
    this.ancestors.push(self);
    // Omitted (undefined) members cost no budget, so the scan is bounded separately: a wide object of
    // getters runs at most this many of them.
    const scan = Math.min(keys.length, this.budget);
    let written = 0;
    let index = 0;
    for (; index < scan; index += 1) {
      const key = keys[index] as string;
      const memberPrefix = `${written === 0 ? '' : ','}${JSON.stringify(cut(key, this.maxLength))}:`;
      let status: Status;
      if (this.redacts(key)) {
        // The value is never read: a getter behind a secret key has no chance to run or to leak.
        status = this.leaf(`"${REDACTED}"`, memberPrefix, inner);
      } else {
        let member: unknown;
        try {
          member = read(index);
        } catch (error) {
          member = unreadable(error);
        }
        status = this.value(member, key, memberPrefix, depth + 1, inner, true);
      }
      if (status === NO_FIT) break;
      if (status === WROTE) written += 1;
    }
    this.ancestors.pop();
    if (index < count) this.out += `${written === 0 ? '' : ','}"…":${JSON.stringify(moreKeys(count - index))}`;
    this.out += '}';
    return WROTE;
  }
}

const REGEXP_SPECIALS = /[.*+?^${}()|[\]\\]/g;

/** One combined case-insensitive RegExp for the defaults and string patterns; user RegExps as given. */
function redactionMatcher(extra: readonly (string | RegExp)[]): (key: string) => boolean {
  const sources = [...DEFAULT_REDACT_PATTERNS];
  const patterns: RegExp[] = [];
  for (const entry of extra) {
    if (typeof entry === 'string') sources.push(entry.replace(REGEXP_SPECIALS, '\\$&'));
    // A g or y flag would make test() stateful (lastIndex) and skip matches on alternate calls.
    else patterns.push(withoutStatefulFlags(entry));
  }
  const combined = new RegExp(sources.join('|'), 'i');
  if (patterns.length === 0) return (key) => combined.test(key);
  return (key) => {
    if (combined.test(key)) return true;
    for (const pattern of patterns) if (pattern.test(key)) return true;
    return false;
  };
}

const OPTION_NAMES: readonly string[] = ['args', 'results', 'maxLength', 'redactKeys'];

function readBoolean(options: CaptureOptions, name: 'args' | 'results'): boolean {
  const value: unknown = options[name];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new TypeError(`capture.${name} must be a boolean, got ${typeof value}`);
  return value;
}

function readMaxLength(options: CaptureOptions): number {
  const value: unknown = options.maxLength;
  if (value === undefined) return DEFAULT_MAX_LENGTH;
  if (typeof value !== 'number') throw new TypeError(`capture.maxLength must be a number, got ${typeof value}`);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`capture.maxLength must be a positive integer, got ${String(value)}`);
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
      throw new TypeError(`capture.redactKeys[${index}] must be a string or a RegExp, got ${entry === null ? 'null' : typeof entry}`);
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
  for (const name of Object.keys(given)) {
    if (!OPTION_NAMES.includes(name)) {
      throw new TypeError(`capture.${name} is not a capture option (known: ${OPTION_NAMES.join(', ')})`);
    }
  }
  const args = readBoolean(given, 'args');
  const results = readBoolean(given, 'results');
  const maxLength = readMaxLength(given);
  const isRedactedKey = redactionMatcher(readRedactKeys(given));
  const maxTotalLength = Math.min(Number.MAX_SAFE_INTEGER, Math.max(MIN_TOTAL_LENGTH, TOTAL_PER_MAX_LENGTH * maxLength));

  const serialize = (value: unknown): string => {
    try {
      const writer = new JsonWriter(maxTotalLength, maxLength, isRedactedKey);
      return writer.value(value, '', '', 0, 0, false) === WROTE ? writer.out : 'null';
    } catch (error) {
      // Unreachable by design (every read is guarded); kept so that serialisation can never throw.
      return JSON.stringify(`[Unserializable: ${cut(errorMessage(error), MAX_UNREADABLE_MESSAGE)}]`);
    }
  };
  const limit = (text: string): string => cut(typeof text === 'string' ? text : errorMessage(text), maxLength);

  return Object.freeze({ args, results, maxLength, maxTotalLength, serialize, limit, isRedactedKey });
}
