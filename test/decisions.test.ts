import { describe, expect, it } from 'vitest';
import { CONTINUE, HookAbortError, VERSION, abort, isHookDecision, redirect, skip } from '../src/index.js';
import packageJson from '../package.json' with { type: 'json' };

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
