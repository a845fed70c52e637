/**
 * Verifies a receipt file by streaming it once: each record's hash is recomputed, each record placed in
 * its stream's chain by `seq` and `prev`, each head checked against the chain (and its signature against
 * the public key). Memory is bounded: a stream keeps its last hashes (enough to place reordered and
 * inserted records near where they belong), never the file.
 */
import { stat } from 'node:fs/promises';
import type { KeyObject } from 'node:crypto';
import { errorMessage } from '../internal/describe.js';
import { anything, readOptions } from '../internal/validate.js';
import { GENESIS, headSignatureValid, keyId, recordHash } from './chain.js';
import { readPublicKey } from './keys.js';
import { readLines } from './line-reader.js';
import type { FileLine } from './line-reader.js';
import type { ReceiptProblem, VerifyReceiptsOptions, VerifyReceiptsResult } from './types.js';

const WHERE = 'verifyReceipts';
/** A receipt line is a few hundred bytes; anything past this is not one. */
const MAX_LINE_BYTES = 1024 * 1024;
/** Hashes a stream keeps to place records that arrive out of order. */
const WINDOW = 4096;
/** Problems reported in full; past this they are counted. */
const MAX_PROBLEMS = 1000;
const HEX64 = /^[0-9a-f]{64}$/;

type Kind = ReceiptProblem['kind'];

interface PendingHead {
  readonly seq: number;
  readonly hash: string;
  readonly line: number;
}

interface TornCandidate {
  readonly stream: string;
  readonly seq: number;
  readonly line: number;
  readonly message: string;
}

/** What one stream's chain holds while the file is read. */
class StreamChain {
  /** The seq the next record should have. */
  next = 1;
  /** The hashes the next record may chain from: the last record's own, and its recomputed one when it was edited. */
  last: readonly string[] = [GENESIS];
  /** Recent records: seq → their hashes, and which hashes already have a successor. */
  readonly bySeq = new Map<number, readonly string[]>();
  readonly succeeded = new Map<string, number>();
  /** Seqs skipped over, [from, to], until they turn up (reordered) or the file ends (missing). */
  gaps: [number, number][] = [];
  pendingHeads: PendingHead[] = [];

  remember(seq: number, hashes: readonly string[]): void {
    this.bySeq.set(seq, hashes);
    if (this.bySeq.size > WINDOW) this.bySeq.delete(this.bySeq.keys().next().value as number);
  }

  markSucceeded(prev: string, seq: number): void {
    this.succeeded.set(prev, seq);
    if (this.succeeded.size > WINDOW) this.succeeded.delete(this.succeeded.keys().next().value as string);
  }

  /** Takes `seq` out of the gaps; whether it was in one. */
  fill(seq: number): boolean {
    const index = this.gaps.findIndex(([from, to]) => seq >= from && seq <= to);
    if (index === -1) return false;
    const [from, to] = this.gaps[index] as [number, number];
    const rest: [number, number][] = [];
    if (from < seq) rest.push([from, seq - 1]);
    if (seq < to) rest.push([seq + 1, to]);
    this.gaps.splice(index, 1, ...rest);
    return true;
  }
}

/** One verification run. */
class Verification {
  readonly streams = new Map<string, StreamChain>();
  readonly problems: ReceiptProblem[] = [];
  records = 0;
  heads = 0;
  signaturesChecked = 0;
  #overflow = 0;
  readonly #torn: TornCandidate[] = [];

  constructor(
    readonly publicKey: KeyObject | undefined,
    readonly publicKeyId: string | undefined,
  ) {}

  problem(kind: Kind, stream: string, seq: number, message: string, line?: number): void {
    const previous = this.problems.at(-1);
    // One change can break two links (a record and the next one's prev): it is one problem.
    if (previous !== undefined && kind !== 'malformed' && previous.kind === kind && previous.stream === stream && previous.seq === seq) return;
    if (this.problems.length >= MAX_PROBLEMS) {
      this.#overflow += 1;
      return;
    }
    this.problems.push(line === undefined ? { stream, seq, kind, message } : { stream, seq, kind, message, line });
  }

  chain(stream: string): StreamChain {
    let chain = this.streams.get(stream);
    if (chain === undefined) {
      chain = new StreamChain();
      this.streams.set(stream, chain);
    }
    return chain;
  }

  record(value: Record<string, unknown>, line: number): void {
    const stream = value.stream as string;
    const seq = value.seq as number;
    const claimed = value.hash as string;
    const prev = value.prev as string;
    const { hash: _hash, ...content } = value;
    let computed: string;
    try {
      computed = recordHash(prev, content);
    } catch (error) {
      this.problem('malformed', stream, seq, `line ${line}: record ${seq} cannot be canonicalised: ${errorMessage(error)}`, line);
      return;
    }
    this.records += 1;
    const chain = this.chain(stream);
    const intact = computed === claimed;
    const hashes = intact ? [claimed] : [claimed, computed];
    // An edited seq still chains from where it was written: it is placed there, not by the number it now shows.
    const position = !intact && seq !== chain.next && chain.last.includes(prev) ? chain.next : seq;
    if (!intact) this.problem('edited', stream, position, `record ${position} does not match its hash: it was changed after it was written`, line);

    if (position === chain.next) {
      if (!chain.last.includes(prev) && intact) {
        const successor = chain.succeeded.get(prev);
        if (successor !== undefined) {
          this.problem('inserted', stream, position, `record ${position} chains from a record that already has a successor (record ${successor})`, line);
        } else if (position === 1) {
          this.problem('edited', stream, 1, `record 1 does not start the chain (its prev is not 64 zeros)`, line);
        } else if (!chain.gaps.some(([, to]) => to === position - 1)) {
          this.problem('edited', stream, position - 1, `record ${position} does not chain from record ${position - 1}: record ${position - 1} was changed or replaced`, line);
        }
      }
      this.#advance(stream, chain, prev, position, hashes);
      return;
    }
    if (position > chain.next) {
      chain.gaps.push([chain.next, position - 1]);
      this.#advance(stream, chain, prev, position, hashes);
      return;
    }
    // An earlier seq: one that was skipped turns up late, or a seq that is already taken.
    if (chain.fill(position)) {
      if (intact) this.problem('reordered', stream, position, `record ${position} comes after record ${chain.next - 1}: records were reordered`, line);
      chain.remember(position, hashes);
      return;
    }
    if (intact) this.problem('inserted', stream, position, `record ${position} repeats a seq already in the chain`, line);
    // A fork of the last record: the next one may chain from either branch, and the fork is reported once.
    if (position === chain.next - 1) chain.last = [...chain.last, claimed];
  }

  head(value: Record<string, unknown>, line: number): void {
    this.heads += 1;
    const stream = value.stream as string;
    const seq = value.seq as number;
    const hash = value.hash as string;
    if (this.publicKey !== undefined) {
      this.signaturesChecked += 1;
      if (value.key_id !== this.publicKeyId) {
        this.problem('bad_signature', stream, seq, `head at seq ${seq} names key ${String(value.key_id)}, not the given key ${String(this.publicKeyId)}`, line);
      } else if (!headSignatureValid(this.publicKey, stream, seq, hash, value.sig as string)) {
        this.problem('bad_signature', stream, seq, `head at seq ${seq}: the signature does not match (the head was changed, or signed with another key)`, line);
      }
    }
    const chain = this.chain(stream);
    if (seq >= chain.next) {
      chain.pendingHeads.push({ seq, hash, line });
      return;
    }
    this.#checkHead(stream, chain, { seq, hash, line });
  }

  /** Checks a head against the record it names, when that record is still in the window. */
  #checkHead(stream: string, chain: StreamChain, head: PendingHead): void {
    const hashes = chain.bySeq.get(head.seq);
    if (hashes === undefined || hashes.includes(head.hash)) return;
    this.problem('bad_signature', stream, head.seq, `head at seq ${head.seq} names a hash record ${head.seq} does not have: the head or the record was changed`, head.line);
  }

  /** Record `position` (chained from `prev`, hashing to `hashes`) is the stream's newest: the chain moves past it. */
  #advance(stream: string, chain: StreamChain, prev: string, position: number, hashes: readonly string[]): void {
    chain.markSucceeded(prev, position);
    chain.last = hashes;
    chain.next = position + 1;
    chain.remember(position, hashes);
    this.#settleHeads(stream, chain);
  }

  #settleHeads(stream: string, chain: StreamChain): void {
    if (chain.pendingHeads.length === 0) return;
    const waiting: PendingHead[] = [];
    for (const head of chain.pendingHeads) {
      if (head.seq < chain.next) this.#checkHead(stream, chain, head);
      else waiting.push(head);
    }
    chain.pendingHeads = waiting;
  }

  /**
   * A cut record inside the file: torn when nothing of its stream follows it (its writer crashed mid-line and
   * a later run appended after it, each run being its own stream); decided at the end.
   */
  maybeTorn(cut: TornCandidate): void {
    this.#torn.push(cut);
  }

  finish(): VerifyReceiptsResult {
    for (const cut of this.#torn) {
      const chain = this.streams.get(cut.stream);
      if (chain !== undefined && chain.next > cut.seq) this.problem('malformed', cut.stream, cut.seq, `${cut.message}: a cut record that later records of its stream follow`, cut.line);
      else this.problem('torn_tail', cut.stream, cut.seq, `${cut.message}: the stream's last record was cut short (a crash mid-write, then a new run appended)`, cut.line);
    }
    for (const [stream, chain] of this.streams) {
      for (const [from, to] of chain.gaps) {
        this.problem('missing', stream, from, from === to ? `record ${from} is missing` : `records ${from} to ${to} are missing`);
      }
      for (const head of chain.pendingHeads) {
        this.problem('missing', stream, chain.next, `head at seq ${head.seq} signs records up to ${head.seq}, but the stream ends at ${chain.next - 1}: records were removed`, head.line);
      }
    }
    if (this.records + this.heads === 0 && this.problems.length === 0) this.problem('malformed', '', 0, 'the file holds no receipt (it is empty)');
    if (this.#overflow > 0) {
      this.problems.push({ stream: '', seq: 0, kind: 'malformed', message: `${this.#overflow} more problem(s) not listed` });
    }
    const ok = this.problems.every((problem) => problem.kind === 'torn_tail');
    return { ok, records: this.records, streams: this.streams.size, heads: this.heads, signaturesChecked: this.signaturesChecked, problems: this.problems };
  }
}

/**
 * Verifies a receipt file (JSON Lines, as `fileReceiptSink` writes it), streaming it in bounded memory.
 * Finds and names, with the stream and seq: an edited record, a missing one (the first missing seq), a
 * reordered or inserted one, a bad signature (wrong key, edited head), a malformed line (with its line
 * number), and a torn last line (`torn_tail`: a crash mid-write, not tampering; `ok` stays true). With no
 * `publicKey`, heads are checked against the chain but their signatures are not. Rejects with an Error
 * naming the file when it cannot be read, and a TypeError for a bad key.
 *
 * @example
 * ```ts
 * import { verifyReceipts } from 'toolhooks/receipts';
 *
 * const result = await verifyReceipts('receipts.jsonl', { publicKey: 'receipts-key.pub.pem' });
 * if (!result.ok) for (const p of result.problems) console.error(`${p.kind} ${p.stream}#${p.seq}: ${p.message}`);
 * ```
 */
export async function verifyReceipts(source: string, options?: VerifyReceiptsOptions): Promise<VerifyReceiptsResult> {
  if (typeof source !== 'string' || source === '') throw new TypeError(`${WHERE}(source) needs the path of a receipt file`);
  const read = readOptions(options, `${WHERE}(source, options)`, WHERE, { publicKey: anything });
  const publicKey = read.publicKey === undefined ? undefined : readPublicKey(read.publicKey, WHERE);
  try {
    const info = await stat(source);
    if (!info.isFile()) throw new Error('not a regular file');
  } catch (error) {
    throw new Error(`${WHERE}: cannot read ${source}: ${errorMessage(error)}`, { cause: error });
  }
  const run = new Verification(publicKey, publicKey === undefined ? undefined : keyId(publicKey));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const line of readLines(source, MAX_LINE_BYTES)) readLine(run, line, (bytes) => decoder.decode(bytes));
  } catch (error) {
    throw new Error(`${WHERE}: cannot read ${source}: ${errorMessage(error)}`, { cause: error });
  }
  return run.finish();
}

function readLine(run: Verification, line: FileLine, decode: (bytes: Buffer) => string): void {
  const where = `line ${line.number}`;
  if (line.bytes === undefined) {
    run.problem('malformed', '', 0, `${where} is ${line.length} bytes long, longer than any receipt (${MAX_LINE_BYTES} bytes): not a receipt`, line.number);
    return;
  }
  let text: string;
  try {
    text = decode(line.bytes);
  } catch {
    unreadable(run, line, `${where} is not UTF-8 text`, '');
    return;
  }
  if (text.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    unreadable(run, line, `${where} is not JSON: ${errorMessage(error)}`, text);
    return;
  }
  const shape = shapeProblem(value);
  if (shape !== undefined) {
    const known = value as { stream?: unknown; seq?: unknown };
    run.problem('malformed', typeof known.stream === 'string' ? known.stream : '', typeof known.seq === 'number' ? known.seq : 0, `${where}: ${shape}`, line.number);
    return;
  }
  const object = value as Record<string, unknown>;
  if (object.type === 'head') run.head(object, line.number);
  else run.record(object, line.number);
}

/**
 * A line that cannot be read: a torn tail when it is the last and no newline ended it, or when it is a cut
 * record that ends its stream (decided at the end); else malformed.
 */
function unreadable(run: Verification, line: FileLine, message: string, text: string): void {
  const match = /"stream":("(?:[^"\\]|\\.)*"),"seq":(\d+)/.exec(text);
  let stream: string;
  try {
    stream = match === null ? '' : (JSON.parse(match[1] as string) as string);
  } catch {
    stream = '';
  }
  const seq = match === null ? 0 : Number(match[2]);
  if (!line.terminated) run.problem('torn_tail', stream, seq, `${message}: the last line was cut short (a crash mid-write)`, line.number);
  else if (match !== null && text.startsWith('{"v":1,')) run.maybeTorn({ stream, seq, line: line.number, message });
  else run.problem('malformed', stream, seq, message, line.number);
}

/** Why a parsed line is not a record or head, or undefined when it is one. */
function shapeProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object';
  const line = value as Record<string, unknown>;
  if (line.v !== 1) return `unknown format version ${JSON.stringify(line.v)} (expected 1)`;
  if (typeof line.stream !== 'string' || line.stream === '') return 'no stream';
  if (typeof line.seq !== 'number' || !Number.isSafeInteger(line.seq) || line.seq < 1) return 'seq is not a positive integer';
  if (typeof line.hash !== 'string' || !HEX64.test(line.hash)) return 'hash is not 64 lowercase hex characters';
  if (line.type === 'head') {
    if (typeof line.key_id !== 'string' || typeof line.sig !== 'string') return 'a head needs key_id and sig';
    return undefined;
  }
  if (line.type !== undefined) return `unknown line type ${JSON.stringify(line.type)}`;
  if (typeof line.prev !== 'string' || !HEX64.test(line.prev)) return 'prev is not 64 lowercase hex characters';
  for (const key of ['time', 'trace_id', 'span_id', 'tool', 'args_digest'] as const) {
    if (typeof line[key] !== 'string') return `${key} is missing or not a string`;
  }
  return undefined;
}
