import { describe, expect, it } from 'vitest';
import { resolveCapture } from '../../../src/telemetry/capture/options.js';
import { markerFlags } from '../../../src/replay/markers.js';

/** Values as capture writes them, parsed back as replay reads them. */
function recorded(value: unknown, options: { maxLength?: number } = {}): unknown {
  return JSON.parse(resolveCapture({ args: true, ...options }).serialize(value));
}

describe('markerFlags', () => {
  it('flags nothing in values capture left whole', () => {
    expect(markerFlags(recorded({ cmd: 'ls', n: 1, list: ['a', { b: null }] }))).toEqual([]);
  });

  it('flags redacted values at any depth', () => {
    expect(markerFlags(recorded({ headers: [{ Authorization: 'Bearer x' }] }))).toEqual(['redacted']);
  });

  it.each([
    ['a long string', { text: 'x'.repeat(50) }],
    ['a long array', { items: Array.from({ length: 100 }, (_, i) => `item ${i}`) }],
    ['a wide object', Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`key${i}`, 'value']))],
    ['deep nesting', JSON.parse(`${'{"a":'.repeat(14)}1${'}'.repeat(14)}`) as unknown],
  ])('flags %s cut by the capture limits as truncated', (_name, value) => {
    expect(markerFlags(recorded(value, { maxLength: 20 }))).toEqual(['truncated']);
  });

  it('flags both, in a fixed order, across several values', () => {
    expect(markerFlags(recorded({ text: 'y'.repeat(30) }, { maxLength: 20 }), recorded({ password: 'p' }))).toEqual(['redacted', 'truncated']);
  });
});
