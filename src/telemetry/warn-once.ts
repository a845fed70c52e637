/**
 * The one reporting home: everything toolhooks says about itself goes through this module — through
 * OpenTelemetry's `diag`, or as a Node process warning when the user must see it without a diag
 * logger. Every function escapes control characters in what it says and never throws, even when the
 * registered diag logger does: a report can never reach the tool path or a caller.
 *
 * Failures of telemetry components are "warned once, then counted" ({@link FailureCounter}): a failing
 * meter, logger or exporter must not flood the log, so the first failure is reported and later ones
 * at the 10th, 100th, 1000th…
 * @internal
 */
import { diag } from '@opentelemetry/api';
import { diagSafe } from './capture/sanitize.js';
import { apiGlobalRegistrations } from './otel-private.js';

/** How much a report matters; the diag level it is written at. */
type ReportLevel = 'error' | 'warn' | 'info';

/**
 * Says `message` (control characters escaped) through `diag` at `level`, with `detail` as diag's second
 * argument when given. Never throws.
 *
 * @example
 * ```ts
 * report('warn', 'toolhooks: telemetry flush failed', error);
 * ```
 */
export function report(level: ReportLevel, message: string, detail?: unknown): void {
  try {
    const line = diagSafe(message);
    if (detail === undefined) diag[level](line);
    else diag[level](line, detail);
  } catch {
    // the diag logger itself failed: nothing more can be done safely
  }
}

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
    report('warn', `toolhooks: ${what} (${this.#count} failure(s) so far); ${this.#consequence}`, error);
  }
}

/** Whether a diag logger is registered (the API keeps it in its global slot, shared by every API copy). */
function diagLoggerRegistered(): boolean {
  return apiGlobalRegistrations().diag;
}

/**
 * Says something the user must see even without a diag logger: through `diag.warn` when a diag logger is
 * registered, else as a Node process warning with `code` (printed to stderr unless `--no-warnings`; an
 * app can route it with `process.on('warning')`). Never throws.
 *
 * @example
 * ```ts
 * warnVisibly('toolhooks: telemetry dropped at shutdown: 3 spans (connection refused at http://localhost:4318/v1/traces)', 'TOOLHOOKS_TELEMETRY_DROPPED');
 * ```
 */
export function warnVisibly(message: string, code: string): void {
  try {
    if (diagLoggerRegistered() || typeof process === 'undefined' || typeof process.emitWarning !== 'function') report('warn', message);
    else process.emitWarning(diagSafe(message), { type: 'ToolhooksWarning', code });
  } catch {
    // nowhere left to say it
  }
}

/**
 * Like {@link warnVisibly}, but said before this function returns: for what must be seen even when the
 * process exits right after (an `exit` listener, a `.catch(() => process.exit(1))`), where a process
 * warning, emitted on a later tick, would never print. Without a diag logger it writes one line to stderr
 * shaped like a process warning (`(node:PID) [CODE] ToolhooksWarning: …`); Node writes a short line to a
 * stderr pipe at once, and a pipe nobody reads loses it rather than holding the process. Never throws.
 *
 * @example
 * ```ts
 * process.once('exit', () => warnNow('toolhooks: exited without shutdown(); 12 spans were not exported', 'TOOLHOOKS_NO_SHUTDOWN'));
 * ```
 */
export function warnNow(message: string, code: string, level: 'warn' | 'error' = 'warn'): void {
  try {
    const stderr = typeof process === 'undefined' ? undefined : process.stderr;
    if (diagLoggerRegistered() || typeof stderr?.write !== 'function') report(level, message);
    else stderr.write(`(node:${process.pid}) [${code}] ToolhooksWarning: ${diagSafe(message)}\n`);
  } catch {
    // nowhere left to say it
  }
}
