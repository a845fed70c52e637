/** The `error.type` recorded for a failed call: the error's own type, else its class, else `_OTHER`. */
import { describe, expect, it } from 'vitest';
import { HookAbortError } from '../../../src/errors.js';
import { ERROR_TYPE, errorTypeOf } from '../../../src/telemetry/error-type.js';
import { ERROR_TYPE_OTHER } from '../../../src/telemetry/semconv.js';

describe('errorTypeOf', () => {
  it('is the class name of an Error', () => {
    class RateLimited extends Error {}
    expect(errorTypeOf(new TypeError('x'))).toBe('TypeError');
    expect(errorTypeOf(new RateLimited('x'))).toBe('RateLimited');
    expect(errorTypeOf(new HookAbortError('denied', 'policy'))).toBe('HookAbortError');
  });

  it('prefers the type an error names for itself', () => {
    const toolError = Object.assign(new Error('the tool said no'), { [ERROR_TYPE]: 'tool_error' });
    expect(errorTypeOf(toolError)).toBe('tool_error');
  });

  it('is _OTHER for a thrown string, number, null or plain object', () => {
    expect(ERROR_TYPE_OTHER).toBe('_OTHER');
    for (const thrown of ['boom', 7, null, undefined, { message: 'x' }]) expect(errorTypeOf(thrown)).toBe(ERROR_TYPE_OTHER);
  });

  it('never throws for a hostile error object', () => {
    const hostile = new Proxy(new Error('x'), {
      get() {
        throw new Error('no reading');
      },
    });
    expect(errorTypeOf(hostile)).toBe(ERROR_TYPE_OTHER);
  });
});
