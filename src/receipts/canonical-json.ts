/**
 * RFC 8785 JSON Canonicalization Scheme (JCS): object keys sorted by their UTF-16 code units, no
 * whitespace, numbers as ECMAScript writes them, strings escaped as `JSON.stringify` escapes them.
 * Written here rather than taken from a package: it is forty lines, and the package would be a
 * runtime dependency of every toolhooks user for one entry point.
 * @internal
 */

/**
 * The JCS text of a JSON value. Strict, as the RFC asks: a number that is not finite, a lone surrogate,
 * or a value JSON cannot hold (undefined, a function, a symbol, a BigInt, a cycle) throws a TypeError
 * naming it. Arrays and plain objects are walked; anything with `toJSON` (a Date) is read through it.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2e-3, 'x'] }); // '{"a":[0.002,"x"],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  return located(() => write(value, new Set(), false));
}

/**
 * The JCS text of arguments as `JSON.stringify` would see them: members that are undefined, functions or
 * symbols are left out (null in arrays), non-finite numbers are null, a BigInt is its decimal string and a
 * reference back into a cycle is the string `[Circular]`. Never throws on such values, so a digest can
 * always be made; hostile getters that throw still do (the caller guards).
 */
export function canonicalArgsJson(value: unknown): string {
  return write(value, new Set(), true);
}

/** A value canonical JSON cannot hold; `path` is filled in on the way out, so the hot path builds no names. */
class Unrepresentable extends TypeError {
  readonly path: string[] = [];
}

function located(run: () => string): string {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error;
    const where = `$${error.path.reverse().join('')}`;
    throw new TypeError(`canonical JSON: ${where} ${error.message}`, { cause: error });
  }
}

function write(value: unknown, path: Set<object>, lenient: boolean): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value, lenient);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Number.isFinite(value)) return JSON.stringify(value);
      if (lenient) return 'null';
      throw new Unrepresentable(`is ${String(value)}, which JSON cannot hold`);
    case 'bigint':
      if (lenient) return quote(value.toString(), lenient);
      throw new Unrepresentable('is a BigInt, which JSON cannot hold');
    case 'object':
      break;
    default:
      if (lenient) return 'null';
      throw new Unrepresentable(`is ${typeof value}, which JSON cannot hold`);
  }
  const object = value as Record<string, unknown> & { toJSON?: unknown };
  if (typeof object.toJSON === 'function') return write((object.toJSON as (key: string) => unknown)(''), path, lenient);
  if (path.has(object)) {
    if (lenient) return '"[Circular]"';
    throw new Unrepresentable('refers back to an enclosing value (a cycle)');
  }
  path.add(object);
  let text: string;
  if (Array.isArray(object)) {
    text = '[';
    for (let index = 0; index < object.length; index += 1) {
      const item: unknown = object[index];
      if (index > 0) text += ',';
      try {
        text += lenient && omitted(item) ? 'null' : write(item, path, lenient);
      } catch (error) {
        if (error instanceof Unrepresentable) error.path.push(`[${index}]`);
        throw error;
      }
    }
    text += ']';
  } else {
    text = '{';
    // The default sort compares UTF-16 code units, which is the order RFC 8785 asks for.
    const keys = Object.keys(object).sort();
    let first = true;
    for (const key of keys) {
      const member: unknown = object[key];
      if (lenient && omitted(member)) continue;
      try {
        const written = write(member, path, lenient);
        text += `${first ? '' : ','}${quote(key, lenient)}:${written}`;
      } catch (error) {
        if (error instanceof Unrepresentable) error.path.push(`.${key}`);
        throw error;
      }
      first = false;
    }
    text += '}';
  }
  path.delete(object);
  return text;
}

/** What `JSON.stringify` leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** What a JSON string escapes; lone surrogates too, so that the lenient form escapes them as JSON.stringify does. */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quote(text: string, lenient: boolean): string {
  // I-JSON (which JCS requires) has no lone surrogate; String.prototype.isWellFormed is Node 20+.
  if (!lenient && !(text as unknown as { isWellFormed(): boolean }).isWellFormed()) throw new Unrepresentable('holds a lone surrogate, which I-JSON forbids');
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  // JSON.stringify escapes exactly what RFC 8785 §3.2.2.2 escapes: '"', '\\', and U+0000–U+001F (the
  // short forms \b \t \n \f \r, else \u00xx in lowercase hex); everything else is written as is.
  return JSON.stringify(text);
}
