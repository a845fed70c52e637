/**
 * What an adapter that hands approvals to its framework remembers in process: the span that asked for
 * each approval (so the continuation links to it) and the approvals already resolved (so a response
 * replayed into a later call never runs the tool a second time). Bounded: the oldest ids are dropped.
 * @internal
 */
import type { SpanContext } from '@opentelemetry/api';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { addSpanLink } from '../telemetry/span.js';
import { ATTR_APPROVAL_ID } from '../telemetry/semconv.js';
import type { PendingApproval } from '../flows/handoff.js';
import { setBounded } from '../internal/bounded-map.js';
import { warnVisibly } from '../telemetry/warn-once.js';

/** How many approval ids a ledger remembers by default (asked and resolved ones together). */
const DEFAULT_CAPACITY = 10_000;

/** What a ledger knows of an approval id. */
type Entry = { readonly state: 'asked'; readonly askedIn: SpanContext | undefined } | { readonly state: 'resolved' };

/** An adapter's in-process memory of its approvals; one per hooked tool set. */
export class ApprovalLedger {
  readonly #where: string;
  readonly #capacity: number;
  readonly #entries = new Map<string, Entry>();

  constructor(where: string, capacity = DEFAULT_CAPACITY) {
    this.#where = where;
    this.#capacity = capacity;
  }

  /** Remembers the span that asked for `pending.id`. */
  asked(pending: PendingApproval): void {
    this.#set(pending.id, { state: 'asked', askedIn: pending.spanContext });
  }

  /**
   * A continuation for `id`: the span that asked when this process asked (for the link), `{}` when
   * it did not (the run state may come from another process, which is allowed), and undefined when
   * `id` was already resolved here — then it has warned, and the adapter must not run the call again.
   */
  resolve(id: string): { readonly askedIn?: SpanContext } | undefined {
    const entry = this.#entries.get(id);
    if (entry?.state === 'resolved') {
      warnVisibly(
        `toolhooks: ${this.#where}: approval ${JSON.stringify(id)} was already resolved; the response is ignored and the tool does not run again`,
        'TOOLHOOKS_APPROVAL_RESOLVED',
      );
      return undefined;
    }
    this.#set(id, { state: 'resolved' });
    return entry?.askedIn === undefined ? {} : { askedIn: entry.askedIn };
  }

  #set(id: string, entry: Entry): void {
    setBounded(this.#entries, id, entry, this.#capacity);
  }
}

/** The text a framework gets for a response replayed after its approval was resolved. */
export function alreadyResolved(id: string): string {
  return `approval ${id} was already resolved; the tool does not run again`;
}

/**
 * The approver runs in the call's context: the active span is the call's `execute_tool` span (the
 * one that asked, on the asking pass). Undefined when it does not record; never throws.
 */
export function callSpanContext(): SpanContext | undefined {
  try {
    const span = trace.getSpan(context.active());
    const spanContext = span?.isRecording() === true ? span.spanContext() : undefined;
    return spanContext !== undefined && isSpanContextValid(spanContext) ? spanContext : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The resumed pass's `execute_tool` span links to the span that asked. The resume value is known
 * only once the hooks asked again, after the span started, so the link is added to the started span.
 */
export function linkToAsker(askedIn: SpanContext, id: string): void {
  try {
    const span = trace.getSpan(context.active());
    if (span !== undefined) addSpanLink(span, { context: askedIn, attributes: { [ATTR_APPROVAL_ID]: id } });
  } catch {
    // The context API failing costs the link, never the call.
  }
}
