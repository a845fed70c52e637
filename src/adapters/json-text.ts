/**
 * A value as JSON text, never throwing: to tell two calls apart by their arguments (`jsonOf`), and to
 * hand a value to a model or a protocol message (`toText`).
 * @internal
 */

/**
 * A tool call's arguments (or input) as JSON, for telling two calls apart; undefined when they have none
 * (`undefined`, a cycle, a BigInt, a getter that throws). Never throws.
 */
export function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** JSON text of a value for a model or a protocol message; never throws. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '';
    }
  }
}
