/**
 * Recording of one runner phase as a span with its decision, shadowed-decision and hook-error events.
 * Every method is guarded: a broken tracer or span never breaks the phase.
 * @internal
 */
import { errorClassName, errorMessage } from '../internal/describe.js';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { DecisionKind, HookDecision } from '../decisions.js';
import type { FailureMode, HookErrorKind, HookMode, Phase } from '../hook.js';
import { addSpanEvent, endSpan, setSpanAttributes, startSpan } from './span.js';
import {
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_DECISIONS_SHADOWED,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_STACKTRACE,
  ATTR_EXCEPTION_TYPE,
  ATTR_FAILURE_MODE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_INDEX,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  ATTR_HOOKS_INVOKED,
  ATTR_PHASE,
  ATTR_REDIRECT_ARG_KEYS,
  ATTR_REDIRECT_ARGS,
  ATTR_REDIRECT_NEW_TOOL,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_ON_ERROR,
} from './semconv.js';
import type { Capture } from './capture/options.js';

/** How many `newArgs` key names a decision event lists. */
const MAX_ARG_KEYS = 64;

const SPAN_NAMES: Record<Phase, string> = {
  before_tool: SPAN_BEFORE_TOOL,
  after_tool: SPAN_AFTER_TOOL,
  on_error: SPAN_ON_ERROR,
};

/** Starts a phase span (recording or not: the caller decides); undefined only when the tracer throws. */
export function startPhaseSpan(tracer: Tracer, phase: Phase, toolName: string): Span | undefined {
  return startSpan(tracer, SPAN_NAMES[phase], { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_PHASE]: phase });
}

/** The hook a phase event is about. */
interface RecordedHook {
  readonly name: string;
  readonly index: number;
  readonly mode: HookMode;
  readonly failureMode: FailureMode;
}

/** One event of a phase span: an invoked hook's decision, a shadowed decision, or a swallowed failure. */
type PhaseSpanEvent =
  | { readonly type: 'decision'; readonly hook: RecordedHook; readonly decision: HookDecision; readonly durationMs: number }
  | { readonly type: 'shadowed'; readonly hook: string; readonly decision: HookDecision; readonly winner: string }
  | { readonly type: 'error'; readonly hook: RecordedHook; readonly kind: HookErrorKind; readonly error: unknown };

const EVENT_NAMES = {
  decision: EVENT_HOOK_DECISION,
  shadowed: EVENT_HOOK_DECISION_SHADOWED,
  error: EVENT_HOOK_ERROR,
} as const;

/**
 * Adds one event to a phase span (an audit hook's decision and error events carry its mode); a failure
 * to build or add it is reported, never propagated.
 */
export function recordEvent(span: Span, capture: Capture, event: PhaseSpanEvent): void {
  addSpanEvent(span, EVENT_NAMES[event.type], eventAttributes, capture, event);
}

function eventAttributes(capture: Capture, event: PhaseSpanEvent): Attributes {
  let attributes: Attributes;
  let reason: string | undefined;
  switch (event.type) {
    case 'decision':
      return decisionAttributes(capture, event.hook, event.decision, event.durationMs);
    case 'shadowed':
      attributes = { [ATTR_HOOK_NAME]: event.hook, [ATTR_DECISION]: event.decision.kind, [ATTR_DECISION_WINNER]: event.winner };
      reason = event.decision.kind === 'continue' ? undefined : event.decision.reason;
      if (reason !== undefined) attributes[ATTR_DECISION_REASON] = capture.limit(reason);
      return attributes;
    case 'error':
      attributes = { [ATTR_HOOK_NAME]: event.hook.name, [ATTR_HOOK_ERROR_KIND]: event.kind, [ATTR_FAILURE_MODE]: event.hook.failureMode };
      Object.assign(attributes, exceptionAttributes(event.error, capture));
      if (event.hook.mode === 'audit') attributes[ATTR_HOOK_MODE] = 'audit';
      return attributes;
  }
}

function decisionAttributes(capture: Capture, hook: RecordedHook, decision: HookDecision, durationMs: number): Attributes {
  const attributes: Attributes = {
    [ATTR_HOOK_NAME]: hook.name,
    [ATTR_HOOK_INDEX]: hook.index,
    [ATTR_DECISION]: decision.kind,
    [ATTR_HOOK_DURATION_MS]: durationMs,
  };
  if (hook.mode === 'audit') attributes[ATTR_HOOK_MODE] = 'audit';
  if (decision.kind !== 'continue' && decision.reason !== '') {
    attributes[ATTR_DECISION_REASON] = capture.limit(decision.reason);
  }
  if (decision.kind === 'redirect') {
    if (decision.newTool !== undefined) attributes[ATTR_REDIRECT_NEW_TOOL] = decision.newTool;
    if (decision.newArgs !== undefined) {
      // Key names come from the hook (and may come from an attacker's tool input): bounded too.
      attributes[ATTR_REDIRECT_ARG_KEYS] = Object.keys(decision.newArgs)
        .slice(0, MAX_ARG_KEYS)
        .map((key) => capture.limit(key));
      if (capture.args) attributes[ATTR_REDIRECT_ARGS] = capture.serialize(decision.newArgs);
    }
  }
  return attributes;
}

/** `exception.*` attributes for anything thrown: an Error's class, message and stack, else typeof and String(). */
function exceptionAttributes(error: unknown, capture: Capture): Attributes {
  try {
    if (error instanceof Error) {
      const attributes: Attributes = {
        [ATTR_EXCEPTION_TYPE]: errorClassName(error) ?? 'Error',
        [ATTR_EXCEPTION_MESSAGE]: capture.limit(errorMessage(error)),
      };
      const stack = readStack(error);
      if (stack !== undefined) attributes[ATTR_EXCEPTION_STACKTRACE] = capture.limit(stack);
      return attributes;
    }
  } catch {
    // a thrown Proxy or an Error with hostile getters: the failure is still recorded, with what is safe to read
  }
  return {
    [ATTR_EXCEPTION_TYPE]: error === null ? 'null' : typeof error,
    [ATTR_EXCEPTION_MESSAGE]: capture.limit(errorMessage(error)),
  };
}

function readStack(error: Error): string | undefined {
  try {
    return typeof error.stack === 'string' ? error.stack : undefined;
  } catch {
    return undefined;
  }
}

/** What a phase span says about the phase once it ends. */
interface PhaseSummary {
  readonly decision: DecisionKind;
  /** The winning hook, when the decision is not continue. */
  readonly winner: string | undefined;
  readonly invoked: number;
  readonly shadowed: number;
  readonly errors: number;
}

/** Sets the phase's summary attributes and ends its span. */
export function endPhaseSpan(span: Span, summary: PhaseSummary): void {
  const attributes: Attributes = {
    [ATTR_DECISION]: summary.decision,
    [ATTR_HOOKS_INVOKED]: summary.invoked,
    [ATTR_DECISIONS_SHADOWED]: summary.shadowed,
    [ATTR_HOOK_ERRORS]: summary.errors,
  };
  if (summary.winner !== undefined && summary.decision !== 'continue') attributes[ATTR_DECISION_HOOK] = summary.winner;
  setSpanAttributes(span, 'phase span attributes', attributes);
  endSpan(span);
}
