/**
 * Cutting text to a length with a visible marker, never splitting a surrogate pair: the one rule every
 * recorded string (captured values, reasons, error messages, diag lines) is bounded by.
 * @internal
 */

/** The marker that ends a cut string: `…[truncated N]`, N being the number of code units cut. */
export function truncatedMarker(cut: number): string {
  return `…[truncated ${cut}]`;
}

const TRUNCATED = /…\[truncated \d+\]$/;

/** Whether `text` ends with the marker {@link cut} leaves. */
export function isTruncated(text: string): boolean {
  return TRUNCATED.test(text);
}

/** Whether a UTF-16 code unit is the first half of a surrogate pair. */
export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Whether a UTF-16 code unit is the second half of a surrogate pair. */
export function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * `text` cut to `max` code units plus a `…[truncated N]` marker, never splitting a surrogate pair;
 * `text` itself when it fits.
 *
 * @example
 * ```ts
 * cut('abcdef', 3); // 'abc…[truncated 3]'
 * ```
 */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let keep = max;
  if (keep > 0 && isHighSurrogate(text.charCodeAt(keep - 1)) && isLowSurrogate(text.charCodeAt(keep))) keep -= 1;
  return text.slice(0, keep) + truncatedMarker(text.length - keep);
}
