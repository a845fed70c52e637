/**
 * Describing values and thrown things for messages and telemetry, without ever throwing: a thrown
 * value may be anything, a Proxy or an Error with hostile getters included.
 * @internal
 */

/** The message of anything thrown: an Error's message, else its string form; never throws. */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return typeof error === 'string' ? error : String(error);
  } catch {
    return '[unprintable error]';
  }
}

/** The class name of an Error (its constructor's name, else its `name`); undefined for anything else. */
export function errorClassName(error: unknown): string | undefined {
  try {
    if (error instanceof Error) return error.constructor?.name || error.name || undefined;
  } catch {
    // a hostile error object: no name can be read safely
  }
  return undefined;
}

/** How a value reads in an error message: `null`, `an array`, else its `typeof`. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * How a value reads after "got" in an error message, quoting what the user passed: a string is quoted
 * (`the string "5000"`, cut at 40 characters), a number or boolean is as written, anything else is its
 * {@link typeName}. Never throws.
 *
 * @example
 * ```ts
 * quoteValue('5000'); // 'the string "5000"'
 * quoteValue(2 ** 40); // '1099511627776'
 * ```
 */
export function quoteValue(value: unknown): string {
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === undefined) return 'undefined';
  return typeName(value);
}

/**
 * A copy of a RegExp without the `g` and `y` flags: those keep `lastIndex` between `test()` calls, so the
 * same key or tool name would match only every other time.
 */
export function withoutStatefulFlags(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
}
