/**
 * Captured values as bounded JSON from an endless iterator and an object of 100,000 getters: a bounded
 * number of members is read. The unit tests of src/telemetry/capture/bounded-json.ts are in
 * test/unit/telemetry/capture/bounded-json.test.ts; this one is in the integration tier for its size.
 */
import { describe, expect, it } from 'vitest';
import { resolveCapture } from '../../../../src/telemetry/capture/options.js';

const capture = resolveCapture({ args: true, results: true });

describe('truncation, on large values', () => {
  it('reads a bounded number of members from endless iterators and wide objects of getters', () => {
    class EndlessSet extends Set<number> {
      override *values(): SetIterator<number> {
        for (let next = 0; ; next += 1) yield next;
      }
    }
    // size says 1; the walk must not try to drain the iterator first.
    expect(capture.serialize(new EndlessSet([1]))).toBe('[0]');
    let reads = 0;
    const wide = {};
    for (let index = 0; index < 100_000; index += 1) {
      Object.defineProperty(wide, `k${index}`, {
        enumerable: true,
        get() {
          reads += 1;
          return undefined;
        },
      });
    }
    expect(capture.serialize(wide)).toMatch(/^\{"…":"\[\d+ more keys\]"\}$/);
    expect(reads).toBeLessThanOrEqual(capture.maxTotalLength);
  });
});
