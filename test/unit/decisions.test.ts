import { describe, expect, it } from 'vitest';
import { CONTINUE, HookAbortError, VERSION, abort, ask, isHookDecision, redirect, replaceResult, skip } from '../../src/index.js';
import type { HookDecision } from '../../src/index.js';
import packageJson from '../../package.json' with { type: 'json' };
import { decisionAttributesOf, isIssuedDecision, withDecisionAttributes } from '../../src/decisions.js';
import { createTestTracing, eventsOf } from '../support/tracing.js';

describe('decisions', () => {
  it('are frozen plain objects discriminated by kind (Orqest decision shape)', () => {
    expect(CONTINUE).toEqual({ kind: 'continue' });
    expect(skip('cached', 42)).toEqual({ kind: 'skip', reason: 'cached', stubResult: 42 });
    expect(abort('no')).toEqual({ kind: 'abort', reason: 'no' });
    expect(redirect({ newTool: 'sandbox' })).toEqual({ kind: 'redirect', newTool: 'sandbox', reason: '' });
    for (const decision of [CONTINUE, skip('r'), abort('r'), redirect({ newArgs: { a: 1 } })]) {
      expect(Object.isFrozen(decision)).toBe(true);
      expect(Object.getPrototypeOf(decision)).toBe(Object.prototype);
    }
  });

  it('skip defaults its stub to the empty string', () => {
    expect(skip('r').stubResult).toBe('');
  });

  it('redirect without a target is a TypeError that names the fix', () => {
    expect(() => redirect({})).toThrow(TypeError);
    expect(() => redirect({})).toThrow(/redirect\(\) needs newArgs or newTool/);
    expect(() => redirect({ reason: 'x' })).toThrow(/needs newArgs or newTool/);
  });

  it('redirect rejects malformed targets with a message naming them', () => {
    expect(() => redirect({ newTool: '' })).toThrow(/needs newTool as a non-empty tool name/);
    expect(() => redirect({ newArgs: [] as unknown as Record<string, unknown> })).toThrow(/needs newArgs as a plain object/);
    expect(() => redirect(null as unknown as { newTool: string })).toThrow(TypeError);
  });

  it('redirect copies and freezes newArgs, so later changes to the caller object do not leak in', () => {
    const args: Record<string, unknown> = { q: 'a' };
    const decision = redirect({ newArgs: args });
    args.q = 'b';
    expect(decision.newArgs).toEqual({ q: 'a' });
    expect(Object.isFrozen(decision.newArgs)).toBe(true);
  });

  it('redirect keeps a __proto__ key as data instead of changing the prototype', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const decision = redirect({ newArgs: args });
    expect(Object.keys(decision.newArgs ?? {})).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(decision.newArgs)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('constructors reject a non-string reason', () => {
    expect(() => skip(3 as unknown as string)).toThrow(/skip\(reason\) must be a string, got number/);
    expect(() => abort(undefined as unknown as string)).toThrow(/abort\(reason\) must be a string/);
  });

  it('isHookDecision accepts constructed decisions and well-formed literals only', () => {
    expect(isHookDecision(CONTINUE)).toBe(true);
    expect(isHookDecision({ kind: 'continue' })).toBe(true);
    expect(isHookDecision({ kind: 'skip', reason: 'r' })).toBe(true);
    expect(isHookDecision({ kind: 'abort', reason: 'r' })).toBe(true);
    expect(isHookDecision({ kind: 'redirect', newArgs: { a: 1 } })).toBe(true);
    expect(isHookDecision({ kind: 'redirect' })).toBe(false);
    expect(isHookDecision({ kind: 'abort' })).toBe(false);
    expect(isHookDecision({ kind: 'stop' })).toBe(false);
    expect(isHookDecision('continue')).toBe(false);
    expect(isHookDecision(null)).toBe(false);
    expect(isHookDecision(undefined)).toBe(false);
  });
});

describe('ask and replaceResult', () => {
  it('are frozen plain decisions like the others', () => {
    expect(ask('emails leave the company')).toEqual({ kind: 'ask', reason: 'emails leave the company', deniedResult: undefined });
    expect(ask('refund', { deniedResult: { refunded: false } })).toEqual({ kind: 'ask', reason: 'refund', deniedResult: { refunded: false } });
    expect(replaceResult('[scrubbed]')).toEqual({ kind: 'replace', result: '[scrubbed]', reason: '' });
    expect(replaceResult(null, 'PII')).toEqual({ kind: 'replace', result: null, reason: 'PII' });
    for (const decision of [ask('r'), replaceResult(1)]) {
      expect(Object.isFrozen(decision)).toBe(true);
      expect(Object.getPrototypeOf(decision)).toBe(Object.prototype);
    }
  });

  it("ask('') is a TypeError: an approver must be told why it is asked", () => {
    expect(() => ask('')).toThrow(TypeError);
    expect(() => ask('')).toThrow(/ask\(reason\) must be a non-empty string .*got the string ""/);
    expect(() => ask('   ')).toThrow(/non-empty/);
    expect(() => ask(undefined as unknown as string)).toThrow(/ask\(reason\) must be a string, got undefined/);
    expect(() => ask('r', 'denied' as unknown as { deniedResult: unknown })).toThrow(/takes an options object \{ deniedResult \}, got a string|got string/);
  });

  it('replaceResult() without a result is a TypeError; null is a result', () => {
    expect(() => (replaceResult as (...a: unknown[]) => unknown)()).toThrow(TypeError);
    expect(() => (replaceResult as (...a: unknown[]) => unknown)()).toThrow(/replaceResult\(result\) needs the result/);
    expect(() => replaceResult('x', 3 as unknown as string)).toThrow(/reason\) must be a string, got number/);
    expect(replaceResult(null).result).toBeNull();
  });

  it('isHookDecision knows both, as constructed decisions and as plain literals', () => {
    expect(isHookDecision(ask('r'))).toBe(true);
    expect(isHookDecision({ kind: 'ask', reason: 'r' })).toBe(true);
    expect(isHookDecision({ kind: 'ask', reason: '' })).toBe(false);
    expect(isHookDecision({ kind: 'ask' })).toBe(false);
    expect(isHookDecision(replaceResult(0))).toBe(true);
    expect(isHookDecision({ kind: 'replace', result: 'x' })).toBe(true);
    expect(isHookDecision({ kind: 'replace' })).toBe(false);
    expect(isHookDecision({ kind: 'replace', result: 'x', reason: 1 })).toBe(false);
  });

  it('narrow on kind', () => {
    const summary = (decision: HookDecision): string => {
      switch (decision.kind) {
        case 'ask':
          return `ask ${decision.reason} ${String(decision.deniedResult)}`;
        case 'replace':
          return `replace ${String(decision.result)}`;
        default:
          return decision.kind;
      }
    };
    expect(summary(ask('why', { deniedResult: 'no' }))).toBe('ask why no');
    expect(summary(replaceResult(7))).toBe('replace 7');
  });
});

describe('HookAbortError', () => {
  it('carries reason, source hook and cause', () => {
    const cause = new Error('disk full');
    const error = new HookAbortError('stop', 'policy', { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('HookAbortError');
    expect(error.message).toBe('stop');
    expect(error.reason).toBe('stop');
    expect(error.sourceHook).toBe('policy');
    expect(error.cause).toBe(cause);
  });

  it('has no cause or source hook when none is given', () => {
    const error = new HookAbortError('stop');
    expect(error.sourceHook).toBeUndefined();
    expect('cause' in error).toBe(false);
  });
});

describe('VERSION', () => {
  it('is the package version', () => {
    expect(VERSION).toBe(packageJson.version);
  });
});

describe('withDecisionAttributes (a hook attaching attributes to its decision event)', () => {
  it('returns a frozen, issued copy carrying the attributes; the original carries none', () => {
    const original = redirect({ newTool: 'b', reason: 'r' });
    const copy = withDecisionAttributes(original, { 'x.count': 2 });
    expect(copy).toEqual(original);
    expect(copy).not.toBe(original);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(isIssuedDecision(copy)).toBe(true);
    expect(decisionAttributesOf(copy)).toEqual({ 'x.count': 2 });
    expect(decisionAttributesOf(original)).toBeUndefined();
    expect(decisionAttributesOf(CONTINUE)).toBeUndefined();
  });

  it('puts them on the decision event and the observer record, where the runner\'s own attributes win', async () => {
    const tracing = createTestTracing();
    const records: unknown[] = [];
    const runner = tracing.runner([
      { name: 'tagger', beforeTool: () => withDecisionAttributes(abort('stop'), { 'toolhooks.decision': 'continue', 'x.tag': 'a' }) },
      { name: 'watch', onEvent: (event) => void (event.type === 'phase' && records.push(...event.hooks)) },
    ]);
    await expect(runner.runBefore('t', {}, undefined)).rejects.toThrow('stop');
    const event = eventsOf(tracing.onlySpan('toolhooks.before_tool'), 'toolhooks.hook.decision')[0];
    expect(event?.attributes).toMatchObject({ 'toolhooks.decision': 'abort', 'x.tag': 'a' });
    expect(records).toEqual([expect.objectContaining({ hook: 'tagger', decision: 'abort', attributes: { 'toolhooks.decision': 'continue', 'x.tag': 'a' } })]);
  });
});
