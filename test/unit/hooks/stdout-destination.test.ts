/**
 * LoggingHook's default stdout destination, with fd 1 stood in for by a writer that takes what a pipe
 * would: everything, nothing (EAGAIN), or part of a record. The real pipe is tested in
 * test/integration/hooks/logging-hook-unread-stdout.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StdoutWriter } from '../../../src/hooks/stdout-destination.js';
import { EXIT_STALL_MS, MAX_PENDING_BYTES, stdoutDestination } from '../../../src/hooks/stdout-destination.js';

const fd1: { taken: string; room: number; closed: boolean } = { taken: '', room: Number.POSITIVE_INFINITY, closed: false };

/** What a pipe would take: everything, nothing (EAGAIN), part of a record, or nothing ever (EPIPE). */
const pipe: StdoutWriter = (chunk) => {
  if (fd1.closed) throw Object.assign(new Error('EPIPE'), { code: 'EPIPE' });
  if (fd1.room <= 0) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
  const taken = Math.min(chunk.length, fd1.room);
  fd1.room -= taken;
  fd1.taken += chunk.subarray(0, taken).toString();
  return taken;
};

beforeEach(() => {
  fd1.taken = '';
  fd1.room = Number.POSITIVE_INFINITY;
  fd1.closed = false;
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('stdoutDestination', () => {
  it('writes straight through while stdout takes everything', () => {
    const destination = stdoutDestination(pipe);
    destination.write('{"a":1}\n');
    destination.write('{"b":2}\n');
    expect(fd1.taken).toBe('{"a":1}\n{"b":2}\n');
  });

  it('keeps what a full pipe did not take, the rest of a record first, and writes it when the pipe drains', () => {
    const destination = stdoutDestination(pipe);
    fd1.room = 4;
    destination.write('{"a":1}\n'); // 4 bytes go, 4 wait
    destination.write('{"b":2}\n'); // waits behind them, in order
    expect(fd1.taken).toBe('{"a"');
    fd1.room = Number.POSITIVE_INFINITY;
    vi.advanceTimersByTime(50);
    expect(fd1.taken).toBe('{"a":1}\n{"b":2}\n');
  });

  it('drops whole records past the buffer and says so once, with a code', () => {
    const warnings: string[] = [];
    vi.spyOn(process, 'emitWarning').mockImplementation(((message: string, options?: { code?: string }) => {
      warnings.push(`${options?.code ?? ''} ${message}`);
    }) as typeof process.emitWarning);
    const destination = stdoutDestination(pipe);
    fd1.room = 0;
    const record = `${JSON.stringify({ msg: 'x'.repeat(1000) })}\n`;
    const fits = Math.floor(MAX_PENDING_BYTES / record.length);
    for (let i = 0; i < fits + 50; i += 1) destination.write(record);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^TOOLHOOKS_LOG_DROPPED .*stdout is not being read/);
    fd1.room = Number.POSITIVE_INFINITY;
    vi.advanceTimersByTime(50);
    expect(fd1.taken.split('\n').filter(Boolean)).toHaveLength(fits); // what waited arrives whole; the 50 are gone
  });

  it('a closed stdout (EPIPE) drops the record without throwing', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation((() => undefined) as typeof process.emitWarning);
    const destination = stdoutDestination(pipe);
    fd1.closed = true;
    expect(() => destination.write('{"a":1}\n')).not.toThrow();
    expect(fd1.taken).toBe('');
  });

  it('at exit: waits while the reader takes bytes, gives up after a stall, and counts what is left', () => {
    vi.spyOn(process, 'emitWarning').mockImplementation((() => undefined) as typeof process.emitWarning);
    type Exiting = { drainBeforeExit(): void; lastFlush(): number; write(line: string): void };
    const destination = stdoutDestination(pipe) as unknown as Exiting;
    fd1.room = 0;
    destination.write('{"a":1}\n');
    destination.write('{"b":2}\n');
    destination.drainBeforeExit();
    fd1.room = 8; // the reader takes one record, then stalls
    vi.advanceTimersByTime(30);
    expect(fd1.taken).toBe('{"a":1}\n');
    vi.advanceTimersByTime(EXIT_STALL_MS + 100); // a stalled drain gives the rest up
    expect(destination.lastFlush()).toBe(0);
    expect(fd1.taken).toBe('{"a":1}\n');
    // process.exit() without a drain: one last write of what stdout takes, the rest is counted as lost.
    destination.write('{"c":3}\n');
    destination.write('{"d":4}\n');
    fd1.room = 8;
    expect(destination.lastFlush()).toBe(1);
    expect(fd1.taken).toBe('{"a":1}\n{"c":3}\n');
  });
});

