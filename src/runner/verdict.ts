/**
 * What a hook's return value means: a decision, or a failure of kind `invalid_decision` /
 * `invalid_redirect_target`. Failure messages read as sentences that name the fix.
 * @internal
 */
import type { HookDecision, Skip } from '../decisions.js';
import { CONTINUE, describeInvalidDecision, isIssuedDecision, normaliseDecision } from '../decisions.js';
import { errorMessage } from '../internal/describe.js';
import { exhaustive } from '../internal/exhaustive.js';
import { InvalidHookDecisionError, InvalidRedirectTargetError } from '../errors.js';
import type { HookErrorKind, Phase } from '../hook.js';

/** A hook that failed: threw, timed out, or returned something that is not a usable decision. */
export class HookFailed {
  constructor(
    readonly kind: HookErrorKind,
    readonly error: unknown,
  ) {}
}

/** A hook's outcome once its return value has been checked: its decision, or how it failed. */
export type Verdict = HookDecision | HookFailed;

/** What a phase checks a decision against, beyond its shape. */
interface DecisionRules {
  /** Ask belongs to before_tool and Replace to after_tool: anywhere else each is invalid. */
  readonly phase: Phase;
  readonly toolName: string;
  /** Whether a Redirect may name `tool`; undefined accepts every target. */
  readonly isRedirectTarget?: ((tool: string) => boolean) | undefined;
  /** A flow's own check of a Skip's stub: a problem description, or undefined when usable. */
  readonly checkSkip?: ((decision: Skip) => string | undefined) | undefined;
}

/** Checks a hook's return value: nothing → Continue; junk → invalid_decision; unknown target → invalid_redirect_target. */
export function checkDecision(value: unknown, hookName: string, rules: DecisionRules): Verdict {
  if (value === undefined || value === null) return CONTINUE;
  let decision: HookDecision;
  // A decision from the constructors in decisions.ts was checked when it was made and is frozen: used as
  // it is, without describing it again. Anything else is read once, described and normalised.
  if (isIssuedDecision(value)) decision = value;
  else {
    try {
      const once = readOnce(value);
      const problem = describeInvalidDecision(once);
      if (problem !== undefined) return invalid(`hook "${hookName}" returned ${problem}`);
      decision = normaliseDecision(once as HookDecision);
    } catch (error) {
      return invalid(`hook "${hookName}" returned an unreadable decision (${errorMessage(error)}); return a decision from skip(), redirect() or abort()`);
    }
  }
  if (decision.kind === 'ask' && rules.phase !== 'before_tool') {
    return invalid(`hook "${hookName}" returned ask() in ${rules.phase}; ask for approval in beforeTool, before the tool runs`);
  }
  if (decision.kind === 'replace' && rules.phase !== 'after_tool') {
    return invalid(`hook "${hookName}" returned replaceResult() in ${rules.phase}; replace a result in afterTool, once the tool has one`);
  }
  const payload = payloadProblem(decision);
  if (payload !== undefined) return invalid(`hook "${hookName}" returned ${payload}`);
  if (decision.kind === 'skip' && rules.checkSkip !== undefined) {
    const problem = rules.checkSkip(decision);
    if (problem !== undefined) return invalid(`hook "${hookName}" returned a Skip whose ${problem}`);
  }
  if (decision.kind === 'redirect' && decision.newTool !== undefined && rules.isRedirectTarget !== undefined) {
    const target = decision.newTool;
    if (target !== rules.toolName && !rules.isRedirectTarget(target)) {
      return new HookFailed('invalid_redirect_target', new InvalidRedirectTargetError(target));
    }
  }
  return decision;
}

/**
 * What is wrong with the value a decision hands the caller — a Skip's stub, an Ask's denial result, a
 * Replace's result — or undefined. A promise (any thenable) would be adopted by the flow's own promise
 * after the call's span ended as completed: it would hang past the hook's timeout, or reject the caller
 * with an error no hook guard saw. A value whose `then` cannot be read (a throwing getter, a hostile
 * Proxy) would reject the caller the same way. Either is the hook's invalid decision.
 */
function payloadProblem(decision: HookDecision): string | undefined {
  switch (decision.kind) {
    case 'skip':
      return thenProblem(decision.stubResult, 'a Skip whose stubResult', "skip('reason', await stub)");
    case 'ask':
      return thenProblem(decision.deniedResult, 'an Ask whose deniedResult', "ask('reason', { deniedResult: await result })");
    case 'replace':
      return thenProblem(decision.result, 'a Replace whose result', 'replaceResult(await redact(result))');
    case 'continue':
    case 'redirect':
    case 'abort':
      // No value handed to the caller (a Redirect's newArgs are checked as plain data when it is made).
      return undefined;
    default:
      return exhaustive(decision, 'decision kind');
  }
}

function thenProblem(value: unknown, what: string, fix: string): string | undefined {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    if (typeof (value as { then?: unknown }).then !== 'function') return undefined;
  } catch (error) {
    return `${what} cannot be read (reading its then threw: ${errorMessage(error)}); give plain data`;
  }
  return `${what} is a promise (a thenable); await it in the hook and decide with its value: ${fix}`;
}

/**
 * The fields a decision may have; each is read once from what the hook returned. A decision's `kind`
 * (or any field) may be a getter or a Proxy trap that answers differently each time: checked on one read
 * and used on another, it would crash the phase (leaving its span open) or let a fail-closed gate's
 * decision change after its check.
 */
const DECISION_FIELDS = ['kind', 'reason', 'stubResult', 'newArgs', 'newTool', 'deniedResult', 'result'] as const;

/** A plain snapshot of a returned value's decision fields, each read once (a non-object is returned as is). */
function readOnce(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const snapshot: Record<string, unknown> = {};
  for (const field of DECISION_FIELDS) {
    if (field in value) snapshot[field] = (value as Record<string, unknown>)[field];
  }
  return snapshot;
}

function invalid(message: string): HookFailed {
  return new HookFailed('invalid_decision', new InvalidHookDecisionError(message));
}
