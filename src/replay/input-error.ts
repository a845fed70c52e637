/**
 * The error for input a replay cannot use: a source that is not OTLP/JSON, a truncated line, an
 * unreachable URL, hooks that cannot be built. The CLI prints its message as one line and exits 2.
 */

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
import { brandAcrossBuilds } from '../internal/brand.js';
export class ReplayInputError extends Error {
  static {
    brandAcrossBuilds(this, 'ReplayInputError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(oneLine(message), options);
    this.name = 'ReplayInputError';
  }
}

/** Collapses whitespace (newlines included) and bounds the length, so a message always prints as one line. */
export function oneLine(text: string, max = 500): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
