import { describe, expect, it } from 'vitest';
import { canonicalArgsJson, canonicalJson } from '../../../src/receipts/canonical-json.js';

/** An IEEE 754 double from its 16 hex digits, as RFC 8785 Appendix B lists them. */
function double(hex: string): number {
  return Buffer.from(hex, 'hex').readDoubleBE(0);
}

describe('canonicalJson (RFC 8785)', () => {
  it('writes the example of §3.2.2 (whitespace, literals, numbers, string escapes)', () => {
    const input = JSON.parse(
      '{\n  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n  "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",\n  "literals": [null, true, false]\n}',
    ) as unknown;
    expect(canonicalJson(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it('sorts keys by UTF-16 code units, as the example of §3.2.3', () => {
    const input = {
      '\u20ac': 'Euro Sign',
      '\r': 'Carriage Return',
      '\ufb33': 'Hebrew Letter Dalet With Dagesh',
      '1': 'One',
      '\ud83d\ude00': 'Emoji: Grinning Face',
      '\u0080': 'Control',
      '\u00f6': 'Latin Small Letter O With Diaeresis',
    };
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // JSON.parse reorders the integer-like key "1" first; read the order from the text instead.
    const text = canonicalJson(input);
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'].map((key) => text.indexOf(JSON.stringify(key) + ':'));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(keys).toHaveLength(7);
    expect(text.startsWith('{"\\r":"Carriage Return","1":"One","\u0080":"Control"')).toBe(true);
  });

  it.each([
    ['0000000000000000', '0'],
    ['8000000000000000', '0'],
    ['0000000000000001', '5e-324'],
    ['8000000000000001', '-5e-324'],
    ['7fefffffffffffff', '1.7976931348623157e+308'],
    ['ffefffffffffffff', '-1.7976931348623157e+308'],
    ['4340000000000000', '9007199254740992'],
    ['c340000000000000', '-9007199254740992'],
    ['4430000000000000', '295147905179352830000'],
    ['44b52d02c7e14af5', '9.999999999999997e+22'],
    ['44b52d02c7e14af6', '1e+23'],
    ['44b52d02c7e14af7', '1.0000000000000001e+23'],
    ['444b1ae4d6e2ef4e', '999999999999999700000'],
    ['444b1ae4d6e2ef4f', '999999999999999900000'],
    ['444b1ae4d6e2ef50', '1e+21'],
    ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
    ['3eb0c6f7a0b5ed8d', '0.000001'],
    ['41b3de4355555553', '333333333.3333332'],
    ['41b3de4355555554', '333333333.33333325'],
    ['41b3de4355555555', '333333333.3333333'],
    ['41b3de4355555556', '333333333.3333334'],
    ['41b3de4355555557', '333333333.33333343'],
    ['becbf647612f3696', '-0.0000033333333333333333'],
    ['43143ff3c1cb0959', '1424953923781206.2'],
  ])('writes the number 0x%s as %s (Appendix B)', (hex, text) => {
    expect(canonicalJson(double(hex))).toBe(text);
  });

  it.each([
    ['7fffffffffffffff', 'NaN'],
    ['7ff0000000000000', 'Infinity'],
  ])('refuses 0x%s (%s), which JSON cannot hold', (hex, name) => {
    expect(() => canonicalJson({ x: double(hex) })).toThrow(new RegExp(`\\$\\.x is ${name}`));
  });

  it('refuses what JSON cannot hold, naming where it is', () => {
    expect(() => canonicalJson({ a: [1, undefined] })).toThrow(/\$\.a\[1\] is undefined/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/\$\.f is function/);
    expect(() => canonicalJson({ n: 10n })).toThrow(/\$\.n is a BigInt/);
    expect(() => canonicalJson({ s: 'a\ud800b' })).toThrow(/lone surrogate/);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => canonicalJson(cycle)).toThrow(/\$\.self refers back/);
  });

  it('reads values through toJSON and keeps shared (acyclic) references', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ when: new Date(0), a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1},"when":"1970-01-01T00:00:00.000Z"}');
  });
});

describe('canonicalArgsJson', () => {
  it('sees arguments as JSON.stringify does, and never throws on values JSON cannot hold', () => {
    const cycle: Record<string, unknown> = { n: 10n, u: undefined, f: () => 1, list: [undefined, Number.NaN, Symbol('s')] };
    cycle.self = cycle;
    expect(canonicalArgsJson(cycle)).toBe('{"list":[null,null,null],"n":"10","self":"[Circular]"}');
    expect(canonicalArgsJson({ b: 'x\ud800', a: Infinity })).toBe('{"a":null,"b":"x\\ud800"}');
  });

  it('is the canonical JSON of what JSON.parse(JSON.stringify(args)) gives for JSON-safe arguments', () => {
    const args = { z: [1, 2.5, 'é'], a: { y: null, x: true }, when: new Date(86_400_000) };
    expect(canonicalArgsJson(args)).toBe(canonicalJson(JSON.parse(JSON.stringify(args))));
  });
});
