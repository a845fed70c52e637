/**
 * LoggingHook's default stdout destination: a pino destination that never blocks the app or its exit.
 * pino's own `pino.destination(1)` writes synchronously and, when stdout is a pipe nobody reads, waits
 * for the reader forever — in every log call and in `process.exit()`. This one writes to fd 1 without
 * blocking: what the pipe does not take now waits in a bounded buffer (retried on an unref'd timer, so
 * it never keeps the process alive), and what does not fit is dropped and counted — said once when it
 * starts, and with the total when the process exits. At a natural exit the waiting records are still
 * written while the reader takes them; a reader that takes nothing for a second gives them up.
 * @internal
 */
import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';
import { warnNow, warnVisibly } from '../telemetry/warn-once.js';

/** Bytes a destination keeps while stdout does not take them; past this, records are dropped. */
export const MAX_PENDING_BYTES = 1024 * 1024;
/** How soon a full stdout is tried again. */
const RETRY_MS = 25;
/** At a natural exit, how long waiting records may hold it up while stdout takes nothing at all. */
export const EXIT_STALL_MS = 1000;

/** Drops across every destination of the process, reported once at exit. */
let droppedTotal = 0;
let exitReportArmed = false;
/** Destinations holding records stdout has not taken yet: lost too if the process exits now. */
const waiting = new Set<StdoutDestination>();

function armExitReport(): void {
  if (exitReportArmed) return;
  exitReportArmed = true;
  // A natural exit waits for waiting records while stdout takes them (a slow reader), not for a stall.
  process.on('beforeExit', () => {
    for (const destination of waiting) destination.drainBeforeExit();
  });
  process.once('exit', reportAtExit);
}

function reportAtExit(): void {
  for (const destination of waiting) droppedTotal += destination.lastFlush();
  if (droppedTotal === 0) return;
  // At exit a process warning would never print: said on stderr now.
  warnNow(`toolhooks: LoggingHook dropped ${droppedTotal} log record${droppedTotal === 1 ? '' : 's'}: stdout was not being read`, 'TOOLHOOKS_LOG_DROPPED');
}

function errorCode(error: unknown): unknown {
  return error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

/** Writes to stdout what it takes now; throws EAGAIN when it takes nothing, EPIPE when it is closed. */
export type StdoutWriter = (chunk: Buffer) => number;

const writeToFd1: StdoutWriter = (chunk) => writeSync(1, chunk);

class StdoutDestination implements DestinationStream {
  readonly #writer: StdoutWriter;
  #opened = false;
  readonly #pending: Buffer[] = [];
  #pendingBytes = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #dropped = 0;
  /** Set at a natural exit: when stdout last took bytes. */
  #draining: { lastProgress: number } | undefined;

  constructor(writer: StdoutWriter) {
    this.#writer = writer;
  }

  write(line: string): void {
    if (!this.#opened) {
      // Node sets a stdout pipe or socket to non-blocking when it opens process.stdout; only then does
      // a write to a full pipe return EAGAIN at once instead of waiting for the reader.
      void process.stdout;
      this.#opened = true;
    }
    const chunk = Buffer.from(line);
    if (this.#pending.length > 0) {
      this.#queue(chunk);
      return;
    }
    const written = this.#writeSome(chunk);
    if (written < chunk.length) this.#keep(chunk.subarray(written));
  }

  /** Bytes written now; 0 when stdout is full. A closed stdout (EPIPE) drops the record. */
  #writeSome(chunk: Buffer): number {
    try {
      return this.#writer(chunk);
    } catch (error) {
      if (errorCode(error) === 'EAGAIN') return 0;
      this.#drop();
      return chunk.length;
    }
  }

  /** A new record while earlier bytes wait: kept if it fits, else dropped. */
  #queue(chunk: Buffer): void {
    if (this.#pendingBytes + chunk.length > MAX_PENDING_BYTES) {
      this.#drop();
      return;
    }
    this.#keep(chunk);
  }

  /** Records stdout has not fully taken yet. */
  get waitingRecords(): number {
    return this.#pending.length;
  }

  /** The rest of a record stdout did not take; a record already begun is always finished. */
  #keep(chunk: Buffer): void {
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    waiting.add(this);
    armExitReport();
    if (this.#timer === undefined) this.#retryLater();
  }

  #retryLater(): void {
    this.#timer = setTimeout(() => this.#flush(), RETRY_MS);
    // Waiting bytes never keep the process alive, except while a natural exit drains them.
    if (this.#draining === undefined) this.#timer.unref();
  }

  /** Writes what stdout takes now; true when nothing is left waiting. */
  #writePending(): boolean {
    while (this.#pending.length > 0) {
      const chunk = this.#pending[0] as Buffer;
      const written = this.#writeSome(chunk);
      this.#pendingBytes -= written;
      if (written > 0 && this.#draining !== undefined) this.#draining.lastProgress = performance.now();
      if (written < chunk.length) {
        this.#pending[0] = chunk.subarray(written);
        return false;
      }
      this.#pending.shift();
    }
    waiting.delete(this);
    return true;
  }

  #flush(): void {
    this.#timer = undefined;
    if (this.#writePending()) return;
    if (this.#draining !== undefined && performance.now() - this.#draining.lastProgress > EXIT_STALL_MS) {
      this.#abandon();
      return;
    }
    this.#retryLater();
  }

  /** The event loop ran dry with records waiting: keep it alive while stdout still takes bytes. */
  drainBeforeExit(): void {
    if (this.#draining !== undefined || this.#pending.length === 0) return;
    this.#draining = { lastProgress: performance.now() };
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#retryLater();
  }

  /** At exit: one last write of what stdout takes now, without waiting; returns the records lost. */
  lastFlush(): number {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#writePending();
    return this.#pending.length;
  }

  /** Stdout took nothing for too long at exit: the waiting records are dropped and counted. */
  #abandon(): void {
    droppedTotal += this.#pending.length;
    this.#pending.length = 0;
    this.#pendingBytes = 0;
    waiting.delete(this);
  }

  #drop(): void {
    this.#dropped += 1;
    droppedTotal += 1;
    if (this.#dropped !== 1) return;
    warnVisibly(
      'toolhooks: stdout is not being read, so LoggingHook drops log records instead of blocking the app; ' +
        'the count is printed at exit (give LoggingHook a logger of your own to choose another destination)',
      'TOOLHOOKS_LOG_DROPPED',
    );
    armExitReport();
  }
}

/**
 * A pino destination writing to stdout that never blocks: see the module comment. `writer` is for
 * tests: what stands in for fd 1.
 *
 * @example
 * ```ts
 * const logger = pino({ name: 'toolhooks' }, stdoutDestination());
 * ```
 */
export function stdoutDestination(writer: StdoutWriter = writeToFd1): DestinationStream {
  return new StdoutDestination(writer);
}
