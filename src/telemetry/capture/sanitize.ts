/**
 * Terminal and plain-text safety: the one function that escapes control characters in text toolhooks
 * prints (the tree exporter, diag lines, the demo). Tool names, hook names, reasons and error messages
 * can come from a model or a remote MCP server; printed raw, an ESC or BEL could retitle the terminal,
 * move the cursor or clear the screen, and a line break could forge a log line.
 *
 * Span attributes and log records keep the exact text: they are data, and their exporters encode it.
 * @internal
 */
import { cut } from './truncate.js';

// C0 (U+0000–U+001F, line breaks and tab included), DEL, C1 (U+0080–U+009F), LINE/PARAGRAPH SEPARATOR,
// and the bidirectional controls (ALM U+061C, LRM/RLM U+200E–U+200F, the embeddings and overrides
// U+202A–U+202E, the isolates U+2066–U+2069): an RLO (U+202E) makes `txt.exe` print as `exe.txt`.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above
const HAS_CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

/** Longest diag line: diag messages quote tool names and error messages, and go to plain-text loggers. */
const MAX_DIAG_LENGTH = 16_384;

/**
 * `text` with every control character (C0 including line breaks and tab, DEL, C1), U+2028/U+2029 and
 * every bidirectional control (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) written as a
 * visible `\uXXXX` escape, so that it can be printed to a terminal or a plain-text log as
 * one inert line. A printer adds its own line breaks and colours after escaping what it prints. Every
 * escape is also a JSON escape: applied to the output of `JSON.stringify`, it gives JSON with the same
 * value that prints inert too (`JSON.stringify` leaves DEL, C1 and the bidirectional controls raw).
 *
 * @example
 * ```ts
 * escapeControlCharacters('evil\u001b]0;pwned\u0007'); // 'evil\\u001b]0;pwned\\u0007'
 * ```
 */
export function escapeControlCharacters(text: string): string {
  if (!HAS_CONTROL_CHARACTER.test(text)) return text;
  return text.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * `text` as one line: whitespace runs (line breaks included) folded to one space, trimmed, and cut to
 * `max` characters with `…`, with the control characters left escaped ({@link escapeControlCharacters}),
 * so it always prints as one inert line.
 *
 * @example
 * ```ts
 * oneLine('bad\n  input', 500); // 'bad input'
 * ```
 */
export function oneLine(text: string, max: number): string {
  const flat = escapeControlCharacters(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * A diag message made safe for a plain-text log: control characters escaped (see
 * {@link escapeControlCharacters}) and the line cut to 16 KiB with the usual marker.
 *
 * @example
 * ```ts
 * diag.warn(diagSafe(`toolhooks: hook "${name}" failed: ${message}`));
 * ```
 */
export function diagSafe(text: string): string {
  return cut(escapeControlCharacters(text), MAX_DIAG_LENGTH);
}
