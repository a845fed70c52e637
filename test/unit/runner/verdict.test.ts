/**
 * What a hook's return value means to the runner: a decision, or a failure whose message names the hook,
 * the problem and the fix.
 */
import { describe, expect, it } from 'vitest';
import { CONTINUE, abort, ask, redirect, replaceResult, skip } from '../../../src/decisions.js';
import { InvalidHookDecisionError, InvalidRedirectTargetError } from '../../../src/errors.js';
import { HookFailed, checkDecision } from '../../../src/runner/verdict.js';

type Rules = Parameters<typeof checkDecision>[2];
const open: Rules = { phase: 'before_tool', toolName: 'search', isRedirectTarget: undefined, checkSkip: undefined };

function failure(value: unknown, rules: Rules = open): HookFailed {
  const verdict = checkDecision(value, 'policy', rules);
  expect(verdict).toBeInstanceOf(HookFailed);
  return verdict as HookFailed;
}

describe('checkDecision', () => {
  it('reads nothing returned as Continue', () => {
    expect(checkDecision(undefined, 'policy', open)).toBe(CONTINUE);
    expect(checkDecision(null, 'policy', open)).toBe(CONTINUE);
  });

  it('passes a decision from the constructors through unchanged', () => {
    const decision = abort('no shell');
    expect(checkDecision(decision, 'policy', open)).toBe(decision);
  });

  it('accepts a literal of a decision and freezes it, so a later change to the literal has no effect', () => {
    const literal = { kind: 'skip', reason: 'cached', stubResult: 42 };
    const verdict = checkDecision(literal, 'policy', open);
    expect(verdict).toMatchObject({ kind: 'skip', reason: 'cached', stubResult: 42 });
    expect(Object.isFrozen(verdict)).toBe(true);
    literal.reason = 'changed';
    expect(verdict).toMatchObject({ reason: 'cached' });
  });

  it('fails a string with invalid_decision, naming the hook and what to return instead', () => {
    const failed = failure('abort');
    expect(failed.kind).toBe('invalid_decision');
    expect(failed.error).toBeInstanceOf(InvalidHookDecisionError);
    expect(String((failed.error as Error).message)).toBe(`hook "policy" returned the string "abort"; return abort('reason') instead`);
  });

  it('fails a decision whose fields cannot be read, quoting what went wrong', () => {
    const hostile = {
      get kind(): string {
        throw new Error('getter exploded');
      },
    };
    const failed = failure(hostile);
    expect(failed.kind).toBe('invalid_decision');
    expect((failed.error as Error).message).toMatch(/hook "policy" returned an unreadable decision \(getter exploded\)/);
  });

  it("applies the flow's own check of a Skip's stub", () => {
    const rules = { ...open, checkSkip: () => 'stubResult must be a string' };
    expect((failure(skip('cached', 1), rules).error as Error).message).toBe('hook "policy" returned a Skip whose stubResult must be a string');
    expect(checkDecision(skip('cached', 's'), 'policy', { ...open, checkSkip: () => undefined })).toMatchObject({ kind: 'skip' });
  });

  it('fails a Redirect to a tool the flow does not know with invalid_redirect_target', () => {
    const rules = { ...open, isRedirectTarget: (tool: string) => tool === 'safe_search' };
    const failed = failure(redirect({ newTool: 'rm_rf' }), rules);
    expect(failed.kind).toBe('invalid_redirect_target');
    expect(failed.error).toBeInstanceOf(InvalidRedirectTargetError);
    expect((failed.error as InvalidRedirectTargetError).target).toBe('rm_rf');
  });

  it('accepts a Redirect to a known tool, to the requested tool itself, and to any tool when none are listed', () => {
    const rules = { ...open, isRedirectTarget: (tool: string) => tool === 'safe_search' };
    expect(checkDecision(redirect({ newTool: 'safe_search' }), 'policy', rules)).toMatchObject({ kind: 'redirect' });
    expect(checkDecision(redirect({ newTool: 'search', newArgs: { q: 'x' } }), 'policy', rules)).toMatchObject({ kind: 'redirect' });
    expect(checkDecision(redirect({ newTool: 'anything' }), 'policy', open)).toMatchObject({ kind: 'redirect' });
  });

  it('fails an Ask outside before_tool and a Replace outside after_tool, saying where each belongs', () => {
    expect((failure(ask('needs a human'), { ...open, phase: 'after_tool' }).error as Error).message).toBe(
      'hook "policy" returned ask() in after_tool; ask for approval in beforeTool, before the tool runs',
    );
    expect((failure(replaceResult('masked'), open).error as Error).message).toBe(
      'hook "policy" returned replaceResult() in before_tool; replace a result in afterTool, once the tool has one',
    );
    expect(checkDecision(ask('needs a human'), 'policy', open)).toMatchObject({ kind: 'ask' });
    expect(checkDecision(replaceResult('masked'), 'policy', { ...open, phase: 'after_tool' })).toMatchObject({ kind: 'replace' });
  });
});
