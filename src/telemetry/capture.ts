/**
 * Capture and redaction: the one place that turns tool arguments, results, hook reasons and error
 * messages into strings safe to put on spans, span events and log records, and text safe to print.
 * See docs/capture.md. Each concern has its module under `capture/`:
 * - `options.ts`: the public {@link CaptureOptions}, their validation, the resolved {@link Capture};
 * - `redaction.ts`: the built-in redaction list and the key matcher;
 * - `bounded-json.ts`: the JSON writer that stays within a budget and never throws;
 * - `truncate.ts`: cutting text with a `…[truncated N]` marker;
 * - `error-text.ts`: the one description of an error (type, message, stack) every signal records,
 *   bounded and scrubbed of argument values;
 * - `sanitize.ts`: escaping control characters in printed text and diag lines.
 */
export { DEFAULT_MAX_LENGTH, resolveCapture } from './capture/options.js';
export type { Capture, CaptureOptions } from './capture/options.js';
export { DEFAULT_REDACT_PATTERNS, DEFAULT_REDACT_WORDS, REDACTED } from './capture/redaction.js';
export { diagSafe, escapeControlCharacters } from './capture/sanitize.js';
export { ErrorScrubber } from './capture/error-text.js';
export type { ErrorDescription } from './capture/error-text.js';
