/**
 * Reads a file line by line in bounded memory: a line longer than the limit is not kept (only its length
 * is counted), so a 100 MB line costs no more than a short one.
 * @internal
 */
import { createReadStream } from 'node:fs';

/** One line of the file, without its newline. */
export interface FileLine {
  /** 1-based. */
  readonly number: number;
  /** The line's bytes; undefined when it is longer than the limit. */
  readonly bytes: Buffer | undefined;
  /** Its length in bytes. */
  readonly length: number;
  /** Whether a newline ended it (false only for a last line cut short). */
  readonly terminated: boolean;
}

/** The lines of the file at `path`, each at most `maxLineBytes` long (longer ones come without their bytes). */
export async function* readLines(path: string, maxLineBytes: number): AsyncGenerator<FileLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let number = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      if (end > start) {
        if (length + (end - start) <= maxLineBytes) parts.push(chunk.subarray(start, end));
        else parts = [];
        length += end - start;
      }
      if (newline === -1) break;
      number += 1;
      yield { number, bytes: length <= maxLineBytes ? Buffer.concat(parts, length) : undefined, length, terminated: true };
      parts = [];
      length = 0;
      start = newline + 1;
    }
  }
  if (length > 0) {
    number += 1;
    yield { number, bytes: length <= maxLineBytes ? Buffer.concat(parts, length) : undefined, length, terminated: false };
  }
}
