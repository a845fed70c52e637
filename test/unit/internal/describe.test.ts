/**
 * How toolhooks words a value or a thrown thing in its messages: never throwing, whatever was thrown,
 * and quoting what the user passed so the message shows the mistake.
 */
import { describe, expect, it } from 'vitest';
import { errorClassName, errorMessage, quoteValue, typeName, withoutStatefulFlags } from '../../../src/internal/describe.js';

/** An Error whose every property read throws. */
function hostileError(): Error {
  return new Proxy(new Error('hidden'), {
    get() {
      throw new Error('no reading');
    },
  });
}

describe('errorMessage', () => {
  it("gives an Error's message, a string as is, and anything else in its string form", () => {
    expect(errorMessage(new TypeError('bad input'))).toBe('bad input');
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });

  it('never throws, even for a thrown value that cannot be printed', () => {
    const unprintable = { toString: () => { throw new Error('no'); } };
    expect(errorMessage(unprintable)).toBe('[unprintable error]');
    expect(errorMessage(Object.create(null))).toBe('[unprintable error]');
    expect(errorMessage(hostileError())).toBe('[unprintable error]');
  });
});

describe('errorClassName', () => {
  it("names an Error's class, including a user's subclass", () => {
    class QuotaError extends Error {}
    expect(errorClassName(new RangeError('x'))).toBe('RangeError');
    expect(errorClassName(new QuotaError('x'))).toBe('QuotaError');
  });

  it('is undefined for anything that is not an Error, and for an Error whose name cannot be read', () => {
    expect(errorClassName('boom')).toBeUndefined();
    expect(errorClassName({ name: 'Fake' })).toBeUndefined();
    expect(errorClassName(hostileError())).toBeUndefined();
  });
});

describe('typeName and quoteValue', () => {
  it('tells null and arrays apart from objects', () => {
    expect(typeName(null)).toBe('null');
    expect(typeName([1])).toBe('an array');
    expect(typeName({})).toBe('object');
    expect(typeName(() => 1)).toBe('function');
  });

  it('quotes a string so that "5000" and 5000 read differently', () => {
    expect(quoteValue('5000')).toBe('the string "5000"');
    expect(quoteValue(5000)).toBe('5000');
    expect(quoteValue(true)).toBe('true');
    expect(quoteValue(10n)).toBe('10');
    expect(quoteValue(undefined)).toBe('undefined');
    expect(quoteValue(null)).toBe('null');
    expect(quoteValue([])).toBe('an array');
  });

  it('cuts a long string at 40 characters with an ellipsis', () => {
    expect(quoteValue('x'.repeat(100))).toBe(`the string "${'x'.repeat(40)}…"`);
  });
});

describe('withoutStatefulFlags', () => {
  it('matches the same key every time, though the pattern had g or y', () => {
    const pattern = withoutStatefulFlags(/token/giy);
    expect([pattern.test('token'), pattern.test('token'), pattern.test('token')]).toEqual([true, true, true]);
    expect(pattern.flags).toBe('i');
  });
});
