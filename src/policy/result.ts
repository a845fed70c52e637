/**
 * From what a policy answered to a hook decision. The answer is read leniently where Rego users write it
 * differently (`true`/`false`, `{ allow }`, `{ decision, … }`) and strictly everywhere else: anything
 * unreadable is an InvalidHookDecisionError naming the field and the value received, which the runner
 * records as a hook error of kind `invalid_decision` (so a fail-closed policy aborts). Never a silent
 * Continue. See docs/policies.md, "Results".
 * @internal
 */
import type { HookDecision } from '../decisions.js';
import { CONTINUE, abort, ask, isPlainObject, redirect, replaceResult, skip } from '../decisions.js';
import { InvalidHookDecisionError } from '../errors.js';
import { errorMessage, quoteValue } from '../internal/describe.js';
import type { PolicyResult } from './types.js';

type PolicyDecisionName = PolicyResult['decision'];

const DECISIONS: ReadonlySet<string> = new Set<PolicyDecisionName>([
  'allow',
  'deny',
  'requires-approval',
  'not-applicable',
  'skip',
  'redirect',
  'replace',
]);

/** How many policy ids a decision records. */
const MAX_IDS = 64;

/** A policy's answer, read once and checked: the fields the decision needs. */
interface ReadResult {
  readonly decision: PolicyDecisionName;
  readonly reason: string | undefined;
  /** The policy ids as the policy gave them (checked: strings, at least one); {@link boundedIds} before they are recorded. */
  readonly policies: readonly string[] | undefined;
  readonly stub: unknown;
  readonly tool: string | undefined;
  readonly args: Record<string, unknown> | undefined;
  readonly result: unknown;
}

/** What the policy hook knows when it reads an answer. */
export interface ReadRules {
  /** `policy hook "policy" (opa-wasm)`: how messages name the hook and engine. */
  readonly where: string;
  readonly phase: 'before_tool' | 'after_tool';
}

/** Reads a policy's answer; throws InvalidHookDecisionError naming the field and value when it cannot. */
export function readPolicyResult(value: unknown, rules: ReadRules): ReadResult {
  if (value === true) return plain('allow', undefined, undefined);
  if (value === false) return plain('deny', undefined, undefined);
  if (value === undefined) {
    throw malformed(rules, "no result (OPA's undefined: the rule did not match and has no default); give the rule a default, such as `default decision := {\"decision\": \"deny\"}`");
  }
  if (Array.isArray(value)) {
    const what = value.length === 0 ? "[] (OPA's undefined: the rule did not match and has no default)" : `an array (${value.length} items)`;
    throw malformed(rules, `${what}; the result must be true, false, { "allow": boolean } or { "decision": … }`);
  }
  if (value === null || typeof value !== 'object') {
    throw malformed(rules, `${shown(value)}; the result must be true, false, { "allow": boolean } or { "decision": … }`);
  }
  let fields: Fields;
  try {
    fields = new Fields(value);
  } catch (error) {
    throw malformed(rules, `an unreadable object (${errorMessage(error)})`);
  }
  return readObject(fields, rules);
}

function readObject(fields: Fields, rules: ReadRules): ReadResult {
  const reason = optionalText(fields.reason, 'reason', rules);
  const policies = readPolicies(fields.policies, rules);
  if ((fields.present & DECISION) === 0) {
    if (typeof fields.allow === 'boolean') return plain(fields.allow ? 'allow' : 'deny', reason, policies);
    throw malformed(rules, `${fieldList(fields)}; the result must be true, false, { "allow": boolean } or { "decision": … }`);
  }
  const decision = fields.decision;
  if (typeof decision !== 'string' || !DECISIONS.has(decision)) {
    throw problem(rules, `"decision" is ${shown(decision)}; expected one of ${[...DECISIONS].map((d) => `"${d}"`).join(', ')}`);
  }
  const name = decision as PolicyDecisionName;
  switch (name) {
    case 'allow':
    case 'not-applicable':
    case 'deny':
      return plain(name, reason, policies);
    case 'redirect':
      return readRedirect(name, reason, policies, fields, rules);
    case 'replace':
      if (rules.phase !== 'after_tool') {
        throw problem(rules, '"decision" is "replace" in before_tool; a policy replaces a result in after_tool only (phases: [\'after_tool\'])');
      }
      if ((fields.present & RESULT) === 0 || fields.result === undefined) throw problem(rules, '"decision" is "replace" without "result"; give the result to return (null for none)');
      return { decision: name, reason, policies, stub: undefined, tool: undefined, args: undefined, result: fields.result };
    case 'requires-approval':
      if (rules.phase !== 'before_tool') {
        throw problem(rules, '"decision" is "requires-approval" in after_tool; approval is asked in before_tool, before the tool runs');
      }
      return plain(name, reason, policies);
    case 'skip':
      return { decision: name, reason, policies, stub: fields.stub, tool: undefined, args: undefined, result: undefined };
  }
}

function readRedirect(name: 'redirect', reason: string | undefined, policies: readonly string[] | undefined, fields: Fields, rules: ReadRules): ReadResult {
  const tool = fields.tool;
  if (typeof tool !== 'string' || tool.length === 0) {
    throw problem(rules, `"decision" is "redirect" with "tool" ${shown(tool)}; a redirect needs "tool", the name of the tool to run instead`);
  }
  const args = fields.args;
  if (args !== undefined && !isPlainObject(args)) throw problem(rules, `"decision" is "redirect" with "args" ${shown(args)}; "args" must be an object`);
  return { decision: name, reason, policies, stub: undefined, tool, args: args as Record<string, unknown> | undefined, result: undefined };
}

/** At most {@link MAX_IDS} of the policy ids, copied and frozen: what a decision records. */
export function boundedIds(ids: readonly string[]): readonly string[] {
  return Object.freeze(ids.slice(0, MAX_IDS));
}

/**
 * The hook decision a checked answer stands for: allow / not-applicable → Continue; deny → Abort (or Skip
 * with `Tool call denied: <reason>`, in before_tool with `deny: 'skip'`); requires-approval → Ask;
 * skip → Skip(stub); redirect → Redirect(tool, args); replace → Replace(result).
 */
export function decisionOf(read: ReadResult, phase: 'before_tool' | 'after_tool', deny: 'abort' | 'skip'): HookDecision {
  switch (read.decision) {
    case 'allow':
    case 'not-applicable':
      return CONTINUE;
    case 'deny': {
      const reason = nonEmpty(read.reason) ?? byPolicy('denied by policy', read.policies);
      return deny === 'skip' && phase === 'before_tool' ? skip(reason, `Tool call denied: ${reason}`) : abort(reason);
    }
    case 'requires-approval':
      return ask(nonEmpty(read.reason) ?? byPolicy('approval required by policy', read.policies));
    case 'skip':
      return skip(read.reason ?? byPolicy('skipped by policy', read.policies), read.stub === undefined ? '' : read.stub);
    case 'redirect':
      return redirect({ newTool: read.tool, newArgs: read.args, reason: read.reason ?? '' });
    case 'replace':
      return replaceResult(read.result, read.reason ?? '');
  }
}

/** `denied by policy` or `denied by policy a, b`. */
function byPolicy(text: string, ids: readonly string[] | undefined): string {
  return ids === undefined || ids.length === 0 ? text : `${text} ${boundedIds(ids).join(', ')}`;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

function plain(decision: PolicyDecisionName, reason: string | undefined, policies: readonly string[] | undefined): ReadResult {
  return { decision, reason, policies, stub: undefined, tool: undefined, args: undefined, result: undefined };
}

/** Bits of {@link Fields.present}: which fields the answer has (`in`, as an absent field and an undefined one differ). */
const DECISION = 1;
const ALLOW = 2;
const REASON = 4;
const POLICIES = 8;
const STUB = 16;
const TOOL = 32;
const ARGS = 64;
const RESULT = 128;

const FIELDS = [
  ['decision', DECISION],
  ['allow', ALLOW],
  ['reason', REASON],
  ['policies', POLICIES],
  ['stub', STUB],
  ['tool', TOOL],
  ['args', ARGS],
  ['result', RESULT],
] as const;

/** The answer's fields, each read once (a getter or Proxy cannot answer differently on a second read). */
class Fields {
  /** Which fields the answer has, as bits. */
  readonly present: number;
  readonly decision: unknown;
  readonly allow: unknown;
  readonly reason: unknown;
  readonly policies: unknown;
  readonly stub: unknown;
  readonly tool: unknown;
  readonly args: unknown;
  readonly result: unknown;

  constructor(answer: object) {
    const value = answer as Record<string, unknown>;
    // Every field is written, in FIELDS' order, so every answer gets the same shape.
    const fields = this as unknown as Record<(typeof FIELDS)[number][0], unknown>;
    let present = 0;
    for (const [name, bit] of FIELDS) {
      const has = name in value;
      if (has) present |= bit;
      fields[name] = has ? value[name] : undefined;
    }
    this.present = present;
  }
}

function optionalText(value: unknown, field: 'reason', rules: ReadRules): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw problem(rules, `"${field}" is ${shown(value)}; it must be a string`);
  return value;
}

function readPolicies(value: unknown, rules: ReadRules): readonly string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !allStrings(value)) {
    throw problem(rules, `"policies" is ${shown(value)}; it must be an array of policy ids (strings)`);
  }
  return value.length === 0 ? undefined : (value as string[]);
}

function allStrings(values: readonly unknown[]): boolean {
  for (let index = 0; index < values.length; index += 1) if (typeof values[index] !== 'string') return false;
  return true;
}

function fieldList(fields: Fields): string {
  const keys = FIELDS.filter(([, bit]) => (fields.present & bit) !== 0).map(([name]) => name);
  return keys.length === 0 ? 'an object without "decision" or "allow"' : `an object with ${keys.map((k) => `"${k}"`).join(', ')} but no "decision" or boolean "allow"`;
}

function malformed(rules: ReadRules, what: string): InvalidHookDecisionError {
  return new InvalidHookDecisionError(`${rules.where}: the policy answered ${what}`);
}

function problem(rules: ReadRules, what: string): InvalidHookDecisionError {
  return new InvalidHookDecisionError(`${rules.where}: the policy's result field ${what}`);
}

/** A value as a message quotes it: a string as JSON (`"maybe"`), anything else as `quoteValue` does. */
function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : quoteValue(value);
}
