/** What observers (`onEvent`) are told about each hook of a phase, with capture applied. */
import { describe, expect, it } from 'vitest';
import { CONTINUE, abort, redirect, skip } from '../../../src/decisions.js';
import { failureRecord, hookRecord, shadowedRecord } from '../../../src/runner/records.js';
import { resolveCapture } from '../../../src/telemetry/capture/options.js';

const entry = { name: 'policy', mode: 'enforce' } as const;
const off = resolveCapture(undefined);
const on = resolveCapture({ args: true, maxLength: 5 });

describe('hookRecord', () => {
  it('records a failed hook as an error, with its mode and duration', () => {
    expect(hookRecord({ name: 'policy', mode: 'audit' }, undefined, 3, off)).toEqual({ hook: 'policy', decision: 'error', durationMs: 3, mode: 'audit' });
  });

  it('records Continue without a reason', () => {
    expect(hookRecord(entry, CONTINUE, 1, off)).toEqual({ hook: 'policy', decision: 'continue', durationMs: 1, mode: 'enforce' });
  });

  it('records a Skip or Abort with its reason, cut to maxLength', () => {
    expect(hookRecord(entry, skip('cached'), 1, off)).toMatchObject({ decision: 'skip', reason: 'cached' });
    expect(hookRecord(entry, abort('forbidden'), 1, on)).toMatchObject({ decision: 'abort', reason: 'forbi…[truncated 4]' });
  });

  it("records a Redirect's new tool always, and its new arguments only when args are captured, redacted", () => {
    const decision = redirect({ newTool: 'safe', newArgs: { password: 'hunter2' }, reason: 'r' });
    const hidden = hookRecord(entry, decision, 1, off);
    expect(hidden).toMatchObject({ decision: 'redirect', newTool: 'safe' });
    expect(hidden).not.toHaveProperty('newArgs');
    expect(hookRecord(entry, decision, 1, resolveCapture({ args: true })).newArgs).toBe('{"password":"[REDACTED]"}');
  });
});

describe('shadowedRecord and failureRecord', () => {
  it('names the shadowed decision and its reason', () => {
    expect(shadowedRecord('cache', CONTINUE, off)).toEqual({ hook: 'cache', decision: 'continue' });
    expect(shadowedRecord('cache', skip('hit'), off)).toEqual({ hook: 'cache', decision: 'skip', reason: 'hit' });
  });

  it('keeps the error a failure carries as it was thrown', () => {
    const error = new Error('x');
    expect(failureRecord('policy', 'enforce', 'threw', error)).toEqual({ hook: 'policy', kind: 'threw', error, mode: 'enforce' });
    expect(failureRecord('policy', 'enforce', 'threw', error).error).toBe(error);
  });
});
