/**
 * What observers (`onEvent`) receive about one phase: a record per invoked hook — carrying its mode
 * and, when it lost, the hook that shadowed it — the shadowed decisions, and the swallowed failures.
 * Built only when the runner has observers.
 * @internal
 */
import type { Continue, DecisionAttributes, HookDecision } from '../decisions.js';
import { decisionAttributesOf } from '../decisions.js';
import type { HookFailure, HookMode, PhaseHookRecord, RecordedError, ShadowedDecision } from '../hook.js';
import type { Capture } from '../telemetry/capture/options.js';
import { exhaustive } from '../internal/exhaustive.js';

/** A hook record while its phase runs: `shadowedBy` is set when a later Abort shadows it. */
export type OpenHookRecord = { -readonly [K in keyof PhaseHookRecord]: PhaseHookRecord[K] };

/** The record of one invoked hook; `decision` undefined when the hook failed. */
export function hookRecord(entry: { readonly name: string; readonly mode: HookMode }, decision: HookDecision | undefined, durationMs: number, capture: Capture): OpenHookRecord {
  const { name: hook, mode } = entry;
  if (decision === undefined) return { hook, decision: 'error', durationMs, mode };
  const attributes = decisionAttributesOf(decision);
  switch (decision.kind) {
    case 'continue':
      return attributes === undefined ? { hook, decision: 'continue', durationMs, mode } : { hook, decision: 'continue', durationMs, mode, attributes };
    case 'skip':
    case 'abort':
    case 'ask':
    case 'replace':
      return reasoned(hook, decision, durationMs, mode, attributes, capture);
    case 'redirect': {
      const record = reasoned(hook, decision, durationMs, mode, attributes, capture);
      if (decision.newTool !== undefined) record.newTool = decision.newTool;
      if (decision.newArgs !== undefined && capture.args) record.newArgs = capture.serialize(decision.newArgs);
      return record;
    }
    default:
      return exhaustive(decision, 'decision kind');
  }
}

/** The record of a decision that gives a reason. */
function reasoned(hook: string, decision: Exclude<HookDecision, Continue>, durationMs: number, mode: HookMode, attributes: DecisionAttributes | undefined, capture: Capture): OpenHookRecord {
  const record: OpenHookRecord = { hook, decision: decision.kind, reason: capture.limit(decision.reason), durationMs, mode };
  if (attributes !== undefined) record.attributes = attributes;
  return record;
}

/** The observers' entry for a decision that lost to another. */
export function shadowedRecord(hook: string, decision: HookDecision, capture: Capture): ShadowedDecision {
  return decision.kind === 'continue'
    ? { hook, decision: 'continue' }
    : { hook, decision: decision.kind, reason: capture.limit(decision.reason) };
}

/** The observers' entry for a swallowed failure. */
export function failureRecord(hook: string, mode: HookMode, kind: HookFailure['kind'], error: unknown, exception: RecordedError): HookFailure {
  return { hook, kind, error, mode, exception };
}
