/** Values as JSON text for models, protocol messages and telling calls apart; never throwing. */
import { describe, expect, it } from 'vitest';
import { jsonOf, toText } from '../../../src/adapters/json-text.js';

describe('toText', () => {
  it('gives strings as they are and anything else as JSON, never throwing', () => {
    expect(toText('plain')).toBe('plain');
    expect(toText(undefined)).toBe('');
    expect(toText({ a: 1 })).toBe('{"a":1}');
    expect(toText(10n)).toBe('10');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toText(cyclic)).toBe('[object Object]');
    expect(toText(Object.create(null))).toBe('{}');
  });
});

describe('jsonOf', () => {
  it('gives JSON, or undefined for what JSON cannot hold', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect([jsonOf({ a: 1 }), jsonOf(undefined), jsonOf(cyclic), jsonOf(1n)]).toEqual(['{"a":1}', undefined, undefined, undefined]);
  });
});
