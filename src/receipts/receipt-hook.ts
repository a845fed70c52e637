/**
 * The receipt hook: an observer that turns every recorded decision, approval outcome and call outcome into
 * one chained record (chain.ts) and hands it to a sink. It runs inside the runner's observer delivery, so a
 * record is made synchronously, in the order the runner recorded the events: concurrent calls interleave
 * in one contiguous chain. It never changes a decision; with `failureMode: 'closed'` it aborts calls while
 * its sink cannot write.
 */
import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import type { HookDecision } from '../decisions.js';
import { abort } from '../decisions.js';
import type { ApprovalEvent, PhaseEvent, PhaseHookRecord, ToolEvent, ToolHookEvent } from '../hook.js';
import { errorMessage } from '../internal/describe.js';
import { anything, count, func, object, oneOf, readOptions, string } from '../internal/validate.js';
import { READS_EVENT_FACTS, eventFacts } from '../runner/event-facts.js';
import { callObserver, callSync } from '../runner/guard.js';
import {
  ATTR_LIMIT_LIMIT,
  ATTR_LIMIT_USED,
  ATTR_LIMIT_WINDOW_MS,
  ATTR_POLICY_DIGEST,
  ATTR_POLICY_ENGINE,
  ATTR_POLICY_IDS,
  ATTR_RECEIPT_SEQ,
  ATTR_RECEIPT_STREAM,
} from '../telemetry/semconv.js';
import { activeSpanContext, setSpanAttributes } from '../telemetry/span.js';
import { report, warnVisibly } from '../telemetry/warn-once.js';
import { GENESIS, RECEIPT_VERSION, argsDigest, chainHash, keyId, signHead } from './chain.js';
import { readSigningKey } from './keys.js';
import type { ReceiptHead, ReceiptHook, ReceiptHookOptions, ReceiptRecord, ReceiptSink } from './types.js';

const WHERE = 'receiptHook';
const DEFAULT_HEAD_EVERY = 100;
const NO_TRACE = '0'.repeat(32);
const NO_SPAN = '0'.repeat(16);

/** A record's own fields: everything but the chain's (`v`, `stream`, `seq`, `prev`, `time`, ids, `hash`). */
type RecordFields = Omit<ReceiptRecord, 'v' | 'stream' | 'seq' | 'prev' | 'time' | 'trace_id' | 'span_id' | 'hash' | 'args_digest'>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Makes a receipt hook: one chained record per decision the runner records (every hook's decision or
 * failure, shadowed and audit ones included), per approval outcome and per call outcome, written to
 * `sink`; a signed head every `headEvery` records and at `close()` when a `signingKey` is given. Arguments
 * and results never appear in a record: only `args_digest`. Put it anywhere in the runner's hooks; it sees
 * every event. Throws a TypeError naming the problem for bad options (a key file that does not exist, a
 * key that is not Ed25519).
 *
 * @example
 * ```ts
 * import { HookRunner } from 'toolhooks';
 * import { fileReceiptSink, receiptHook } from 'toolhooks/receipts';
 *
 * const receipts = receiptHook({ sink: fileReceiptSink('receipts.jsonl'), signingKey: process.env.RECEIPT_KEY_PEM });
 * const runner = new HookRunner([policy, receipts]);
 * // at shutdown: a final signed head, then the file is synced and closed
 * await receipts.close();
 * ```
 */
export function receiptHook(options: ReceiptHookOptions): ReceiptHook {
  if (options === undefined) throw new TypeError(`${WHERE}(options) needs { sink }, such as { sink: fileReceiptSink('receipts.jsonl') }`);
  const read = readOptions(options, `${WHERE}(options)`, WHERE, {
    sink: object,
    stream: string,
    argsKey: anything,
    signingKey: anything,
    headEvery: count(1),
    failureMode: oneOf('open', 'closed'),
    name: string,
    onHead: func,
  });
  const sink = read.sink as ReceiptSink | undefined;
  if (sink === undefined) throw new TypeError(`${WHERE}: sink is required, such as fileReceiptSink('receipts.jsonl')`);
  for (const method of ['write', 'flush', 'close'] as const) {
    if (typeof sink[method] !== 'function') throw new TypeError(`${WHERE}: sink must have a ${method}() method (a ReceiptSink, such as fileReceiptSink(path))`);
  }
  const stream = read.stream ?? randomUUID();
  if (stream === '' || stream !== wellFormed(stream)) throw new TypeError(`${WHERE}: stream must be a non-empty, well-formed string, got ${JSON.stringify(stream)}`);
  return new ReceiptRecorder({
    sink,
    stream,
    argsKey: readArgsKey(read.argsKey),
    signingKey: read.signingKey === undefined ? undefined : readSigningKey(read.signingKey, WHERE),
    headEvery: read.headEvery ?? DEFAULT_HEAD_EVERY,
    closed: read.failureMode === 'closed',
    name: read.name ?? 'receipts',
    onHead: read.onHead as ((head: ReceiptHead) => void) | undefined,
  });
}

function readArgsKey(value: unknown): Uint8Array | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value !== '') return Buffer.from(value, 'utf8');
  if (value instanceof Uint8Array && value.length > 0) return value;
  throw new TypeError(`${WHERE}: argsKey must be a non-empty string or Uint8Array (the HMAC-SHA-256 key for args_digest)`);
}

interface RecorderConfig {
  readonly sink: ReceiptSink;
  readonly stream: string;
  readonly argsKey: Uint8Array | undefined;
  readonly signingKey: KeyObject | undefined;
  readonly headEvery: number;
  readonly closed: boolean;
  readonly name: string;
  readonly onHead: ((head: ReceiptHead) => void) | undefined;
}

class ReceiptRecorder implements ReceiptHook {
  readonly [READS_EVENT_FACTS] = true;
  readonly name: string;
  readonly stream: string;
  readonly failureMode?: 'closed';
  /** Only when failing closed: refuses calls while the sink cannot write. */
  readonly beforeTool?: () => HookDecision | undefined | Promise<HookDecision | undefined>;
  readonly #config: RecorderConfig;
  readonly #keyId: string | undefined;
  readonly #consequence: string;
  #failures = 0;
  #seq = 0;
  #prev = GENESIS;
  #headSeq = 0;
  /** Set when a write failed, cleared when one succeeds (or a flush does). */
  #failing: unknown = undefined;
  #closing: Promise<void> | undefined = undefined;
  #dropped = 0;
  /** The sink's promise for the last line written, already watched for a failure. */
  #watched: unknown = undefined;

  constructor(config: RecorderConfig) {
    this.#config = config;
    this.name = config.name;
    this.stream = config.stream;
    this.#keyId = config.signingKey === undefined ? undefined : keyId(config.signingKey);
    this.#consequence = config.closed
      ? 'tool calls are refused until the receipt sink can write again'
      : 'tool calls go on; records that are never written show as missing when the file is verified';
    if (config.closed) {
      this.failureMode = 'closed';
      this.beforeTool = () => this.#gate();
    }
  }

  onEvent(event: ToolHookEvent): void {
    if (this.#closing !== undefined) {
      this.#dropped += 1;
      if (this.#dropped === 1) report('warn', `toolhooks: receipt hook "${this.name}" is closed; later events get no receipt (the tool call is unaffected)`);
      return;
    }
    const facts = eventFacts(event);
    const context = facts?.span?.spanContext() ?? activeSpanContext();
    const ids = { trace_id: context?.traceId ?? NO_TRACE, span_id: context?.spanId ?? NO_SPAN };
    const digest = this.#digest(facts === undefined ? undefined : facts.args);
    if (event.type === 'phase') this.#phase(event, ids, digest);
    else if (event.type === 'approval') this.#approval(event, ids, digest);
    else this.#outcome(event, ids, digest, facts?.span);
  }

  flush(): Promise<void> {
    return this.#config.sink.flush().then(() => {
      this.#failing = undefined;
    });
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    if (this.#config.signingKey !== undefined && this.#headSeq < this.#seq) this.#head();
    await this.#config.sink.close();
  }

  #phase(event: PhaseEvent, ids: Ids, digest: string): void {
    for (const record of event.hooks) {
      if (record.hook === this.name) continue; // the recorder's own gate is not a decision
      const fields: Mutable<RecordFields> = { tool: event.toolName, phase: event.phase, hook: record.hook, decision: record.decision, effective: event.decision };
      if (event.callId !== undefined) fields.call_id = event.callId;
      if (record.mode !== undefined) fields.mode = record.mode;
      const reason = record.decision === 'error' ? event.errors.find((failure) => failure.hook === record.hook)?.kind : record.reason;
      if (reason !== undefined) fields.reason = reason;
      const limit = limitOf(record.attributes);
      if (limit !== undefined) fields.limit = limit;
      const policy = policyOf(record.attributes);
      if (policy !== undefined) fields.policy = policy;
      this.#append(fields, ids, digest);
    }
  }

  #approval(event: ApprovalEvent, ids: Ids, digest: string): void {
    const fields: Mutable<RecordFields> = { tool: event.toolName, phase: 'before_tool', hook: event.hook, approval: event.outcome, reason: event.reason };
    if (event.callId !== undefined) fields.call_id = event.callId;
    this.#append(fields, ids, digest);
  }

  #outcome(event: ToolEvent, ids: Ids, digest: string, span: Span | undefined): void {
    const fields: Mutable<RecordFields> = { tool: event.toolName, outcome: event.outcome };
    if (event.callId !== undefined) fields.call_id = event.callId;
    if (event.effectiveToolName !== event.toolName) fields.effective = event.effectiveToolName;
    if (event.reason !== undefined) fields.reason = event.reason;
    const seq = this.#append(fields, ids, digest);
    if (span !== undefined) setSpanAttributes(span, 'toolhooks.receipt attributes', { [ATTR_RECEIPT_STREAM]: this.stream, [ATTR_RECEIPT_SEQ]: seq });
  }

  #digest(args: unknown): string {
    try {
      return argsDigest(args, this.#config.argsKey);
    } catch {
      // A getter that throws while being read: the record says so rather than hash something else.
      return 'unavailable';
    }
  }

  /**
   * Chains one record and hands it to the sink; returns its seq. The record is written twice as object
   * literals of one fixed shape each (absent members undefined, which JSON leaves out), so that
   * `JSON.stringify` takes its fast path for both: the canonical text the hash is taken over (members in
   * RFC 8785 order; JSON escapes strings and writes integers as RFC 8785 does) and the line (members in
   * reading order).
   */
  #append(fields: Mutable<RecordFields>, ids: Ids, digest: string): number {
    const seq = this.#seq + 1;
    this.#seq = seq;
    const prev = this.#prev;
    const stream = this.stream;
    const time = new Date().toISOString();
    const callId = optional(fields.call_id);
    const tool = wellFormed(fields.tool);
    const hook = optional(fields.hook);
    const effective = optional(fields.effective);
    const reason = optional(fields.reason);
    const { phase, decision, mode, approval, outcome } = fields;
    // Nested members in RFC 8785 order too (both are rare: a limit's or a policy's decision records).
    const limit = fields.limit === undefined ? undefined : { limit: fields.limit.limit, used: fields.limit.used, window_ms: fields.limit.window_ms };
    const policy =
      fields.policy === undefined
        ? undefined
        : { digest: optional(fields.policy.digest), engine: wellFormed(fields.policy.engine), ids: fields.policy.ids?.map((id) => wellFormed(id)) };
    const canonical = {
      approval,
      args_digest: digest,
      call_id: callId,
      decision,
      effective,
      hook,
      limit,
      mode,
      outcome,
      phase,
      policy,
      prev,
      reason,
      seq,
      span_id: ids.span_id,
      stream,
      time,
      tool,
      trace_id: ids.trace_id,
      v: RECEIPT_VERSION,
    };
    const hash = chainHash(prev, JSON.stringify(canonical));
    this.#prev = hash;
    const line = {
      v: RECEIPT_VERSION,
      stream,
      seq,
      prev,
      time,
      trace_id: ids.trace_id,
      span_id: ids.span_id,
      call_id: callId,
      tool,
      phase,
      hook,
      decision,
      effective,
      mode,
      reason,
      approval,
      outcome,
      policy,
      limit,
      args_digest: digest,
      hash,
    };
    this.#write(JSON.stringify(line), 'record');
    if (this.#config.signingKey !== undefined && seq % this.#config.headEvery === 0) this.#head();
    return seq;
  }

  #head(): void {
    const key = this.#config.signingKey as KeyObject;
    this.#headSeq = this.#seq;
    const sig = signHead(key, this.stream, this.#seq, this.#prev);
    const head: ReceiptHead = Object.freeze({ v: RECEIPT_VERSION, type: 'head', stream: this.stream, seq: this.#seq, hash: this.#prev, key_id: this.#keyId as string, sig });
    this.#write(JSON.stringify(head), 'head');
    const onHead = this.#config.onHead;
    if (onHead === undefined) return;
    const failure = callObserver(() => onHead(head));
    if (failure !== undefined) report('warn', `toolhooks: receipt hook "${this.name}": onHead threw: ${errorMessage(failure.error)}; the head is in the sink all the same`);
  }

  #write(line: string, kind: 'record' | 'head'): void {
    const sink = this.#config.sink;
    const called = callSync(() => sink.write(line, kind));
    if (!called.ok) {
      this.#failed(called.error);
      return;
    }
    // Lines written together share a promise (fileReceiptSink's batches): one handler for them all. Only a
    // failure is heard of here; the fail-closed gate learns of a recovery from its own flush().
    const written: unknown = called.value;
    if (written === this.#watched) return;
    this.#watched = written;
    Promise.resolve(written).then(undefined, (error: unknown) => this.#failed(error));
  }

  /**
   * A write failed: said once where the user sees it even without a diag logger (an audit trail with a hole
   * must not go unnoticed), then counted through diag at the 10th, 100th… failure.
   */
  #failed(error: unknown): void {
    this.#failing = error ?? new Error('the sink failed');
    this.#failures += 1;
    const count = this.#failures;
    const message = `toolhooks: receipt hook "${this.name}" could not write a receipt: ${errorMessage(error)} (${count} failure(s) so far); ${this.#consequence}`;
    if (count === 1) warnVisibly(message, 'TOOLHOOKS_RECEIPTS_UNWRITTEN');
    else if (Number.isInteger(Math.log10(count))) report('warn', message);
  }

  /** Fail-closed gate: a call goes on only while the sink writes; a failing sink is retried first. */
  #gate(): HookDecision | undefined | Promise<HookDecision | undefined> {
    if (this.#closing !== undefined) return abort(`receipts: receipt hook "${this.name}" is closed; calls stop (failureMode 'closed')`);
    if (this.#failing === undefined) return undefined;
    return this.#config.sink.flush().then(
      () => {
        this.#failing = undefined;
        return undefined;
      },
      (error: unknown) => abort(`receipts: the receipt sink cannot write (${errorMessage(error)}); calls stop until it can (failureMode 'closed')`),
    );
  }
}

interface Ids {
  readonly trace_id: string;
  readonly span_id: string;
}

/** String.prototype.isWellFormed / toWellFormed (Node 20+; not in this TypeScript lib). */
interface WellFormedString {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** An optional text, well formed. */
function optional(text: string | undefined): string | undefined {
  return text === undefined ? undefined : wellFormed(text);
}

/** The text with each lone surrogate (which canonical JSON cannot hold) as U+FFFD. */
function wellFormed(text: string): string {
  const checked = text as unknown as WellFormedString;
  return checked.isWellFormed() ? text : checked.toWellFormed();
}

/** What a limit hook recorded on its decision (its `toolhooks.limit.*` attributes), as a receipt carries it. */
function limitOf(attributes: PhaseHookRecord['attributes']): ReceiptRecord['limit'] {
  const used = attributes?.[ATTR_LIMIT_USED];
  const limit = attributes?.[ATTR_LIMIT_LIMIT];
  if (typeof used !== 'number' || typeof limit !== 'number') return undefined;
  const windowMs = attributes?.[ATTR_LIMIT_WINDOW_MS];
  return typeof windowMs === 'number' ? { used, limit, window_ms: windowMs } : { used, limit };
}

/** What a policy hook recorded on its decision (its `toolhooks.policy.*` attributes), as a receipt carries it. */
function policyOf(attributes: PhaseHookRecord['attributes']): ReceiptRecord['policy'] {
  const engine = attributes?.[ATTR_POLICY_ENGINE];
  if (typeof engine !== 'string') return undefined;
  const digest = attributes?.[ATTR_POLICY_DIGEST];
  const ids = attributes?.[ATTR_POLICY_IDS];
  return {
    engine,
    ...(typeof digest === 'string' ? { digest } : {}),
    ...(Array.isArray(ids) ? { ids: ids.filter((id): id is string => typeof id === 'string') } : {}),
  };
}
