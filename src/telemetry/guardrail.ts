/**
 * The GenAI guardrail draft's view of a phase (semantic-conventions-genai PR #427, still open): what each
 * hook said (`verdict`) apart from what the runner did (`action`). Written only with the runner's
 * `conventions: { guardrail: true }`; docs/telemetry.md ("Guardrail conventions") has the mapping table
 * and the state of the draft it follows, so a rename there is one edit in semconv.ts.
 * @internal
 */
import type { Attributes } from '@opentelemetry/api';
import type { DecisionAttributes, DecisionKind } from '../decisions.js';
import type { Phase } from '../hook.js';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GUARDRAIL_POLICY_ID,
  ATTR_GUARDRAIL_POLICY_RULE_ID,
  ATTR_POLICY_DIGEST,
  ATTR_POLICY_ENGINE,
  ATTR_POLICY_IDS,
  ATTR_GUARDRAIL_ACTION_TYPE,
  ATTR_GUARDRAIL_COMPONENT_NAME,
  ATTR_GUARDRAIL_TARGET_ID,
  ATTR_GUARDRAIL_TARGET_SUBTYPE,
  ATTR_GUARDRAIL_TARGET_TYPE,
  ATTR_GUARDRAIL_VERDICT_REASON,
  ATTR_GUARDRAIL_VERDICT_TYPE,
  GEN_AI_OPERATION_RUN_GUARDRAIL,
  GUARDRAIL_TARGET_TOOL_CALL,
} from './semconv.js';

/** What one check said, in the draft's words. */
type Verdict = 'allow' | 'deny' | 'modify' | 'escalate' | 'warn' | 'audit';
/** What the caller did, in the draft's words. */
type Action = 'allow' | 'block' | 'modify' | 'escalate' | 'audit';

const VERDICTS: Record<DecisionKind, Verdict> = {
  continue: 'allow',
  skip: 'deny',
  abort: 'deny',
  redirect: 'modify',
  replace: 'modify',
  ask: 'escalate',
};

const ACTIONS: Record<DecisionKind, Action> = {
  continue: 'allow',
  skip: 'block',
  abort: 'block',
  redirect: 'modify',
  replace: 'modify',
  ask: 'escalate',
};

/** What a phase guards: the call's input before the tool runs, its output (or error) after. */
const TARGETS: Record<Phase, 'input' | 'output'> = { before_tool: 'input', after_tool: 'output', on_error: 'output' };

/** A phase event as far as its verdict goes. */
type VerdictEvent =
  | { readonly type: 'decision'; readonly hook: { readonly mode: 'enforce' | 'audit' }; readonly decision: { readonly kind: DecisionKind } }
  | { readonly type: 'shadowed'; readonly decision: { readonly kind: DecisionKind } }
  | { readonly type: 'error'; readonly hook: { readonly mode: 'enforce' | 'audit'; readonly failureMode: 'open' | 'closed' } };

/**
 * The draft's attributes of one decision, shadowed-decision or hook-error event: the hook's verdict; an
 * audit hook's event also says the action was `audit` (it changed nothing). A failing hook's verdict is
 * `deny` when it fails closed (the call is aborted), else `warn`.
 */
export function guardrailEventAttributes(event: VerdictEvent): Attributes {
  switch (event.type) {
    case 'decision':
      return event.hook.mode === 'audit'
        ? { [ATTR_GUARDRAIL_VERDICT_TYPE]: VERDICTS[event.decision.kind], [ATTR_GUARDRAIL_ACTION_TYPE]: 'audit' }
        : { [ATTR_GUARDRAIL_VERDICT_TYPE]: VERDICTS[event.decision.kind] };
    case 'shadowed':
      return { [ATTR_GUARDRAIL_VERDICT_TYPE]: VERDICTS[event.decision.kind] };
    case 'error':
      return event.hook.mode === 'audit'
        ? { [ATTR_GUARDRAIL_VERDICT_TYPE]: 'warn', [ATTR_GUARDRAIL_ACTION_TYPE]: 'audit' }
        : { [ATTR_GUARDRAIL_VERDICT_TYPE]: event.hook.failureMode === 'closed' ? 'deny' : 'warn' };
  }
}

/**
 * The draft's policy attributes of a policy hook's decision (from the attributes `toolhooks/policy` attached
 * to it): the loaded policy's identity — its digest, else the engine's name — and the determining rules
 * (several joined with `,`). Empty for any other hook.
 */
export function guardrailPolicyAttributes(attached: DecisionAttributes | undefined): Attributes {
  const engine = attached?.[ATTR_POLICY_ENGINE];
  if (typeof engine !== 'string') return {};
  const digest = attached?.[ATTR_POLICY_DIGEST];
  const ids = attached?.[ATTR_POLICY_IDS];
  const attributes: Attributes = { [ATTR_GUARDRAIL_POLICY_ID]: typeof digest === 'string' ? digest : engine };
  if (Array.isArray(ids) && ids.length > 0) attributes[ATTR_GUARDRAIL_POLICY_RULE_ID] = ids.join(',');
  return attributes;
}

/** What the draft's phase attributes are made of. */
interface GuardrailPhase {
  readonly decision: DecisionKind;
  readonly winner: string | undefined;
  readonly callId?: string | undefined;
  readonly reason?: string | undefined;
  readonly audited?: boolean;
}

/**
 * The draft's attributes of a phase span: a guardrail run over the tool call's input (before_tool) or
 * output, its verdict (the winning decision's), the action the runner took — `audit` when only an audit
 * hook would have changed the call — the deciding hook as the component, and its reason.
 */
export function guardrailPhaseAttributes(phase: Phase, summary: GuardrailPhase): Attributes {
  const action: Action = summary.decision === 'continue' && summary.audited === true ? 'audit' : ACTIONS[summary.decision];
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_RUN_GUARDRAIL,
    [ATTR_GUARDRAIL_TARGET_TYPE]: TARGETS[phase],
    [ATTR_GUARDRAIL_TARGET_SUBTYPE]: GUARDRAIL_TARGET_TOOL_CALL,
    [ATTR_GUARDRAIL_VERDICT_TYPE]: VERDICTS[summary.decision],
    [ATTR_GUARDRAIL_ACTION_TYPE]: action,
  };
  if (summary.callId !== undefined) attributes[ATTR_GUARDRAIL_TARGET_ID] = summary.callId;
  if (summary.winner !== undefined && summary.decision !== 'continue') attributes[ATTR_GUARDRAIL_COMPONENT_NAME] = summary.winner;
  if (summary.reason !== undefined && summary.reason !== '') attributes[ATTR_GUARDRAIL_VERDICT_REASON] = summary.reason;
  return attributes;
}
