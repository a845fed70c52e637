/**
 * The JSON Lines file sink: lines are queued in order and written by one loop, a batch at a time, each
 * batch synced per `fsync` before its writes resolve. A batch that fails stays at the front of the queue
 * (from the first byte not written) and is written first when the sink next writes or flushes, so a disk
 * that fills up and frees again leaves no hole and no repeated line.
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { errorMessage } from '../internal/describe.js';
import { oneOf, readOptions } from '../internal/validate.js';
import type { FileReceiptSinkOptions, ReceiptSink } from './types.js';

const WHERE = 'fileReceiptSink';
/** Lines held while the file cannot be written; beyond it the oldest are dropped (they show as missing). */
const MAX_QUEUED_LINES = 100_000;
/** Bytes held after failed writes, to be written first once the file can be written again. */
const MAX_UNWRITTEN_BYTES = 64 * 1024 * 1024;

/** The lines queued since the last write began, and the one promise their writers share. */
class Batch {
  readonly lines: string[] = [];
  head = false;
  /** Lines dropped from this batch because too many were waiting. */
  dropped = 0;
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Its writers may not wait for it; a failure they ignore must not be an unhandled rejection.
    this.promise.catch(() => undefined);
  }

  text(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }
}

/**
 * A sink that appends receipts to a JSON Lines file (created with mode 0600 when absent). `fsync`: `'always'`
 * syncs every batch before its writes resolve; `'head'` (default) syncs batches that hold a signed head, and
 * at close; `'never'` leaves it to the OS. A process that is killed loses only lines not yet written, in every
 * mode (at most a torn last line, which `verifyReceipts` reports as `torn_tail`); a power loss may also lose
 * what was written since the last sync.
 *
 * @example
 * ```ts
 * const receipts = receiptHook({ sink: fileReceiptSink('/var/log/agent/receipts.jsonl', { fsync: 'always' }) });
 * ```
 */
export function fileReceiptSink(path: string, options?: FileReceiptSinkOptions): ReceiptSink {
  if (typeof path !== 'string' || path === '') throw new TypeError(`${WHERE}(path) needs a file path, got ${typeof path === 'string' ? 'an empty string' : typeof path}`);
  const read = readOptions(options, `${WHERE}(path, options)`, WHERE, { fsync: oneOf('always', 'head', 'never') });
  return new FileSink(path, read.fsync ?? 'head');
}

class FileSink implements ReceiptSink {
  readonly #path: string;
  readonly #fsync: 'always' | 'head' | 'never';
  #queue = new Batch();
  /** Bytes of earlier batches that did not reach the file when their write failed: written first. */
  #unwritten: Buffer | undefined = undefined;
  #handle: FileHandle | undefined = undefined;
  #draining: Promise<void> | undefined = undefined;
  #closed = false;
  #closing: Promise<void> | undefined = undefined;
  /** Lines dropped after failed writes (the bytes held would pass MAX_UNWRITTEN_BYTES). */
  #dropped = 0;
  /** Whether the file's tail was checked (once, at the first open: later opens continue this run's own bytes). */
  #tailChecked = false;

  constructor(path: string, fsync: 'always' | 'head' | 'never') {
    this.#path = path;
    this.#fsync = fsync;
  }

  write(line: string, kind: 'record' | 'head'): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`receipt file ${this.#path} is closed`));
    const batch = this.#queue;
    batch.lines.push(line);
    if (kind === 'head') batch.head = true;
    if (batch.lines.length > MAX_QUEUED_LINES) {
      batch.lines.shift();
      batch.dropped += 1;
    }
    if (this.#draining === undefined) this.#drain().catch(() => undefined);
    return batch.promise;
  }

  async flush(): Promise<void> {
    // A loop that was ending as lines arrived leaves them to the next one: flush until nothing is left.
    do await this.#drain();
    while (this.#unwritten !== undefined || this.#queue.lines.length > 0);
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    try {
      await this.flush();
      if (this.#handle !== undefined && this.#fsync !== 'never') await this.#handle.sync();
    } finally {
      this.#closed = true;
      const handle = this.#handle;
      this.#handle = undefined;
      await handle?.close();
    }
  }

  /** Writes until the queue is empty; one loop at a time. Rejects with the error that stopped it. */
  #drain(): Promise<void> {
    this.#draining ??= this.#loop().then(
      () => this.#ended(),
      (error: unknown) => {
        this.#draining = undefined;
        throw error;
      },
    );
    return this.#draining;
  }

  /** The loop ended with an empty queue; lines written since its last check start the next loop. */
  #ended(): void {
    this.#draining = undefined;
    if (this.#queue.lines.length > 0) this.#drain().catch(() => undefined);
  }

  async #loop(): Promise<void> {
    while (this.#unwritten !== undefined || this.#queue.lines.length > 0) {
      const batch = this.#queue;
      this.#queue = new Batch();
      const text = Buffer.from(batch.text(), 'utf8');
      let bytes = this.#unwritten === undefined ? text : Buffer.concat([this.#unwritten, text]);
      this.#unwritten = undefined;
      try {
        const handle = await this.#open();
        const written = await writeAll(handle, bytes);
        if (written < bytes.length) {
          bytes = bytes.subarray(written);
          throw new Error('the write stopped short');
        }
        if (this.#fsync === 'always' || (this.#fsync === 'head' && batch.head)) await handle.sync();
      } catch (error) {
        // Kept (from the first byte not written) to go first next time, up to MAX_UNWRITTEN_BYTES (then
        // this batch's lines are dropped: they show as missing); its writers hear of the failure now.
        if (bytes.length <= MAX_UNWRITTEN_BYTES) this.#unwritten = bytes;
        else {
          this.#dropped += batch.lines.length;
          this.#unwritten = bytes.subarray(0, bytes.length - text.length);
        }
        const dropped = this.#dropped === 0 ? '' : ` (${this.#dropped} line(s) dropped so far: they show as missing)`;
        const failure = new Error(`cannot write receipt file ${this.#path}: ${errorMessage(error)}${dropped}`, { cause: error });
        batch.reject(failure);
        await this.#reopen();
        throw failure;
      }
      if (batch.dropped > 0) batch.reject(new Error(`receipt file ${this.#path}: ${batch.dropped} line(s) dropped while the file could not keep up (they show as missing)`));
      else batch.resolve();
    }
  }

  async #open(): Promise<FileHandle> {
    if (this.#handle !== undefined) return this.#handle;
    const handle = await open(this.#path, 'a', 0o600);
    if (this.#tailChecked) {
      this.#handle = handle;
      return handle;
    }
    try {
      // A torn last line from an earlier crash: start on a new line so this run's first record stays whole.
      const { size } = await handle.stat();
      if (size > 0) {
        const last = Buffer.alloc(1);
        const probe = await open(this.#path, 'r');
        try {
          await probe.read(last, 0, 1, size - 1);
        } finally {
          await probe.close();
        }
        if (last[0] !== 0x0a) await writeAll(handle, Buffer.from('\n'));
      }
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    this.#tailChecked = true;
    this.#handle = handle;
    return handle;
  }

  /** After a failure the file is opened again on the next try (it may have been moved or remounted). */
  async #reopen(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close().catch(() => undefined);
  }
}

/** Writes `bytes` in full unless the file refuses; returns how many were written before an error, rethrowing it when none were. */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<number> {
  let offset = 0;
  while (offset < bytes.length) {
    try {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    } catch (error) {
      if (offset === 0) throw error;
      return offset;
    }
  }
  return offset;
}
