/**
 * The error for input a replay cannot use: a source that is not OTLP/JSON, a truncated line, an
 * unreachable URL, hooks that cannot be built. The CLI prints its message as one line and exits 2.
 */
import { brandAcrossBuilds } from '../internal/brand.js';
import { oneLine } from '../telemetry/capture/sanitize.js';

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
  static {
    brandAcrossBuilds(this, 'ReplayInputError');
  }

  constructor(message: string, options?: { cause?: unknown }) {
    super(oneLine(message, MAX_MESSAGE_LENGTH), options);
    this.name = 'ReplayInputError';
  }
}

/** The longest message a replay error prints (as one line). */
export const MAX_MESSAGE_LENGTH = 500;
