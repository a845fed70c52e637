/**
 * The decisions a hook can issue, their constructors and their guard.
 *
 * Decisions are frozen plain objects discriminated by `kind`, so they can be compared, logged and
 * returned as literals (`{ kind: 'continue' }`) as well as built with the constructors below.
 */
import { quoteValue, typeName } from './internal/describe.js';
import { exhaustive } from './internal/exhaustive.js';
import type { ToolArgs } from './hook.js';

/** Let the tool call go on unchanged. */
export interface Continue {
  readonly kind: 'continue';
}

/** Do not run the tool; the call's result is `stubResult`. */
export interface Skip {
  readonly kind: 'skip';
  readonly reason: string;
  readonly stubResult: unknown;
}

/** Run with other arguments (merged over the original ones), another tool, or both. */
export interface Redirect {
  readonly kind: 'redirect';
  readonly newArgs?: Readonly<Record<string, unknown>>;
  readonly newTool?: string;
  readonly reason: string;
}

/** Stop the tool call: the flow raises {@link HookAbortError} with this reason. */
export interface Abort {
  readonly kind: 'abort';
  readonly reason: string;
}

/**
 * Hold the call until a person (or a system) approves it; before_tool only. The call then runs what
 * the other hooks decided; denied, it returns `deniedResult` (when given) and the tool never runs.
 */
export interface Ask {
  readonly kind: 'ask';
  readonly reason: string;
  /** What a denied call returns; `undefined` means "`Tool call denied: <why>`". */
  readonly deniedResult: unknown;
}

/** Return `result` instead of the tool's result; after_tool only. */
export interface Replace {
  readonly kind: 'replace';
  readonly result: unknown;
  readonly reason: string;
}

/**
 * Decisions made by the constructors below: frozen, validated, data properties only. A frozen object
 * from elsewhere may still hide getters or lack defaults, so only these skip normalisation.
 */
const issued = new WeakSet<object>();

function issue<D extends HookDecision>(decision: D): D {
  issued.add(decision);
  return decision;
}

/**
 * Attributes a hook adds to its own `toolhooks.hook.decision` span event (a policy's engine and ids, a
 * limit's count): values as OpenTelemetry attributes take them. Attached with {@link withDecisionAttributes}.
 * @internal
 */
export type DecisionAttributes = Readonly<Record<string, string | number | boolean | readonly string[]>>;

/** The attributes attached to decisions, kept beside them so that a decision stays a plain frozen object. */
const attached = new WeakMap<HookDecision, DecisionAttributes>();

/**
 * A copy of a decision that carries `attributes` onto the deciding hook's `toolhooks.hook.decision` event
 * and its observer record (`PhaseHookRecord.attributes`); the runner's own attributes win on a clash. The
 * general way for a built-in governance hook (a policy's engine and ids, a limit's count) to say more about
 * its decision on the trace; the copy is frozen and issued, so the runner uses it without re-reading.
 * Never put a value your telemetry must not hold here.
 * @internal
 */
export function withDecisionAttributes<D extends HookDecision>(decision: D, attributes: DecisionAttributes): D {
  const copy = Object.freeze({ ...decision }) as D;
  attached.set(issue(copy), Object.freeze({ ...attributes }));
  return copy;
}

/** The attributes attached to a decision with {@link withDecisionAttributes}, if any. @internal */
export function decisionAttributesOf(decision: HookDecision): DecisionAttributes | undefined {
  return attached.get(decision);
}

/** Whether a value is a decision made by the constructors below (nothing about it can change). @internal */
export function isIssuedDecision(value: unknown): value is HookDecision {
  return typeof value === 'object' && value !== null && issued.has(value);
}

/** What a hook decides about a tool call. */
export type HookDecision = Continue | Skip | Redirect | Abort | Ask | Replace;

/** The kind of a decision: `'continue' | 'skip' | 'redirect' | 'abort' | 'ask' | 'replace'`. */
export type DecisionKind = HookDecision['kind'];

/**
 * Every decision kind, as a table the type checker holds complete: a kind added to {@link HookDecision}
 * and missing here fails the type check.
 */
const KINDS: Readonly<Record<DecisionKind, true>> = { continue: true, skip: true, redirect: true, abort: true, ask: true, replace: true };

/**
 * Every decision kind. What the tests check each kind-handling site against (see "A new decision kind" in
 * docs/architecture.md).
 * @internal
 * @example
 * ```ts
 * for (const kind of DECISION_KINDS) expect(VERDICTS[kind]).toBeDefined();
 * ```
 */
export const DECISION_KINDS: readonly DecisionKind[] = Object.freeze(Object.keys(KINDS) as DecisionKind[]);

/**
 * Whether `value` names a decision kind (an own key of the table: `'constructor'` is not one).
 * @internal
 * @example
 * ```ts
 * isDecisionKind('skip'); // true
 * ```
 */
export function isDecisionKind(value: unknown): value is DecisionKind {
  return typeof value === 'string' && Object.hasOwn(KINDS, value);
}

/**
 * The decision to let a tool call proceed. Returning nothing from a hook means the same.
 *
 * @example
 * ```ts
 * const hook = { beforeTool: () => CONTINUE };
 * ```
 */
export const CONTINUE: Continue = issue(Object.freeze({ kind: 'continue' }));

/**
 * Skip the tool: it never runs and the call returns `stubResult` (default `''`).
 *
 * @example
 * ```ts
 * const cache = { beforeTool: (tool, args) => (hit(args) ? skip('cache hit', cached(args)) : undefined) };
 * ```
 */
export function skip(reason: string, stubResult: unknown = ''): Skip {
  requireString(reason, 'skip(reason)');
  return issue(Object.freeze({ kind: 'skip', reason, stubResult }));
}

/**
 * Redirect the call: run it with `newArgs` merged over the original arguments, and/or run `newTool`
 * instead of the requested tool.
 *
 * @throws TypeError when neither `newArgs` nor `newTool` is given.
 * @example
 * ```ts
 * redirect({ newTool: 'sandbox_shell', reason: 'untrusted command' });
 * redirect({ newArgs: { limit: 10 } });
 * ```
 */
export function redirect(target: {
  newArgs?: Record<string, unknown> | undefined;
  newTool?: string | undefined;
  reason?: string | undefined;
}): Redirect {
  if (target === null || typeof target !== 'object') {
    throw new TypeError('redirect() takes an object: redirect({ newArgs, newTool, reason })');
  }
  const { newArgs, newTool, reason = '' } = target;
  const problem = redirectProblem(newArgs, newTool, reason);
  if (problem !== undefined) throw new TypeError(`redirect() ${problem}`);
  const decision: { kind: 'redirect'; reason: string; newArgs?: Readonly<ToolArgs>; newTool?: string } = {
    kind: 'redirect',
    reason,
  };
  if (newArgs !== undefined) decision.newArgs = Object.freeze(mergeArgs(newArgs));
  if (newTool !== undefined) decision.newTool = newTool;
  return issue(Object.freeze(decision));
}

/**
 * Abort the call: the flow raises {@link HookAbortError} with this reason, and no later hook runs.
 *
 * @example
 * ```ts
 * const gate = { beforeTool: (tool, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) };
 * ```
 */
export function abort(reason: string): Abort {
  requireString(reason, 'abort(reason)');
  return issue(Object.freeze({ kind: 'abort', reason }));
}

/**
 * Ask for approval before the tool runs (before_tool only). The runner's `approver` sees the tool and
 * arguments the call would run and this reason; anything but an approval — a denial, an approver that
 * throws or takes longer than `approvalTimeoutMs`, no approver at all — denies the call, which then
 * returns `deniedResult` when given, else the string `Tool call denied: <why>`.
 *
 * @throws TypeError when `reason` is not a non-empty string: an approver must be told why it is asked.
 * @example
 * ```ts
 * const gate = { beforeTool: (tool, args) => (tool === 'send_email' ? ask('emails leave the company') : undefined) };
 * ask('refund above 100 EUR', { deniedResult: { refunded: false, why: 'not approved' } });
 * ```
 */
export function ask(reason: string, options?: { deniedResult?: unknown }): Ask {
  const problem = askReasonProblem(reason);
  if (problem !== undefined) throw new TypeError(`ask(reason) ${problem}`);
  if (options !== undefined && (options === null || typeof options !== 'object')) {
    throw new TypeError(`ask(reason, options) takes an options object { deniedResult }, got ${typeName(options)}`);
  }
  return issue(Object.freeze({ kind: 'ask', reason, deniedResult: options?.deniedResult }));
}

/**
 * Replace the tool's result (after_tool only): the call returns `result` instead, e.g. with secrets
 * or personal data stripped before the model sees it. The call's outcome stays `completed`.
 *
 * @throws TypeError when called without a result (`undefined` is not a result), or with a non-string reason.
 * @example
 * ```ts
 * const scrub = { afterTool: (tool, args, result) => (hasEmail(result) ? replaceResult(redactEmails(result), 'PII') : undefined) };
 * ```
 */
export function replaceResult(result: unknown, reason = ''): Replace {
  if (result === undefined) {
    throw new TypeError('replaceResult(result) needs the result to return instead of the tool\'s (use null for "no result")');
  }
  requireString(reason, 'replaceResult(result, reason)');
  return issue(Object.freeze({ kind: 'replace', result, reason }));
}

/**
 * Whether `value` is a well-formed decision: one built by the constructors, or a plain literal of the
 * same shape (`{ kind: 'skip', reason: 'cached', stubResult: 42 }`). A Redirect needs a target.
 *
 * @example
 * ```ts
 * isHookDecision({ kind: 'abort', reason: 'no' }); // true
 * isHookDecision({ kind: 'redirect' });            // false: no newArgs or newTool
 * ```
 */
export function isHookDecision(value: unknown): value is HookDecision {
  return describeInvalidDecision(value) === undefined;
}

/**
 * Why `value` is not a decision, or `undefined` when it is one. Used by the runner to name the problem
 * in the `toolhooks.hook.error` event.
 * @internal
 */
export function describeInvalidDecision(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return describeNonDecision(value);
  const v = value as Record<string, unknown>;
  switch (v.kind) {
    case 'continue':
      return undefined;
    case 'skip':
      return typeof v.reason === 'string' ? undefined : "a skip decision without a string reason; use skip('reason', stub)";
    case 'abort':
      return typeof v.reason === 'string' ? undefined : "an abort decision without a string reason; use abort('reason')";
    case 'redirect': {
      const problem = redirectProblem(v.newArgs, v.newTool, v.reason ?? '');
      return problem === undefined ? undefined : `a redirect decision that ${problem}`;
    }
    case 'ask': {
      const problem = askReasonProblem(v.reason);
      return problem === undefined ? undefined : `an ask decision whose reason ${problem.replace(/^must be/, 'is not')}; use ask('reason')`;
    }
    case 'replace':
      if (!('result' in v) || v.result === undefined) return "a replace decision without a result; use replaceResult(result, 'reason')";
      return v.reason === undefined || typeof v.reason === 'string'
        ? undefined
        : "a replace decision without a string reason; use replaceResult(result, 'reason')";
    default:
      return `an object with unknown decision kind ${JSON.stringify(String(v.kind))}; return a decision from skip(), redirect(), abort(), ask() or replaceResult()`;
  }
}

const DECISION_WORDS: Readonly<Record<DecisionKind, string>> = {
  abort: "abort('reason')",
  skip: "skip('reason', stub)",
  redirect: 'redirect({ newArgs })',
  ask: "ask('reason')",
  replace: 'replaceResult(result)',
  continue: 'nothing (or CONTINUE)',
};

/** A non-object return value, as the rest of "hook "x" returned …". */
function describeNonDecision(value: unknown): string {
  if (typeof value === 'string') {
    const meant = (DECISION_WORDS as Readonly<Record<string, string | undefined>>)[value.trim().toLowerCase()];
    return meant === undefined
      ? `${quoteValue(value)}; return a decision from skip(), redirect() or abort(), or nothing to continue`
      : `${quoteValue(value)}; return ${meant} instead`;
  }
  const article = typeName(value) === 'an array' || value === null ? '' : /^[aeiou]/.test(typeof value) ? 'an ' : 'a ';
  return `${article}${typeName(value)} instead of a decision; return a decision from skip(), redirect() or abort(), or nothing to continue`;
}

/**
 * What is wrong with a Redirect's fields, worded to follow "redirect() " or "a redirect decision that ";
 * undefined when they make a Redirect. The one check behind both redirect() and a hook's literal.
 */
function redirectProblem(newArgs: unknown, newTool: unknown, reason: unknown): string | undefined {
  if (newArgs === undefined && newTool === undefined) {
    return 'needs newArgs or newTool: redirect({ newArgs: {...} }) or redirect({ newTool: "name" })';
  }
  if (newArgs !== undefined && !isPlainObject(newArgs)) return `needs newArgs as a plain object of arguments, got ${typeName(newArgs)}`;
  if (newTool !== undefined && (typeof newTool !== 'string' || newTool.length === 0)) {
    return 'needs newTool as a non-empty tool name';
  }
  if (typeof reason !== 'string') return `needs reason as a string, got ${typeName(reason)}`;
  return undefined;
}

/**
 * The frozen, normalised form of a well-formed decision (literals get their defaults filled in, and
 * every field is read once, so a getter cannot answer differently later).
 * @internal
 */
export function normaliseDecision(value: HookDecision): HookDecision {
  if (issued.has(value)) return value;
  switch (value.kind) {
    case 'continue':
      return CONTINUE;
    case 'skip':
      return skip(value.reason, 'stubResult' in value ? value.stubResult : '');
    case 'abort':
      return abort(value.reason);
    case 'redirect':
      return redirect({ newArgs: value.newArgs as ToolArgs | undefined, newTool: value.newTool, reason: value.reason });
    case 'ask':
      return ask(value.reason, { deniedResult: value.deniedResult });
    case 'replace':
      return replaceResult(value.result, value.reason ?? '');
    default:
      return exhaustive(value, 'decision kind');
  }
}

/** @internal */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `{ ...args, ...newArgs }` as a new object, without mutating either. A spread defines every own
 * enumerable property as data — an own `__proto__` key included, so a hostile argument object cannot
 * change the copy's prototype — and keeps symbol-keyed ones, as the tool would have had them without
 * the Redirect.
 * @internal
 */
export function mergeArgs(args: Readonly<ToolArgs>, newArgs?: Readonly<ToolArgs>): ToolArgs {
  return newArgs === undefined ? { ...args } : { ...args, ...newArgs };
}

/** What is wrong with an Ask's reason, worded to follow "ask(reason) "; undefined when usable. */
function askReasonProblem(reason: unknown): string | undefined {
  if (typeof reason !== 'string') return `must be a string, got ${typeName(reason)}`;
  if (reason.trim() === '') return `must be a non-empty string (the approver is shown it), got ${quoteValue(reason)}`;
  return undefined;
}

function requireString(value: unknown, what: string): void {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeName(value)}`);
}
