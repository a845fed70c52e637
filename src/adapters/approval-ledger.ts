/**
 * What an adapter that hands approvals to its framework remembers in process: the asks it made (the
 * asking span, for the continuation's link, and what each ask was about) and the approvals already
 * resolved (so a response replayed into a later call never runs the tool a second time).
 *
 * An approval is kept under its id — the framework's call id, scoped by the run or thread where the
 * framework has one ({@link approvalId}) — and the digest of the call it is about ({@link callDigest}):
 * two conversations whose models number their calls alike (`call_0`) ask and resolve side by side, and
 * a continuation whose call differs from the one asked about (other arguments, another tool) is
 * refused. Bounded: the oldest ids are dropped, and each id keeps a bounded list of asks.
 * @internal
 */
import { createHash } from 'node:crypto';
import type { SpanContext } from '@opentelemetry/api';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { addSpanLink } from '../telemetry/span.js';
import { ATTR_APPROVAL_ID } from '../telemetry/semconv.js';
import { setBounded } from '../internal/bounded-map.js';
import { warnVisibly } from '../telemetry/warn-once.js';
import { jsonOf } from './json-text.js';

/** How many approval ids a ledger remembers by default (asked and resolved ones together). */
const DEFAULT_CAPACITY = 10_000;

/** How many asks (and resolved digests) one id keeps: conversations that share a call id at the same time. */
export const PER_ID_CAPACITY = 16;

/** One ask of an id: what it was about, and the asking call's span. */
interface Ask {
  readonly about: string | undefined;
  readonly askedIn: SpanContext | undefined;
}

/** What a ledger knows of an approval id: the asks still waiting, the digests already resolved. */
interface Entry {
  readonly asks: Ask[];
  readonly resolved: (string | undefined)[];
}

/**
 * How a continuation's approval resolved:
 * - `asked`: this process asked about this very call (the asking span, for the link; the asking pass
 *   ran an enforce-mode hook — only such a hook's Ask takes effect);
 * - `elsewhere`: not asked here (the run may come from another process, which is allowed);
 * - `resolved`: already resolved here — it has warned, and the call must not run again;
 * - `differs`: this process asked about another call under this id (other arguments, another
 *   tool) — it has warned, and the call must not run.
 */
export type Resolution =
  | { readonly kind: 'asked'; readonly askedIn: SpanContext | undefined }
  | { readonly kind: 'elsewhere' }
  | { readonly kind: 'resolved' }
  | { readonly kind: 'differs' };

/** Whether a resolution lets the continuation go on (with the asking span, when this process asked). */
export function goesOn(resolution: Resolution): resolution is Extract<Resolution, { kind: 'asked' | 'elsewhere' }> {
  return resolution.kind === 'asked' || resolution.kind === 'elsewhere';
}

/** The asking span of a resolution that goes on; undefined when this process did not ask. */
export function askedInOf(resolution: Resolution): SpanContext | undefined {
  return resolution.kind === 'asked' ? resolution.askedIn : undefined;
}

/**
 * The digest of a requested call (its tool and arguments as JSON): what an approval is about.
 * Undefined for arguments that are not JSON; such an ask matches any continuation of its id.
 */
export function callDigest(toolName: string, args: unknown): string | undefined {
  const json = jsonOf([toolName, args ?? null]);
  return json === undefined ? undefined : createHash('sha256').update(json).digest('base64url');
}

/** An approval's id in a ledger: the call id within its run or thread, when the framework has one. */
export function approvalId(scope: string | undefined, callId: string): string {
  return scope === undefined ? callId : `${scope}\u0000${callId}`;
}

/** An adapter's in-process memory of its approvals; one per hooked tool set. */
export class ApprovalLedger {
  readonly #where: string;
  readonly #capacity: number;
  /** False for a memory of asks alone: an id resolved without an ask here is not remembered. */
  readonly #replays: boolean;
  readonly #entries = new Map<string, Entry>();

  constructor(where: string, capacity = DEFAULT_CAPACITY, options?: { readonly replays?: boolean }) {
    this.#where = where;
    this.#capacity = capacity;
    this.#replays = options?.replays ?? true;
  }

  /** Remembers an ask for `id` about the call `about`, from the span `askedIn`. */
  asked(id: string, about: string | undefined, askedIn: SpanContext | undefined): void {
    const entry = this.#entries.get(id) ?? { asks: [], resolved: [] };
    pushBounded(entry.asks, { about, askedIn });
    setBounded(this.#entries, id, entry, this.#capacity);
  }

  /**
   * Resolves a continuation for `id` about the call `about` (undefined: the adapter cannot tell the
   * call, and the oldest ask of the id is taken). An ask for this very call is used once; asks for
   * other calls under the id are kept for their own continuations.
   */
  resolve(id: string, about: string | undefined): Resolution {
    const entry = this.#entries.get(id);
    const index = entry === undefined ? -1 : entry.asks.findIndex((ask) => about === undefined || ask.about === undefined || ask.about === about);
    if (entry !== undefined && index >= 0) {
      const [ask] = entry.asks.splice(index, 1);
      this.#settle(id, entry, about);
      return { kind: 'asked', askedIn: ask?.askedIn };
    }
    if (entry !== undefined && this.#replays && (about === undefined ? entry.resolved.length > 0 : entry.resolved.includes(about))) {
      warnVisibly(
        `toolhooks: ${this.#where}: approval ${JSON.stringify(shown(id))} was already resolved; the response is ignored and the tool does not run again`,
        'TOOLHOOKS_APPROVAL_RESOLVED',
      );
      return { kind: 'resolved' };
    }
    if (entry !== undefined && entry.asks.length > 0) {
      warnVisibly(
        `toolhooks: ${this.#where}: the continuation of approval ${JSON.stringify(shown(id))} is not the call that was asked about (other arguments or another tool); it is refused and the tool does not run`,
        'TOOLHOOKS_APPROVAL_MISMATCH',
      );
      return { kind: 'differs' };
    }
    if (this.#replays) this.#settle(id, entry ?? { asks: [], resolved: [] }, about);
    return { kind: 'elsewhere' };
  }

  #settle(id: string, entry: Entry, about: string | undefined): void {
    if (this.#replays) pushBounded(entry.resolved, about);
    if (entry.asks.length === 0 && entry.resolved.length === 0) this.#entries.delete(id);
    else setBounded(this.#entries, id, entry, this.#capacity);
  }
}

/** An approval id as the app knows it: the call id, without the run or thread it is scoped by. */
function shown(id: string): string {
  return id.slice(id.lastIndexOf('\u0000') + 1);
}

/** Appends to a per-id list, dropping its oldest item beyond {@link PER_ID_CAPACITY}. */
function pushBounded<T>(list: T[], item: T): void {
  list.push(item);
  if (list.length > PER_ID_CAPACITY) list.shift();
}

/** The text a framework gets for a response replayed after its approval was resolved. */
export function alreadyResolved(id: string): string {
  return `approval ${id} was already resolved; the tool does not run again`;
}

/** The text a framework gets for a continuation whose call is not the one that was asked about. */
export function notAskedAbout(id: string): string {
  return `approval ${id} was given for another call (other arguments or another tool); the tool does not run`;
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
