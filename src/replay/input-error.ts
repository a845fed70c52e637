/**
 * The error for input a replay cannot use: a source that is not OTLP/JSON, a truncated line, an
 * unreachable URL, hooks that cannot be built. The CLI prints its message as one line and exits 2.
 */
import { escapeControlCharacters } from '../telemetry/capture.js';

/**
 * Raised (as a rejection of {@link replay}) when the source or the hooks cannot be used. Its message is
 * one line that names the problem.
 *
 * @example
 * ```ts
 * try {
 *   await replay({ hooks, source: 'traces.jsonl' });
 * } catch (error) {
 *   if (error instanceof ReplayInputError) console.error(error.message); // "traces.jsonl: line 7 is not valid JSON …"
 * }
 * ```
 */
export class ReplayInputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(oneLine(message), options);
    this.name = 'ReplayInputError';
  }
}

/**
 * Collapses whitespace (newlines included), escapes the control characters left (ESC, BEL, C1, bidi
 * controls: the source, a URL's error body or a policy's error message can hold them) and bounds the
 * length, so a message always prints as one inert line.
 */
export function oneLine(text: string, max = 500): string {
  const flat = escapeControlCharacters(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
