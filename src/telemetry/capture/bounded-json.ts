/**
 * The bounded JSON writer behind captured arguments and results: one walk that writes redacted JSON
 * text within a character budget, whatever the value holds (cycles, BigInts, proxies whose every trap
 * throws, getters that throw, endless iterators, megabyte arrays). See docs/capture.md for the output.
 *
 * It is one piece (about 350 lines) because the budget invariant `out.length + reserve <= budget` is
 * kept jointly by the leaf writers, the container writers and their closing reserve: split apart, no
 * module could be read on its own to check that invariant.
 * @internal
 */
import { errorMessage } from '../../internal/describe.js';
import { REDACTED } from './redaction.js';
import { cut, isHighSurrogate, isLowSurrogate, isTruncated, truncatedMarker } from './truncate.js';

/** Deeper containers are summarised: a bound on recursion and on the closing reserve below. */
const MAX_DEPTH = 12;
/** Messages of errors thrown while reading a value are themselves untrusted and may be huge. */
const MAX_UNREADABLE_MESSAGE = 200;

const WROTE = 0;
const OMITTED = 1;
const NO_FIT = 2;
type Status = typeof WROTE | typeof OMITTED | typeof NO_FIT;

function moreItems(count: number): string {
  return `…[${count} more items]`;
}
function moreKeys(count: number): string {
  return `[${count} more keys]`;
}

const SUMMARY_MARKER = /^(?:…\[\d+ more items\]|\[\d+ more keys\]|\[(?:Object|Array\(\d+\))\])$/;

/**
 * Whether a string is one of the marks the bounded writer leaves for what it left out: a cut string
 * (`…[truncated N]`), `…[N more items]`, `[N more keys]`, or a container past the depth bound
 * (`[Object]`, `[Array(n)]`).
 */
export function isCaptureMarker(text: string): boolean {
  return isTruncated(text) || SUMMARY_MARKER.test(text);
}
/**
 * Room every open container keeps for its own end: the longest "more" marker and the closing bracket,
 * so that a container cut short can always be closed within the budget.
 */
const CLOSE_RESERVE = Math.max(
  `,${JSON.stringify(moreItems(Number.MAX_SAFE_INTEGER))}]`.length,
  `,"…":${JSON.stringify(moreKeys(Number.MAX_SAFE_INTEGER))}}`.length,
);



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

/** Where a container is written: its key (for `toJSON`), the text before it, its depth and closing reserve. */
interface Place {
  readonly key: string;
  readonly prefix: string;
  readonly depth: number;
  readonly reserve: number;
  readonly inObject: boolean;
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
        return this.object(value, { key, prefix, depth, reserve, inObject }, false);
      default:
        return this.leaf('null', prefix, reserve);
    }
  }

  /**
   * Any failure while reading the object records it as unreadable instead. Reads that can throw happen
   * before anything is written or are guarded one by one; the rollback is defence in depth.
   */
  private object(value: object, place: Place, converted: boolean): Status {
    const mark = this.out.length;
    const ancestors = this.ancestors.length;
    try {
      return this.objectUnguarded(value, place, converted);
    } catch (error) {
      this.out = this.out.slice(0, mark);
      this.ancestors.length = ancestors;
      return this.string(unreadable(error), place.prefix, place.reserve);
    }
  }

  private objectUnguarded(value: object, place: Place, converted: boolean): Status {
    const { key, prefix, depth, reserve, inObject } = place;
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
        if (typeof json === 'object' && json !== null) return this.object(json, place, true);
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
      return this.items(value, array.length, (index) => array[index], place);
    }
    if (depth >= MAX_DEPTH) return this.string('[Object]', prefix, reserve);
    if (value instanceof Set) {
      const size = value.size;
      const items = this.take(value.values(), size);
      return this.items(value, size, (index) => items[index], place);
    }
    if (value instanceof Map) {
      const size = value.size;
      const keys: string[] = [];
      const values: unknown[] = [];
      for (const [entryKey, entryValue] of this.take(value.entries(), size)) {
        keys.push(mapKey(entryKey));
        values.push(entryValue);
      }
      return this.members(value, keys, size, (index) => values[index], place);
    }
    if (value instanceof Error) {
      const error = value;
      return this.members(value, ['name', 'message'], 2, (index) => (index === 0 ? error.name : error.message), place);
    }
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    return this.members(value, keys, keys.length, (index) => record[keys[index] as string], place);
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

  private items(self: object, count: number, read: (index: number) => unknown, { prefix, depth, reserve }: Place): Status {
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

  private members(self: object, keys: readonly string[], count: number, read: (index: number) => unknown, place: Place): Status {
    const { prefix, depth, reserve } = place;
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

/**
 * Redacted JSON of `value`, at most `budget` characters, every string cut to `maxLength`; never throws.
 *
 * @example
 * ```ts
 * serializeBounded({ user: 'ann', password: 'x' }, 1024, 4096, (key) => key === 'password');
 * // '{"user":"ann","password":"[REDACTED]"}'
 * ```
 */
export function serializeBounded(value: unknown, budget: number, maxLength: number, redacts: (key: string) => boolean): string {
  try {
    const writer = new JsonWriter(budget, maxLength, redacts);
    return writer.value(value, '', '', 0, 0, false) === WROTE ? writer.out : 'null';
  } catch (error) {
    // Unreachable by design (every read is guarded); kept so that serialisation can never throw.
    return JSON.stringify(`[Unserializable: ${cut(errorMessage(error), MAX_UNREADABLE_MESSAGE)}]`);
  }
}
