/** Every recorded string is cut the same way: a visible marker with the count cut, never half a character. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cut, isTruncated, truncatedMarker } from '../../../../src/telemetry/capture/truncate.js';

describe('cut', () => {
  it('keeps text that fits, whole', () => {
    expect(cut('abc', 3)).toBe('abc');
    expect(cut('', 0)).toBe('');
  });

  it('cuts to max and says how many characters were cut', () => {
    expect(cut('abcdef', 3)).toBe('abc…[truncated 3]');
    expect(cut('abcdef', 0)).toBe('…[truncated 6]');
  });

  it('never splits a surrogate pair: the whole emoji goes', () => {
    expect(cut('ab😀cd', 3)).toBe('ab…[truncated 4]');
    expect(cut('ab😀cd', 4)).toBe('ab😀…[truncated 2]');
  });

  it('leaves a prefix of the text followed by the exact count, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(20), (text, max) => {
        const result = cut(text, max);
        if (text.length <= max) return result === text;
        const kept = result.replace(/…\[truncated (\d+)\]$/, '');
        const count = Number(/(\d+)\]$/.exec(result)?.[1]);
        return isTruncated(result) && text.startsWith(kept) && kept.length + count === text.length && kept.length <= max;
      }),
    );
  });
});

describe('isTruncated', () => {
  it('recognises the marker cut leaves, and only at the end', () => {
    expect(isTruncated(`abc${truncatedMarker(12)}`)).toBe(true);
    expect(isTruncated('abc')).toBe(false);
    expect(isTruncated(`${truncatedMarker(1)} and more`)).toBe(false);
  });
});
