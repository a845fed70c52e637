/**
 * cedarPolicy: a Cedar policy set, evaluated in process with `@cedar-policy/cedar-wasm` (an optional peer,
 * loaded here only). The set is parsed once, at construction (`preparsePolicySet`); each call is one
 * `statefulIsAuthorized`. Policies are named by their `@id` annotation, so the determining ones are
 * recorded by the names their authors gave them.
 * @internal
 */
import { anything, func, readOptions, string } from '../internal/validate.js';
import type { CedarValue, EntityUid } from './cedar-values.js';
import { cedarRecord, parseEntityUid } from './cedar-values.js';
import { sha256Hex } from './digest.js';
import type { DocumentInputEngine } from './engine-input.js';
import { EVALUATE_DOCUMENT } from './engine-input.js';
import { loadPeer } from './peer.js';
import type { CedarPolicyOptions, PolicyEngine, PolicyInput, PolicyResult } from './types.js';

/** What toolhooks uses of `@cedar-policy/cedar-wasm` (its own types stay out of our declarations). */
interface CedarModule {
  policySetTextToParts(text: string): { type: 'success'; policies: string[]; policy_templates: string[] } | Failure;
  policyToJson(policy: string): { type: 'success'; json: { annotations?: Record<string, string> } } | Failure;
  preparsePolicySet(id: string, policies: { staticPolicies: Record<string, string>; templates: Record<string, string> }): { type: 'success' } | Failure;
  preparseSchema(name: string, schema: unknown): { type: 'success' } | Failure;
  checkParseEntities(call: { entities: unknown; schema?: unknown }): { type: 'success' } | Failure;
  statefulIsAuthorized(call: {
    principal: EntityUid;
    action: EntityUid;
    resource: EntityUid;
    context: Record<string, CedarValue>;
    preparsedPolicySetId: string;
    preparsedSchemaName?: string;
    validateRequest?: boolean;
    entities: unknown;
  }): { type: 'success'; response: { decision: 'allow' | 'deny'; diagnostics: { reason: string[] } } } | Failure;
}
interface Failure {
  readonly type: 'failure';
  readonly errors: readonly { readonly message: string; readonly help?: string | null }[];
}

/** What the annotations of one policy tell the engine. */
interface PolicyNotes {
  readonly asks: boolean;
  readonly reason: string | undefined;
}

/** Names of preparsed policy sets: Cedar keeps them per thread, so each engine has its own. */
let sets = 0;

/**
 * Loads a Cedar policy set. Each call is the request principal `principal(input)` (Cedar's entity syntax,
 * `User::"alice"`), action `Action::"<tool>"`, resource `Tool::"<tool>"`, context
 * `{ phase, args, callId?, ...input.context }`. Cedar's deny (a forbid, or no permit) denies; an allow
 * whose determining permit is annotated `@decision("requires-approval")` asks. A policy's `@reason("…")`
 * is the decision's reason. Values Cedar cannot hold are passed as strings or left out (docs/policies.md).
 * Needs the optional peer `@cedar-policy/cedar-wasm`.
 *
 * @throws Error when the peer is missing, or with Cedar's own message when the policies, schema or
 *   entities do not parse (or two policies share an `@id`).
 * @example
 * ```ts
 * const engine = await cedarPolicy({
 *   policies: `@id("no-rm") forbid (principal, action == Action::"shell", resource) when { context.args.cmd like "rm -rf*" };
 *              @id("default") permit (principal, action, resource);`,
 *   principal: (input) => `Agent::"${input.agent ?? 'anonymous'}"`,
 * });
 * ```
 */
export async function cedarPolicy(options: CedarPolicyOptions): Promise<PolicyEngine> {
  if (options === undefined) throw new TypeError('cedarPolicy(options) needs { policies, principal }');
  const given = readOptions(options, 'cedarPolicy(options)', 'cedarPolicy', { policies: string, entities: anything, schema: anything, principal: func }) as CedarPolicyOptions;
  if (given.policies === undefined) throw new TypeError('cedarPolicy: policies is required: the policy set in Cedar syntax');
  if (given.principal === undefined) throw new TypeError('cedarPolicy: principal is required: (input) => \'User::"alice"\', the request principal');
  const cedar = await loadPeer<CedarModule>('@cedar-policy/cedar-wasm', 'cedarPolicy()', () => import('@cedar-policy/cedar-wasm/nodejs'));
  const setId = `toolhooks-policy-${(sets += 1)}`;
  const { staticPolicies, templates, notes } = namePolicies(cedar, given.policies);
  check(cedar.preparsePolicySet(setId, { staticPolicies, templates }), 'the policies do not parse');
  const entities = given.entities ?? [];
  if (given.schema !== undefined) check(cedar.preparseSchema(setId, given.schema), 'the schema does not parse');
  check(cedar.checkParseEntities(given.schema === undefined ? { entities } : { entities, schema: given.schema }), 'the entities do not parse');
  return new CedarEngine(cedar, setId, given.schema !== undefined, entities, given.principal, notes, sha256Hex(given.policies));
}

class CedarEngine implements PolicyEngine, DocumentInputEngine {
  readonly name = 'cedar';

  constructor(
    readonly cedar: CedarModule,
    readonly setId: string,
    readonly hasSchema: boolean,
    readonly entities: unknown,
    readonly principal: (input: PolicyInput) => string,
    readonly notes: ReadonlyMap<string, PolicyNotes>,
    readonly digest: string,
  ) {}

  evaluate(input: PolicyInput): PolicyResult {
    const principal = parseEntityUid(this.principal(input), 'cedarPolicy: principal(input)');
    const context: Record<string, unknown> = { phase: input.phase, args: input.args };
    if (input.callId !== undefined) context.callId = input.callId;
    Object.assign(context, input.context);
    const call: Parameters<CedarModule['statefulIsAuthorized']>[0] = {
      principal,
      action: { type: 'Action', id: input.tool },
      resource: { type: 'Tool', id: input.tool },
      context: cedarRecord(context) as Record<string, CedarValue>,
      preparsedPolicySetId: this.setId,
      entities: this.entities,
    };
    if (this.hasSchema) {
      call.preparsedSchemaName = this.setId;
      call.validateRequest = true;
    }
    const answer = this.cedar.statefulIsAuthorized(call);
    if (answer.type !== 'success') throw new Error(`cedarPolicy: Cedar could not decide: ${messages(answer)}`);
    const { decision, diagnostics } = answer.response;
    const policies = diagnostics.reason;
    // Plain loops: array builtins with callbacks here (map, find, some) crash V8 22's deoptimizer when a
    // forced GC lands in them (seen under `node --expose-gc`, the benchmark's mode).
    let reason: string | undefined;
    let asks = false;
    for (const id of policies) {
      const notes = this.notes.get(id);
      if (notes === undefined) continue;
      reason ??= notes.reason;
      asks ||= notes.asks;
    }
    const result: { decision: PolicyResult['decision']; reason?: string; policies?: readonly string[] } = {
      decision: decision === 'deny' ? 'deny' : asks ? 'requires-approval' : 'allow',
    };
    if (reason !== undefined) result.reason = reason;
    if (policies.length > 0) result.policies = policies;
    return result;
  }

  /** The policy hook's way in: the bounded document itself (evaluate copies what it sends to Cedar, and keeps nothing). */
  [EVALUATE_DOCUMENT](input: PolicyInput): PolicyResult {
    return this.evaluate(input);
  }
}

/**
 * The policy set keyed by each policy's `@id` (else `policy<n>` / `template<n>`, as Cedar numbers them),
 * and what each policy's annotations say.
 */
function namePolicies(cedar: CedarModule, text: string): { staticPolicies: Record<string, string>; templates: Record<string, string>; notes: Map<string, PolicyNotes> } {
  const parts = cedar.policySetTextToParts(text);
  if (parts.type !== 'success') throw new Error(`cedarPolicy: the policies do not parse: ${messages(parts)}`);
  const notes = new Map<string, PolicyNotes>();
  const name = (policy: string, fallback: string, into: Record<string, string>): void => {
    const json = cedar.policyToJson(policy);
    if (json.type !== 'success') throw new Error(`cedarPolicy: the policies do not parse: ${messages(json)}`);
    const annotations = json.json.annotations ?? {};
    const id = annotations.id ?? fallback;
    if (notes.has(id)) throw new Error(`cedarPolicy: two policies have the id ${JSON.stringify(id)}; each @id must be unique`);
    const decision = annotations.decision;
    if (decision !== undefined && decision !== 'requires-approval') {
      throw new Error(`cedarPolicy: policy ${JSON.stringify(id)} has @decision(${JSON.stringify(decision)}); the only decision annotation is @decision("requires-approval")`);
    }
    notes.set(id, { asks: decision === 'requires-approval', reason: annotations.reason });
    into[id] = policy;
  };
  const staticPolicies: Record<string, string> = {};
  const templates: Record<string, string> = {};
  parts.policies.forEach((policy, index) => name(policy, `policy${index}`, staticPolicies));
  parts.policy_templates.forEach((template, index) => name(template, `template${index}`, templates));
  return { staticPolicies, templates, notes };
}

function check(answer: { type: 'success' } | Failure, what: string): void {
  if (answer.type !== 'success') throw new Error(`cedarPolicy: ${what}: ${messages(answer)}`);
}

function messages(failure: Failure): string {
  return failure.errors.map((error) => (error.help ? `${error.message} (${error.help})` : error.message)).join('; ');
}
