/** The error for input a replay cannot use: one line, bounded, named so that callers can catch it. */
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_LENGTH, ReplayInputError } from '../../../src/replay/input-error.js';

describe('ReplayInputError', () => {
  it('is an Error named ReplayInputError, keeping its cause', () => {
    const cause = new Error('ENOENT');
    const error = new ReplayInputError('traces.jsonl: cannot read the file', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ReplayInputError');
    expect(error.cause).toBe(cause);
  });

  it('makes its message one line, control characters escaped, and at most MAX_MESSAGE_LENGTH long before the cut marker', () => {
    const error = new ReplayInputError('line one\nline two\u001b[31m');
    expect(error.message).not.toContain('\n');
    expect(error.message).not.toContain('\u001b');
    expect(error.message).toContain('line one');
    const long = new ReplayInputError('x'.repeat(2000));
    expect(long.message.length).toBeLessThan(2000);
    expect(long.message.startsWith('x'.repeat(MAX_MESSAGE_LENGTH - 20))).toBe(true);
  });
});
