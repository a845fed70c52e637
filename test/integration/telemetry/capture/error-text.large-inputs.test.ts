/**
 * The error-text scrubber on a 10 MB message with 10 MB values: the text is bounded and the values are gone.
 * The unit tests of src/telemetry/capture/error-text.ts are in test/unit/telemetry/capture/error-text.test.ts;
 * this one is in the integration tier for its size.
 */
import { describe, expect, it } from 'vitest';
import { resolveCapture } from '../../../../src/telemetry/capture/options.js';

describe('the scrubber itself, on large text', () => {
  it('a 10 MB message and 10 MB values: the text is bounded and the values are gone', () => {
    const big = 'v'.repeat(10 * 1024 * 1024);
    const text = resolveCapture(undefined).scrubber([{ big, other: 'abc-def' }]).text(`failed with ${big} and abc-def`);
    expect(text).toMatch(/^failed with \[REDACTED\]…\[truncated \d+\]$/);
  });
});
