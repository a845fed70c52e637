/**
 * Turns dropped telemetry into one diag report per outage, with a count (see docs/telemetry.md, "When the
 * collector fails").
 *
 * The 0.223 OTLP exporters retry what the spec calls retryable (429, 502, 503, 504, with backoff) and then
 * hand the batch processors a FAILED result, which the processors pass to the global error handler: one
 * `diag.error` per batch, every few seconds, for as long as the collector is down. The wrappers in
 * reporting-exporters.ts and queue-gate.ts feed a {@link DropReporter} instead, which reports the first
 * failure of an outage once (`diag.warn`, with what was dropped), counts silently after that, and says how
 * much was dropped in total when exports succeed again or at shutdown.
 * @internal
 */
import { ExportResultCode } from './sdk-parts.js';
import type { ExportResult } from './sdk-parts.js';
import { report } from '../telemetry/warn-once.js';

/** What a signal lost in an outage still open at shutdown: for the one-line shutdown report. */
export interface OutstandingDrops {
  readonly signal: string;
  readonly unit: string;
  readonly dropped: number;
  /** Why the last items were dropped, e.g. `export failed (connect ECONNREFUSED 127.0.0.1:4318)`. */
  readonly reason: string;
}

/**
 * Counts what one signal dropped and reports it through diag, once per outage: a `diag.warn` at the first
 * drop, silence while the outage lasts, a `diag.info` with the total once exports work again (or a
 * `diag.warn` with the total at shutdown if they never did).
 *
 * An outage ends when an export succeeds without the queue overflowing meanwhile, and every export that
 * was already under way by then has settled: an export sent to a hanging collector can fail well after a
 * later one succeeded, and its loss belongs to the outage being closed, not to a new one.
 */
export class DropReporter {
  readonly #signal: string;
  readonly #unit: string;
  #failing = false;
  #droppedInOutage = 0;
  #reportedInOutage = 0;
  #droppedTotal = 0;
  #queueDrops = 0;
  #lastTicket = 0;
  #lastFailedTicket = 0;
  /** Exports under way: ticket → the queue-drop count when it began, and how many items it carries. */
  readonly #pending = new Map<number, { readonly queueDrops: number; readonly count: number }>();
  #lastReason = '';
  #abandonedThrough = 0;
  /** Set once an export succeeded during the outage: the last ticket issued by then. */
  #recoveredThrough: number | undefined;

  constructor(signal: string, unit: string) {
    this.#signal = signal;
    this.#unit = unit;
  }

  /** Everything dropped since this reporter was created. */
  get dropped(): number {
    return this.#droppedTotal;
  }

  /** Notes that an export of `count` items began; pass the ticket to {@link settle}. */
  exportStarted(count = 0): number {
    this.#lastTicket += 1;
    this.#pending.set(this.#lastTicket, { queueDrops: this.#queueDrops, count });
    return this.#lastTicket;
  }

  /**
   * Records items given up on without an export result, e.g. still queued or under way when the shutdown
   * deadline passed; exports still under way are counted too and forgotten (a late result is ignored).
   */
  abandon(queued: number, reason: string): void {
    let count = queued;
    for (const pending of this.#pending.values()) count += pending.count;
    this.#pending.clear();
    this.#abandonedThrough = this.#lastTicket;
    this.#recoveredThrough = undefined;
    if (count > 0) this.#drop(count, () => reason);
  }

  /** Records items dropped because the processor's queue was full. */
  dropQueued(count: number, maxQueueSize: number): void {
    this.#queueDrops += count;
    this.#recoveredThrough = undefined; // still overflowing: not recovered yet
    this.#drop(count, () => `export cannot keep up (queue full at maxQueueSize ${maxQueueSize})`);
  }

  /** Records one export's result; returns the result the processor should see. */
  settle(result: ExportResult, count: number, ticket: number): ExportResult {
    const pending = this.#pending.get(ticket);
    // Already counted by abandon(): a late result changes nothing.
    if (pending === undefined && ticket <= this.#abandonedThrough) return { code: ExportResultCode.SUCCESS };
    const queueDropsAtStart = pending?.queueDrops ?? this.#queueDrops;
    this.#pending.delete(ticket);
    if (result.code === ExportResultCode.SUCCESS) {
      // Evidence of recovery: begun after the latest failed export, and no queue overflow while under way.
      if (this.#failing && this.#recoveredThrough === undefined && ticket > this.#lastFailedTicket && queueDropsAtStart === this.#queueDrops) {
        this.#recoveredThrough = this.#lastTicket;
      }
    } else {
      // A failure of an export begun after the recovery was seen means the collector is failing again.
      if (this.#recoveredThrough !== undefined && ticket > this.#recoveredThrough) this.#recoveredThrough = undefined;
      this.#lastFailedTicket = Math.max(this.#lastFailedTicket, ticket);
      this.#drop(count, () => `export failed (${describe(result.error)})`);
    }
    this.#reportRecovery();
    return result.code === ExportResultCode.SUCCESS ? result : { code: ExportResultCode.SUCCESS };
  }

  /**
   * At shutdown: closes the outage report, if one is open, and returns what the outage dropped (undefined
   * when exports were not failing).
   */
  reportOutstanding(): OutstandingDrops | undefined {
    if (!this.#failing) return undefined;
    if (this.#recoveredThrough !== undefined) {
      this.#pending.clear();
      this.#reportRecovery();
      return undefined;
    }
    if (this.#droppedInOutage > this.#reportedInOutage) {
      report('warn', `toolhooks: ${this.#signal} export was still failing at shutdown; ${this.#droppedInOutage} ${this.#unit} were dropped in all`);
    }
    this.#reportedInOutage = this.#droppedInOutage;
    return { signal: this.#signal, unit: this.#unit, dropped: this.#droppedInOutage, reason: this.#lastReason };
  }

  #drop(count: number, reason: () => string): void {
    this.#droppedInOutage += count;
    this.#droppedTotal += count;
    this.#lastReason = reason();
    if (this.#failing) return;
    this.#failing = true;
    this.#reportedInOutage = this.#droppedInOutage;
    report(
      'warn',
      `toolhooks: ${this.#signal} ${this.#lastReason}; dropped ${count} ${this.#unit}. ` +
        'Further drops are counted and reported when export recovers or at shutdown.',
    );
  }

  #reportRecovery(): void {
    const through = this.#recoveredThrough;
    if (!this.#failing || through === undefined) return;
    for (const ticket of this.#pending.keys()) if (ticket <= through) return; // older exports still under way
    report('info', `toolhooks: ${this.#signal} export recovered; ${this.#droppedInOutage} ${this.#unit} were dropped while it failed`);
    this.#failing = false;
    this.#droppedInOutage = 0;
    this.#reportedInOutage = 0;
    this.#recoveredThrough = undefined;
  }
}

function describe(error: Error | undefined): string {
  if (error === undefined) return 'no reason given';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
