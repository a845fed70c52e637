/**
 * The public types of `toolhooks/receipts`: the hook's and the file sink's options, the sink interface, the
 * record and head formats, and what `verifyReceipts` reports. See docs/receipts.md.
 */
import type { KeyObject } from 'node:crypto';
import type { DecisionKind } from '../decisions.js';
import type { ApprovalOutcome, HookMode, Outcome, Phase, ToolHook } from '../hook.js';

/**
 * Where receipts go: an append-only sequence of lines. `fileReceiptSink` is the one toolhooks ships; write
 * your own to send lines elsewhere (a WORM bucket, a log service).
 *
 * @example
 * ```ts
 * const lines: string[] = [];
 * const memory: ReceiptSink = { write: async (line) => void lines.push(line), flush: async () => {}, close: async () => {} };
 * ```
 */
export interface ReceiptSink {
  /**
   * Appends one line (a JSON object, without its newline) after every line written before it. Resolves
   * once the line is written as durably as the sink promises; rejects when it could not be (the hook
   * reports it and goes on, or stops calls when it fails closed). A sink keeps a line that failed and
   * writes it before later ones, so the order never changes.
   */
  write(line: string, kind: 'record' | 'head'): Promise<void>;
  /** Writes every queued line, retrying those that failed; rejects when it still cannot. */
  flush(): Promise<void>;
  /** Flushes and releases the sink; later writes reject. Idempotent. */
  close(): Promise<void>;
}

/**
 * Options of {@link receiptHook}.
 *
 * @example
 * ```ts
 * const options: ReceiptHookOptions = { sink: fileReceiptSink('receipts.jsonl'), signingKey: './receipts-key.pem' };
 * ```
 */
export interface ReceiptHookOptions {
  /** Where the records go. */
  readonly sink: ReceiptSink;
  /** The stream the records chain in. Default: a random id per hook instance (one chain per process run). */
  readonly stream?: string;
  /**
   * HMAC-SHA-256 key for `args_digest` (`hmac-sha256:<hex>`), so that low-entropy arguments cannot be
   * guessed from their digest. Absent: plain SHA-256 (`sha256:<hex>`).
   */
  readonly argsKey?: string | Uint8Array;
  /**
   * Ed25519 private key (a KeyObject, PEM text, or the path of a PEM file): signs a head every `headEvery`
   * records and at `close()`. Absent: no heads are written.
   */
  readonly signingKey?: KeyObject | string;
  /** Records between signed heads. Default 100. */
  readonly headEvery?: number;
  /**
   * `'open'` (default): a sink that cannot write is reported once and calls go on (the chain shows the
   * records it lost as missing). `'closed'`: calls are aborted until the sink can write again.
   */
  readonly failureMode?: 'open' | 'closed';
  /** The hook's telemetry name. Default `receipts`. */
  readonly name?: string;
  /**
   * Called with each signed head as it is written: publish it outside the host (as an OTLP log record to
   * the collector, see docs/receipts.md), so that a history rewritten on the host no longer matches it.
   * Called synchronously; what it throws is reported and never reaches a call.
   */
  readonly onHead?: (head: ReceiptHead) => void;
}

/**
 * The receipt hook: an observer that writes a chained record of every decision and call outcome. It never
 * changes a decision (with `failureMode: 'closed'` it aborts calls while its sink cannot write).
 *
 * @example
 * ```ts
 * const receipts = receiptHook({ sink: fileReceiptSink('receipts.jsonl') });
 * const runner = new HookRunner([policy, receipts]);
 * process.on('beforeExit', () => void receipts.close());
 * ```
 */
export interface ReceiptHook extends ToolHook {
  /** The stream this hook chains in. */
  readonly stream: string;
  /** Resolves once every record so far is written (as durably as the sink promises); rejects when one could not be. */
  flush(): Promise<void>;
  /** Signs a final head (with a signing key), flushes and closes the sink. Idempotent; later events are dropped. */
  close(): Promise<void>;
}

/**
 * Options of {@link fileReceiptSink}.
 *
 * @example
 * ```ts
 * fileReceiptSink('/var/log/agent/receipts.jsonl', { fsync: 'always' });
 * ```
 */
export interface FileReceiptSinkOptions {
  /**
   * When the file is synced to disk: `'always'` after every batch of lines, before their writes resolve;
   * `'head'` (default) after each batch that holds a head, and at close; `'never'` left to the OS. Every
   * mode writes each line before resolving it, so a killed process loses only lines not yet written; a
   * power loss may also lose what was written after the last sync.
   */
  readonly fsync?: 'always' | 'head' | 'never';
}

/**
 * One receipt line: a decision, an approval, or a call outcome. Arguments and results never appear, only
 * `args_digest`.
 *
 * @example
 * ```ts
 * // {"v":1,"stream":"s1","seq":1,"prev":"000…","time":"2026-01-01T00:00:00.000Z","trace_id":"…","span_id":"…","tool":"shell",
 * //  "phase":"before_tool","hook":"policy","decision":"abort","effective":"abort","mode":"enforce","reason":"rm","args_digest":"sha256:…","hash":"…"}
 * ```
 */
export interface ReceiptRecord {
  readonly v: 1;
  readonly stream: string;
  readonly seq: number;
  readonly prev: string;
  /** RFC 3339 UTC with milliseconds; informative only (records are ordered by `seq`). */
  readonly time: string;
  readonly trace_id: string;
  /** The phase span's (decision), the approval span's (approval), the `execute_tool` span's (outcome). */
  readonly span_id: string;
  readonly call_id?: string;
  readonly tool: string;
  readonly phase?: Phase;
  /** The deciding hook (decision), the asking hook (approval). */
  readonly hook?: string;
  /** The hook's own decision, or `error` when it failed. */
  readonly decision?: DecisionKind | 'error';
  /** Decision records: what the phase decided. Outcome records: the tool that ran, when a Redirect changed it. */
  readonly effective?: string;
  readonly mode?: HookMode;
  readonly reason?: string;
  /** Approval records: how the approval ended. */
  readonly approval?: ApprovalOutcome;
  /** Outcome records: how the call ended. */
  readonly outcome?: Outcome;
  /** Decision records of a policy hook (`toolhooks/policy`): the engine, the loaded policy's digest, the determining policies. */
  readonly policy?: { readonly engine: string; readonly digest?: string; readonly ids?: readonly string[] };
  /** Decision records of a limit hook (`toolhooks/limits`): the count after the call, the limit, the window. */
  readonly limit?: { readonly used: number; readonly limit: number; readonly window_ms?: number };
  /** `sha256:<hex>` or `hmac-sha256:<hex>` of the RFC 8785 canonical JSON of the arguments. */
  readonly args_digest: string;
  readonly hash: string;
}

/**
 * A signed head: the stream's hash at `seq`, signed with the hook's Ed25519 key.
 *
 * @example
 * ```ts
 * // {"v":1,"type":"head","stream":"s1","seq":100,"hash":"…","key_id":"3f2a…","sig":"…"}
 * ```
 */
export interface ReceiptHead {
  readonly v: 1;
  readonly type: 'head';
  readonly stream: string;
  readonly seq: number;
  readonly hash: string;
  /** The first 16 hex characters of the SHA-256 of the raw 32-byte public key. */
  readonly key_id: string;
  /** base64url Ed25519 signature over `JCS({ v, type, stream, seq, hash })`. */
  readonly sig: string;
}

/**
 * What `verifyReceipts` found wrong, with where: `missing` names the first missing seq; `inserted` a record
 * whose seq repeats or that chains from a record that already has a successor; `torn_tail` a last line cut
 * by a crash (not tampering); `malformed` a line that is not a receipt (`line` says which).
 *
 * @example
 * ```ts
 * // { stream: 's1', seq: 7, kind: 'edited', message: 'record 7 does not hash to its hash', line: 9 }
 * ```
 */
export interface ReceiptProblem {
  readonly stream: string;
  readonly seq: number;
  readonly kind: 'edited' | 'missing' | 'reordered' | 'inserted' | 'bad_signature' | 'torn_tail' | 'malformed';
  readonly message: string;
  /** The 1-based line of the file the problem was found at, when it is one line's. */
  readonly line?: number;
}

/**
 * Options of {@link verifyReceipts}.
 *
 * @example
 * ```ts
 * await verifyReceipts('receipts.jsonl', { publicKey: './receipts-key.pub.pem' });
 * ```
 */
export interface VerifyReceiptsOptions {
  /** The Ed25519 public key (KeyObject, PEM text, or the path of a PEM file) heads are checked against. Absent: signatures are not checked. */
  readonly publicKey?: KeyObject | string;
}

/**
 * What {@link verifyReceipts} found. `ok` is true when nothing but a torn tail was found.
 *
 * @example
 * ```ts
 * const result = await verifyReceipts('receipts.jsonl');
 * if (!result.ok) for (const p of result.problems) console.log(p.kind, p.stream, p.seq, p.message);
 * ```
 */
export interface VerifyReceiptsResult {
  readonly ok: boolean;
  /** Records read (heads not counted). */
  readonly records: number;
  readonly streams: number;
  readonly heads: number;
  /** Heads whose signature was checked against the public key (0 without one). */
  readonly signaturesChecked: number;
  readonly problems: readonly ReceiptProblem[];
}
