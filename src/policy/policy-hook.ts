/**
 * policyHook: an ordinary ToolHook that asks a policy engine about each call and turns its answer into a
 * decision. The runner does the rest as for any hook: its timeout, its failure mode (closed by
 * default here), audit mode, and the decision event, which carries the engine, the policy digest and
 * the determining policy ids (`toolhooks.policy.*`).
 * @internal
 */
import type { DecisionAttributes, HookDecision } from '../decisions.js';
import { CONTINUE, withDecisionAttributes } from '../decisions.js';
import type { HookContext, MaybePromise, ToolArgs, ToolHook } from '../hook.js';
import { quoteValue } from '../internal/describe.js';
import { anything, duration, func, oneOf, readOptions, string } from '../internal/validate.js';
import { ATTR_POLICY_DIGEST, ATTR_POLICY_ENGINE, ATTR_POLICY_IDS } from '../telemetry/semconv.js';
import { EVALUATE_DOCUMENT, EVALUATE_JSON, readsDocument, takesJson } from './engine-input.js';
import { parseInput, policyInput, policyInputJson } from './input.js';
import type { DocumentInputEngine, JsonInputEngine } from './engine-input.js';
import type { ReadRules } from './result.js';
import { boundedIds, decisionOf, readPolicyResult } from './result.js';
import type { PolicyEngine, PolicyHookOptions } from './types.js';

type PolicyPhase = 'before_tool' | 'after_tool';

const OPTION_CHECKS = {
  name: string,
  tools: anything,
  mode: oneOf('enforce', 'audit'),
  failureMode: oneOf('open', 'closed'),
  timeoutMs: duration(0),
  phases: anything,
  context: func,
  deny: oneOf('abort', 'skip'),
};

/**
 * A hook that asks `engine` about every matching tool call and does what the policy decides: allow and
 * not-applicable continue, deny aborts (or skips, with `deny: 'skip'`), requires-approval asks, and
 * toolhooks' extensions skip with a stub, redirect, or replace the result (after_tool). Fail closed by
 * default: an engine error, a timeout or a malformed answer aborts the call unless `failureMode` is
 * `'open'`. With `mode: 'audit'` it records what the policy would decide and changes nothing.
 *
 * @throws TypeError when `engine` is not a {@link PolicyEngine} or an option is malformed.
 * @example
 * ```ts
 * import { HookRunner } from 'toolhooks';
 * import { opaWasm, policyHook } from 'toolhooks/policy';
 *
 * const engine = await opaWasm({ policy: 'policy/bundle.tar.gz' });
 * const runner = new HookRunner({ hooks: [policyHook(engine, { context: () => ({ env: 'prod' }) })] });
 * ```
 */
export function policyHook<S = unknown>(engine: PolicyEngine, options?: PolicyHookOptions<S>): ToolHook<S> {
  const { engineName, digest } = readEngine(engine);
  const given = readOptions(options, 'policyHook(engine, options)', 'policyHook', OPTION_CHECKS) as PolicyHookOptions<S>;
  const phases = readPhases(given.phases);
  const name = given.name ?? 'policy';
  const base: Record<string, string> = { [ATTR_POLICY_ENGINE]: engineName };
  if (digest !== undefined) base[ATTR_POLICY_DIGEST] = digest;
  const policy = new PolicyCall<S>(engine, Object.freeze(base), `policy hook "${name}" (${engineName})`, given.context, given.deny ?? 'abort');

  const hook: { -readonly [K in keyof ToolHook<S>]: ToolHook<S>[K] } = { name, failureMode: given.failureMode ?? 'closed' };
  if (given.mode !== undefined) hook.mode = given.mode;
  if (given.tools !== undefined) hook.tools = given.tools;
  if (given.timeoutMs !== undefined) hook.timeoutMs = given.timeoutMs;
  if (phases.has('before_tool')) {
    hook.beforeTool = (tool, args, state, ctx) => policy.decide('before_tool', tool, args, state, ctx, NO_RESULT);
  }
  if (phases.has('after_tool')) {
    hook.afterTool = (tool, args, result, state, _durationMs, ctx) => policy.decide('after_tool', tool, args, state, ctx, { result });
  }
  return Object.freeze(hook);
}

/** How many distinct Continue decisions (by the policy ids they name) one policy hook keeps. */
const MAX_CACHED_CONTINUES = 256;

/** The before_tool phase has no result (after_tool's may be `undefined`, which is a result too). */
const NO_RESULT = undefined;

/** How an engine takes the input document (engine-input.ts): JSON text, the document itself, or a parsed copy. */
type InputWay = 'json' | 'document' | 'copy';

/** One policy hook's evaluations: the engine, the attributes of its decisions, and how to read answers. */
class PolicyCall<S> {
  readonly #rules: Record<PolicyPhase, ReadRules>;
  readonly #way: InputWay;
  /** The Continue decisions made so far, by the ids they name (`''` for none). */
  readonly #continues = new Map<string, HookDecision>();

  constructor(
    readonly engine: PolicyEngine,
    readonly attributes: DecisionAttributes,
    where: string,
    readonly context: ((tool: string, args: ToolArgs, state: S) => Record<string, unknown>) | undefined,
    readonly deny: 'abort' | 'skip',
  ) {
    this.#rules = { before_tool: { where, phase: 'before_tool' }, after_tool: { where, phase: 'after_tool' } };
    this.#way = takesJson(engine) ? 'json' : readsDocument(engine) ? 'document' : 'copy';
  }

  /** Evaluates one call and maps the answer; synchronous for a synchronous engine (OPA wasm, Cedar). */
  decide(phase: PolicyPhase, tool: string, args: ToolArgs, state: S, ctx: HookContext, after: { result: unknown } | undefined): MaybePromise<HookDecision> {
    const parts = { phase, tool, args, ctx, result: after?.result, hasResult: after !== undefined, context: this.#contextOf(tool, args, state) };
    const engine = this.engine;
    let answer: unknown;
    // This folder's engines take the JSON text as it is (OPA) or the document itself (Cedar), and only read the
    // context's signal; any other engine gets a parsed copy, and an options object that holds the signal alone.
    switch (this.#way) {
      case 'json':
        answer = (engine as PolicyEngine & JsonInputEngine)[EVALUATE_JSON](policyInputJson(parts), ctx);
        break;
      case 'document':
        answer = (engine as PolicyEngine & DocumentInputEngine)[EVALUATE_DOCUMENT](policyInput(parts));
        break;
      default:
        answer = engine.evaluate(parseInput(policyInputJson(parts)), new EvaluateOptions(ctx));
    }
    if (isThenable(answer)) return Promise.resolve(answer).then((value) => this.#settle(value, phase));
    return this.#settle(answer, phase);
  }

  #contextOf(tool: string, args: ToolArgs, state: S): Record<string, unknown> | undefined {
    if (this.context === undefined) return undefined;
    const value: unknown = this.context(tool, args, state);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new TypeError(`${this.#rules.before_tool.where}: the context option returned ${quoteValue(value)}; it must return an object`);
    }
    return value as Record<string, unknown>;
  }

  #settle(answer: unknown, phase: PolicyPhase): HookDecision {
    const read = readPolicyResult(answer, this.#rules[phase]);
    const decision = decisionOf(read, phase, this.deny);
    if (decision.kind === 'continue') return this.#continueNaming(read.policies);
    return withDecisionAttributes(decision, this.#attributesNaming(read.policies));
  }

  #attributesNaming(ids: readonly string[] | undefined): DecisionAttributes {
    return ids === undefined ? this.attributes : { ...this.attributes, [ATTR_POLICY_IDS]: boundedIds(ids) };
  }

  /**
   * The Continue that names these policies, made once and reused: an allowed call (the common one) then
   * costs no decision object, and the runner's registry of issued decisions does not grow with every call.
   */
  #continueNaming(ids: readonly string[] | undefined): HookDecision {
    const key = ids === undefined ? '' : ids.length === 1 ? (ids[0] as string) : ids.join('\u0000');
    let decision = this.#continues.get(key);
    if (decision === undefined) {
      decision = withDecisionAttributes(CONTINUE, this.#attributesNaming(ids));
      // Bounded: a policy that names a different set of ids on every call gets a fresh Continue each time.
      if (this.#continues.size < MAX_CACHED_CONTINUES) this.#continues.set(key, decision);
    }
    return decision;
  }
}

/** The engine's `options`: the hook's signal, made only if the engine reads it (most never do). */
class EvaluateOptions {
  readonly #ctx: HookContext;

  constructor(ctx: HookContext) {
    this.#ctx = ctx;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }
}

/** The engine's name and digest, read once; a TypeError naming what is missing when it is not an engine. */
function readEngine(engine: unknown): { engineName: string; digest: string | undefined } {
  if (engine === null || typeof engine !== 'object') {
    throw new TypeError(`policyHook(engine) needs a policy engine (from opaWasm(), opaHttp() or cedarPolicy()), got ${quoteValue(engine)}`);
  }
  const { name, digest, evaluate } = engine as Record<string, unknown>;
  if (typeof evaluate !== 'function') {
    throw new TypeError(`policyHook(engine) needs an engine with an evaluate(input, { signal }) method, got evaluate = ${quoteValue(evaluate)}` +
      (typeof (engine as { then?: unknown }).then === 'function' ? ' (a promise: await opaWasm() and cedarPolicy() first)' : ''));
  }
  if (typeof name !== 'string' || name === '') throw new TypeError(`policyHook(engine) needs an engine with a non-empty name, got name = ${quoteValue(name)}`);
  if (digest !== undefined && typeof digest !== 'string') throw new TypeError(`policyHook(engine): the engine's digest must be a string, got ${quoteValue(digest)}`);
  return { engineName: name, digest };
}

function readPhases(value: unknown): ReadonlySet<PolicyPhase> {
  if (value === undefined) return new Set(['before_tool']);
  const ok = Array.isArray(value) && value.length > 0 && value.every((phase) => phase === 'before_tool' || phase === 'after_tool');
  if (!ok) throw new TypeError(`policyHook: phases must be a non-empty array of 'before_tool' and 'after_tool', got ${quoteValue(value)}`);
  return new Set(value as PolicyPhase[]);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}
