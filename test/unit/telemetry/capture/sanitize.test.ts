import { describe, expect, it } from 'vitest';
import { diagSafe, escapeControlCharacters } from '../../../../src/telemetry/capture/sanitize.js';

describe('escapeControlCharacters', () => {
  it('writes C0 (line breaks and tab included), DEL, C1 and U+2028/U+2029 as visible \\uXXXX escapes', () => {
    expect(escapeControlCharacters('evil\u001b]0;pwned\u0007\u001b[1A')).toBe('evil\\u001b]0;pwned\\u0007\\u001b[1A');
    expect(escapeControlCharacters('a\nb\r\tc\u007fd\u0085e\u009bf\u2028g\u2029')).toBe(
      'a\\u000ab\\u000d\\u0009c\\u007fd\\u0085e\\u009bf\\u2028g\\u2029',
    );
  });

  it('escapes every bidirectional control, so an override cannot reorder what is printed', () => {
    expect(escapeControlCharacters('invoice\u202Efdp.exe')).toBe('invoice\\u202efdp.exe');
    const bidi = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];
    for (const c of bidi) expect(escapeControlCharacters(`a${c}b`)).toBe(`a\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}b`);
  });

  it('keeps JSON valid and equal when applied to JSON text', () => {
    const value = { tool: 'a\u0085b\u202ec\u2028d\u007f', n: 1 };
    const text = escapeControlCharacters(JSON.stringify(value));
    expect(text).toBe('{"tool":"a\\u0085b\\u202ec\\u2028d\\u007f","n":1}');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('leaves printable text, non-ASCII letters and emoji as they are', () => {
    const text = 'rm -rf / — 日本語 ✓ 🚀 "quoted" \\ backslash';
    expect(escapeControlCharacters(text)).toBe(text);
  });
});

describe('diagSafe', () => {
  it('escapes control characters and cuts the line to 16 KiB with the truncation marker', () => {
    const line = diagSafe(`tool "\u001b[2J" ${'x'.repeat(20_000)}`);
    expect([...line].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    expect(line.startsWith('tool "\\u001b[2J" xxx')).toBe(true);
    expect(line).toMatch(/…\[truncated \d+\]$/);
    expect(line.length).toBeLessThan(16_384 + 32);
  });
});
