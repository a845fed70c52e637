/**
 * Spans started and not yet ended, so that shutdown() can wait for the calls still running: a call that
 * ends while shutdown waits is delivered (its spans and log records), and what is still open when the
 * wait is over is counted in the one-line shutdown report instead of vanishing.
 * @internal
 */
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from './sdk-parts.js';

/**
 * A span processor that only counts: first in the provider's list, it sees every span start and end.
 *
 * @example
 * ```ts
 * const open = new OpenSpans();
 * new NodeSDK({ spanProcessors: [open, batch] });
 * const stillOpen = await open.settled(1000); // 0 once every started span has ended
 * ```
 */
export class OpenSpans implements SpanProcessor {
  #open = 0;
  #waiters: (() => void)[] = [];

  /** Spans started and not ended. */
  get count(): number {
    return this.#open;
  }

  onStart(_span: Span, _parentContext: Context): void {
    this.#open += 1;
  }

  onEnd(_span: ReadableSpan): void {
    this.#open = Math.max(0, this.#open - 1);
    if (this.#open === 0) for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves with the spans still open: 0 as soon as all have ended, else the count after `millis`. */
  async settled(millis: number): Promise<number> {
    if (this.#open === 0 || millis <= 0) return this.#open;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.#waiters.push(resolve);
      // Not unref'd: an app awaiting shutdown() while its last calls end must not exit halfway (the
      // wait is bounded by shutdown's own deadline).
      timer = setTimeout(resolve, millis);
    });
    clearTimeout(timer);
    return this.#open;
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
