/**
 * Values quoted after a redacted key, in a megabyte of hostile text: each key found once, nothing past it,
 * in one scan. The unit tests of src/telemetry/capture/quoted-keys.ts are in
 * test/unit/telemetry/capture/quoted-keys.test.ts; this one is in the integration tier for its size.
 */
import { describe, expect, it } from 'vitest';
import { redactedValueRanges } from '../../../../src/telemetry/capture/quoted-keys.js';
import { redactionMatcher } from '../../../../src/telemetry/capture/redaction.js';

const isRedactedKey = redactionMatcher([]);

describe('redactedValueRanges on large text', () => {
  it('hostile text (a megabyte of quotes, keys, brackets or one long word) is scanned once: each key found once, nothing past it', () => {
    expect(redactedValueRanges('"'.repeat(1_000_000), isRedactedKey)).toEqual([]);
    expect(redactedValueRanges('a'.repeat(1_000_000), isRedactedKey)).toEqual([]);
    expect(redactedValueRanges(`"token":${'['.repeat(1_000_000)}`, isRedactedKey)).toEqual([[8, 1_000_008]]);
    expect(redactedValueRanges('"password":'.repeat(100_000), isRedactedKey)).toHaveLength(50_000);
    expect(redactedValueRanges('password='.repeat(100_000), isRedactedKey)).toEqual([[9, 900_000]]);
    expect(redactedValueRanges('password=x&'.repeat(100_000), isRedactedKey)).toHaveLength(100_000);
    expect(redactedValueRanges(`${'k'.repeat(200)}token=x`, isRedactedKey)).toEqual([]); // a key past 128 characters is not a key
  });
});
