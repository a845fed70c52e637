/** The capture options: what is recorded by default, the limits they set, and errors naming the option. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LENGTH, resolveCapture } from '../../../../src/telemetry/capture/options.js';
import type { Capture } from '../../../../src/telemetry/capture/options.js';

describe('resolveCapture options', () => {
  it('captures nothing by default and uses the documented limits', () => {
    const off = resolveCapture(undefined);
    expect(off.args).toBe(false);
    expect(off.results).toBe(false);
    expect(off.maxLength).toBe(DEFAULT_MAX_LENGTH);
    expect(off.maxLength).toBe(4096);
    expect(off.maxTotalLength).toBe(4 * 4096);
    expect(resolveCapture({}).args).toBe(false);
  });

  it('turns args and results on independently', () => {
    expect(resolveCapture({ args: true })).toMatchObject({ args: true, results: false });
    expect(resolveCapture({ results: true })).toMatchObject({ args: false, results: true });
  });

  it('keeps a total budget of at least 1024 characters for small maxLength', () => {
    expect(resolveCapture({ maxLength: 1 }).maxTotalLength).toBe(1024);
    expect(resolveCapture({ maxLength: 1000 }).maxTotalLength).toBe(4000);
  });

  it.each([
    [{ args: 'yes' }, TypeError, 'capture.args must be a boolean'],
    [{ results: 1 }, TypeError, 'capture.results must be a boolean'],
    [{ maxLength: '10' }, TypeError, 'capture.maxLength must be a number'],
    [{ maxLength: 0 }, RangeError, 'capture.maxLength must be a positive integer, got 0'],
    [{ maxLength: -5 }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ maxLength: 1.5 }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ maxLength: Number.NaN }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ maxLength: Number.POSITIVE_INFINITY }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ redactKeys: 'password' }, TypeError, 'capture.redactKeys must be an array'],
    [{ redactKeys: ['ok', 42] }, TypeError, 'capture.redactKeys[1] must be a string or a RegExp, got 42'],
    [{ redactKeys: [null] }, TypeError, 'capture.redactKeys[0] must be a string or a RegExp, got null'],
    [{ redactKeys: [''] }, RangeError, 'capture.redactKeys[0] is an empty string'],
    [{ redactkeys: ['ssn'] }, TypeError, 'capture: unknown option "redactkeys"; did you mean "redactKeys"?'],
  ])('rejects %j naming the option', (options, type, message) => {
    const resolve = (): Capture => resolveCapture(options as never);
    expect(resolve).toThrow(type);
    expect(resolve).toThrow(message);
  });

  it('rejects a capture that is not an object', () => {
    expect(() => resolveCapture('all' as never)).toThrow(TypeError);
    expect(() => resolveCapture([] as never)).toThrow('capture must be an object');
  });
});
