/**
 * Captured values as bounded, redacted JSON, over random values (fast-check): any value, hostile ones
 * included, gives valid JSON within the budget; strings are whole or a cut prefix with the exact count;
 * nothing under a redacted key survives. The unit tests of src/telemetry/capture/bounded-json.ts are in
 * test/unit/telemetry/capture/bounded-json.test.ts; these property runs are in the integration tier for
 * their size.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveCapture } from '../../../../src/telemetry/capture/options.js';
import { revokedProxy, throwingGetter, throwingProxy } from '../../../support/hostile-values.js';

const anythingSettings = {
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
  maxDepth: 6,
} as const;

/**
 * Hostile values are built inside the property, not by fast-check: it probes generated values (for a
 * clone method), and these throw on any probe.
 */
type Build = () => unknown;
const hostile: fc.Arbitrary<Build> = fc.oneof(
  fc.constant<Build>(() => throwingProxy({})),
  fc.constant<Build>(() => throwingProxy([])),
  fc.constant<Build>(() => revokedProxy()),
  fc.string().map<Build>((message) => () => throwingGetter('x', new Error(message))),
  fc.anything().map<Build>((thrown) => () => throwingGetter('password', thrown)),
  fc.constant<Build>(() => ({
    toJSON(): never {
      throw throwingProxy({});
    },
  })),
  fc.constant<Build>(() => {
    const cyclic: Record<string, unknown> = {};
    cyclic.a = { b: [cyclic] };
    return cyclic;
  }),
);
const anything: fc.Arbitrary<Build> = fc.anything(anythingSettings).map((value) => () => value);
/** Values whose JSON exceeds the 1024-character budget of small maxLength values. */
const large: fc.Arbitrary<Build> = fc
  .array(fc.oneof(fc.string({ unit: 'binary', minLength: 50, maxLength: 400 }), fc.anything({ ...anythingSettings, maxDepth: 3 })), {
    minLength: 10,
    maxLength: 60,
  })
  .map((items) => () => ({ items, nested: { again: items } }));
const anyValue: fc.Arbitrary<Build> = fc.oneof(
  anything,
  large,
  fc.array(fc.oneof(anything, hostile)).map((builds) => () => builds.map((build) => build())),
  fc
    .dictionary(fc.string(), hostile)
    .map((builds) => () => Object.fromEntries(Object.entries(builds).map(([key, build]) => [key, build()]))),
);

describe('properties', () => {
  it('never throws, always returns valid JSON within the budget', () => {
    fc.assert(
      fc.property(
        anyValue,
        fc.integer({ min: 1, max: 300 }),
        (build, maxLength) => {
          const bounded = resolveCapture({ args: true, maxLength });
          const out = bounded.serialize(build());
          expect(out.length).toBeLessThanOrEqual(bounded.maxTotalLength);
          expect(() => JSON.parse(out) as unknown).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps every string either whole or a cut prefix with the exact count', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), fc.integer({ min: 1, max: 400 }), (text, maxLength) => {
        const bounded = resolveCapture({ maxLength });
        const written = JSON.parse(bounded.serialize(text)) as string;
        const match = /…\[truncated (\d+)\]$/.exec(written);
        if (text.length <= maxLength && match === null) {
          expect(written).toBe(text);
        } else {
          expect(match).not.toBeNull();
          const cutCount = Number(match?.[1]);
          const kept = written.slice(0, written.length - (match?.[0].length ?? 0));
          expect(kept).toBe(text.slice(0, text.length - cutCount));
          expect(kept.length).toBeLessThanOrEqual(maxLength);
        }
        expect(bounded.limit(text).length).toBeLessThanOrEqual(maxLength + `…[truncated ${text.length}]`.length);
      }),
    );
  });

  it('lets no value under a redacted key survive anywhere in the output', () => {
    // Secrets are the only non-ASCII text in these values, so any ☃ in the output, even one cut short, is a leak.
    const SECRET = '☃';
    const probe = resolveCapture({ redactKeys: ['ssn', /^pin$/i] });
    const safeKey = fc.string({ maxLength: 12 }).filter((key) => !probe.isRedactedKey(key));
    const secretKey = fc
      .tuple(fc.string({ maxLength: 4 }), fc.constantFrom('password', 'X-Api-Key', 'refresh_token', 'Cookie', 'ssn', 'PIN', 'privateKey'), fc.string({ maxLength: 4 }))
      .map(([before, core, after]) => (core === 'PIN' ? core : `${before}${core}${after}`));
    const secretValue = fc.oneof(
      fc.string().map((text) => `${SECRET}${text}${SECRET}`),
      fc.constant({ nested: { deeper: [SECRET] } }),
      fc.constant(new Map([['k', SECRET]])),
      fc.constant([SECRET, { v: SECRET }]),
    );
    const { tree } = fc.letrec<{ tree: unknown; node: unknown }>((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), tie('node')),
      node: fc.oneof(
        fc.array(fc.oneof(fc.tuple(secretKey, secretValue), fc.tuple(safeKey, tie('tree'))), { maxLength: 6 }).map((entries) => Object.fromEntries(entries)),
        fc.array(fc.oneof(fc.tuple(secretKey, secretValue), fc.tuple(safeKey, tie('tree'))), { maxLength: 4 }).map((entries) => new Map(entries)),
        fc.array(tie('tree'), { maxLength: 4 }),
      ),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        expect(probe.serialize(value)).not.toContain(SECRET);
      }),
      { numRuns: 500 },
    );
  });
});
