/**
 * "Warn once, then count": how every telemetry component of toolhooks reports its own failures. A
 * failing meter, logger or exporter must never disturb a tool call, and must not flood the log either:
 * the first failure is reported through `diag.warn`, later ones are counted and the count is reported
 * at the 10th, 100th, 1000th… failure.
 * @internal
 */
import { diag } from '@opentelemetry/api';
import { diagSafe } from './capture.js';

/**
 * Counts the failures of one component and reports them through diag at the 1st, 10th, 100th…
 *
 * @example
 * ```ts
 * const failures = new FailureCounter('the tool call is unaffected');
 * try { histogram.record(1) } catch (error) { failures.report('MetricsHook could not record an event', error) }
 * // diag.warn('toolhooks: MetricsHook could not record an event (1 failure(s) so far); the tool call is unaffected', error)
 * ```
 */
export class FailureCounter {
  readonly #consequence: string;
  #count = 0;

  /** @param consequence what the failures do not affect, or what they cost, said after the count */
  constructor(consequence: string) {
    this.#consequence = consequence;
  }

  /** How many failures were reported. */
  get count(): number {
    return this.#count;
  }

  /** Counts one failure and, at the 1st, 10th, 100th…, says so through `diag.warn`; never throws. */
  report(what: string, error: unknown): void {
    this.#count += 1;
    if (this.#count !== 1 && !Number.isInteger(Math.log10(this.#count))) return;
    try {
      diag.warn(diagSafe(`toolhooks: ${what} (${this.#count} failure(s) so far); ${this.#consequence}`), error);
    } catch {
      // diag itself failed: nothing more can be done safely
    }
  }
}
