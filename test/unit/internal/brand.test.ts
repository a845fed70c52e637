/**
 * Class identity across the package's ESM and CommonJS builds: `instanceof` holds for an instance made by
 * the other build's class of the same name, and process-wide state is one per process, not per build.
 */
import { describe, expect, it } from 'vitest';
import { brandAcrossBuilds, processWide } from '../../../src/internal/brand.js';

/** Two classes of one name, as the two builds each define it. */
function twoBuilds(name: string): [new (message: string) => Error, new (message: string) => Error] {
  const make = () => {
    const cls = class extends Error {};
    brandAcrossBuilds(cls, name);
    return cls;
  };
  return [make(), make()];
}

describe('brandAcrossBuilds', () => {
  it("answers instanceof for an instance of the other build's class", () => {
    const [esm, cjs] = twoBuilds('TestAbortError');
    expect(new cjs('x')).toBeInstanceOf(esm);
    expect(new esm('x')).toBeInstanceOf(cjs);
  });

  it('does not answer for another class, a plain object or a hostile Proxy', () => {
    const [esm] = twoBuilds('TestBrandA');
    const [other] = twoBuilds('TestBrandB');
    expect(new other('x') instanceof esm).toBe(false);
    expect(new Error('x') instanceof esm).toBe(false);
    expect(({}) instanceof esm).toBe(false);
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); } });
    expect(hostile instanceof esm).toBe(false);
  });

  it('keeps the ordinary instanceof of a subclass', () => {
    const [esm] = twoBuilds('TestBrandC');
    class Sub extends esm {}
    expect(new Sub('x')).toBeInstanceOf(esm);
    expect(new Sub('x')).toBeInstanceOf(Sub);
    expect(new esm('x') instanceof Sub).toBe(false);
  });
});

describe('processWide', () => {
  it('makes the value once, and gives both builds the same one', () => {
    let made = 0;
    const create = () => {
      made += 1;
      return new Set<string>();
    };
    const first = processWide('toolhooks.test.process-wide', create);
    const second = processWide('toolhooks.test.process-wide', create);
    expect(second).toBe(first);
    expect(made).toBe(1);
  });
});
