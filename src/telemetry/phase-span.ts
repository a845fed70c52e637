/**
 * Recording of one runner phase as a span with its decision, shadowed-decision and hook-error events.
 * Every method is guarded: a broken tracer or span never breaks the phase.
 * @internal
 */
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { DecisionKind, HookDecision } from '../decisions.js';
import { decisionAttributesOf } from '../decisions.js';
import { exhaustive } from '../internal/exhaustive.js';
import type { FailureMode, HookErrorKind, HookMode, Phase, RecordedError } from '../hook.js';
import { attributeLengthLimit, eventCountLimit } from './span-limits.js';
import { addSpanEvent, endSpan, setSpanAttributes, startSpan } from './span.js';
import {
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_DECISIONS_SHADOWED,
  ATTR_EVENTS_DROPPED,
  ATTR_EVENTS_DROPPED_DECISION,
  ATTR_EVENTS_DROPPED_ERROR,
  ATTR_EVENTS_DROPPED_SHADOWED,
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
import type { Recording } from './decision-records.js';
import { DEFAULT_RECORDING } from './decision-records.js';
import { guardrailEventAttributes, guardrailPhaseAttributes, guardrailPolicyAttributes } from './guardrail.js';

/** How many `newArgs` key names a decision event lists. */
const MAX_ARG_KEYS = 64;

const SPAN_NAMES: Record<Phase, string> = {
  before_tool: SPAN_BEFORE_TOOL,
  after_tool: SPAN_AFTER_TOOL,
  on_error: SPAN_ON_ERROR,
};

/** Starts a phase span (recording or not: the caller decides); undefined only when the tracer throws. */
export function startPhaseSpan(tracer: Tracer, phase: Phase, toolName: string, recording: Recording = DEFAULT_RECORDING): Span | undefined {
  const attributes: Attributes = { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_PHASE]: phase };
  if (recording.phaseHints !== undefined) Object.assign(attributes, recording.phaseHints);
  return startSpan(tracer, SPAN_NAMES[phase], attributes);
}

/** The hook a phase event is about. */
interface RecordedHook {
  readonly name: string;
  readonly index: number;
  readonly mode: HookMode;
  readonly failureMode: FailureMode;
}

/** One event of a phase span: an invoked hook's decision, a shadowed decision, or a swallowed failure. */
export type PhaseSpanEvent =
  | { readonly type: 'decision'; readonly hook: RecordedHook; readonly decision: HookDecision; readonly durationMs: number }
  | { readonly type: 'shadowed'; readonly hook: string; readonly decision: HookDecision; readonly winner: string }
  | { readonly type: 'error'; readonly hook: RecordedHook; readonly kind: HookErrorKind; readonly exception: RecordedError };

const EVENT_NAMES = {
  decision: EVENT_HOOK_DECISION,
  shadowed: EVENT_HOOK_DECISION_SHADOWED,
  error: EVENT_HOOK_ERROR,
} as const;

/**
 * Adds one event to a phase span (an audit hook's decision and error events carry its mode); a failure
 * to build or add it is reported, never propagated.
 */
export function recordEvent(span: Span, capture: Capture, event: PhaseSpanEvent, recording: Recording = DEFAULT_RECORDING): void {
  addSpanEvent(span, EVENT_NAMES[event.type], eventAttributes, eventContext(span, capture, recording), event);
}

/**
 * Writes one event as a log-based event in the phase span's context, with the attributes its span event
 * would have; false when log events are unavailable (the caller then writes the span event). Never throws.
 */
export function logEvent(span: Span, capture: Capture, event: PhaseSpanEvent, recording: Recording): boolean {
  let attributes: Attributes;
  try {
    // No span attribute limit applies to a log record: the capture's own bound is the limit.
    attributes = eventAttributes({ capture, lengthLimit: undefined, guardrail: recording.guardrail }, event);
  } catch {
    return false;
  }
  return recording.emit(span, EVENT_NAMES[event.type], attributes);
}

/** Writes one event as the runner's `decisionRecords` say: a log event, a span event, or both. Never throws. */
export function writeEvent(span: Span, capture: Capture, event: PhaseSpanEvent, recording: Recording): void {
  if (recording.logEvents && logEvent(span, capture, event, recording) && !recording.spanEvents) return;
  recordEvent(span, capture, event, recording);
}

/** What building an event's attributes needs: the capture, the span's attribute length limit when capture is on, the conventions. */
interface EventContext {
  readonly capture: Capture;
  readonly lengthLimit: number | undefined;
  readonly guardrail: boolean;
}

function eventContext(span: Span, capture: Capture, recording: Recording): EventContext {
  return { capture, lengthLimit: capture.args ? attributeLengthLimit(span) : undefined, guardrail: recording.guardrail };
}

function eventAttributes(context: EventContext, event: PhaseSpanEvent): Attributes {
  const attributes = recordAttributes(context, event);
  if (context.guardrail) {
    Object.assign(attributes, guardrailEventAttributes(event));
    if (event.type === 'decision') Object.assign(attributes, guardrailPolicyAttributes(decisionAttributesOf(event.decision)));
  }
  return attributes;
}

function recordAttributes({ capture, lengthLimit }: EventContext, event: PhaseSpanEvent): Attributes {
  let attributes: Attributes;
  let reason: string | undefined;
  switch (event.type) {
    case 'decision':
      return decisionAttributes(capture, event.hook, event.decision, event.durationMs, lengthLimit);
    case 'shadowed':
      attributes = { [ATTR_HOOK_NAME]: event.hook, [ATTR_DECISION]: event.decision.kind, [ATTR_DECISION_WINNER]: event.winner };
      reason = event.decision.kind === 'continue' ? undefined : event.decision.reason;
      if (reason !== undefined) attributes[ATTR_DECISION_REASON] = capture.limit(reason);
      return attributes;
    case 'error':
      attributes = { [ATTR_HOOK_NAME]: event.hook.name, [ATTR_HOOK_ERROR_KIND]: event.kind, [ATTR_FAILURE_MODE]: event.hook.failureMode };
      Object.assign(attributes, exceptionAttributes(event.exception));
      if (event.hook.mode === 'audit') attributes[ATTR_HOOK_MODE] = 'audit';
      return attributes;
  }
}

function decisionAttributes(capture: Capture, hook: RecordedHook, decision: HookDecision, durationMs: number, lengthLimit: number | undefined): Attributes {
  // The hook's own attributes (withDecisionAttributes) go first, so that the runner's win on a clash.
  const attributes: Attributes = {
    ...decisionAttributesOf(decision),
    [ATTR_HOOK_NAME]: hook.name,
    [ATTR_HOOK_INDEX]: hook.index,
    [ATTR_DECISION]: decision.kind,
    [ATTR_HOOK_DURATION_MS]: durationMs,
  };
  if (hook.mode === 'audit') attributes[ATTR_HOOK_MODE] = 'audit';
  switch (decision.kind) {
    case 'continue':
      return attributes;
    case 'skip':
    case 'abort':
    case 'ask':
    case 'replace':
      if (decision.reason !== '') attributes[ATTR_DECISION_REASON] = capture.limit(decision.reason);
      return attributes;
    case 'redirect':
      if (decision.reason !== '') attributes[ATTR_DECISION_REASON] = capture.limit(decision.reason);
      if (decision.newTool !== undefined) attributes[ATTR_REDIRECT_NEW_TOOL] = decision.newTool;
      if (decision.newArgs !== undefined) {
        // Key names come from the hook (and may come from an attacker's tool input): bounded too.
        attributes[ATTR_REDIRECT_ARG_KEYS] = Object.keys(decision.newArgs)
          .slice(0, MAX_ARG_KEYS)
          .map((key) => capture.limit(key));
        // Within the span's attribute length limit, if any, so that the JSON is not cut mid-value.
        if (capture.args) attributes[ATTR_REDIRECT_ARGS] = capture.serializeWithin(decision.newArgs, lengthLimit);
      }
      return attributes;
    default:
      // Built inside the span guard (addSpanEvent): even a kind the types do not know is reported, never thrown.
      return exhaustive(decision, 'decision kind');
  }
}

/** `exception.*` attributes of a recorded error (described once, for every signal, by the call's scrubber). */
function exceptionAttributes(exception: RecordedError): Attributes {
  const attributes: Attributes = { [ATTR_EXCEPTION_TYPE]: exception.type, [ATTR_EXCEPTION_MESSAGE]: exception.message };
  if (exception.stacktrace !== undefined) attributes[ATTR_EXCEPTION_STACKTRACE] = exception.stacktrace;
  return attributes;
}

/** How many of a phase span's events were left out to fit the SDK's event limit, in all and by kind. */
export interface DroppedEvents {
  readonly total: number;
  readonly decision: number;
  readonly shadowed: number;
  readonly error: number;
}

/**
 * A phase span's events while the phase runs, when they might not all fit the span's event limit (the
 * SDK's `eventCountLimit`, 128 by default, past which it drops the oldest — with about 40 deciding hooks the
 * winning decision and the hook errors would go first). They are held, with the time each happened, and
 * written when the phase ends: the winner's decision first, then every hook error, then the rest in order,
 * as many as fit; what was left out is counted by kind on the span.
 */
export class PhaseEventBuffer {
  readonly #pending: { readonly event: PhaseSpanEvent; readonly time: number }[] = [];
  #winner = -1;

  /** @param room how many events the phase may write */
  constructor(readonly room: number) {}

  /** Holds an event; returns its place, to mark it as the winner's. */
  add(event: PhaseSpanEvent): number {
    return this.#pending.push({ event, time: performance.now() }) - 1;
  }

  /** Marks the held event at `place` as the winning decision's (the last one marked counts). */
  markWinner(place: number): void {
    this.#winner = place;
  }

  /** Writes the events that fit, in the order they happened, each at its own time; returns what was left out. */
  flush(span: Span, capture: Capture, recording: Recording = DEFAULT_RECORDING): DroppedEvents | undefined {
    const pending = this.#pending;
    const keep = new Uint8Array(pending.length);
    let kept = 0;
    const take = (place: number): void => {
      if (kept < this.room && keep[place] === 0) {
        keep[place] = 1;
        kept += 1;
      }
    };
    if (this.#winner >= 0) take(this.#winner);
    for (let place = 0; place < pending.length; place += 1) if (pending[place]?.event.type === 'error') take(place);
    for (let place = 0; place < pending.length; place += 1) take(place);
    const dropped = { total: 0, decision: 0, shadowed: 0, error: 0 };
    const context = eventContext(span, capture, recording);
    pending.forEach(({ event, time }, place) => {
      if (keep[place] === 1) {
        addSpanEvent(span, EVENT_NAMES[event.type], eventAttributes, context, event, time);
      } else {
        dropped.total += 1;
        dropped[event.type] += 1;
      }
    });
    return dropped.total === 0 ? undefined : dropped;
  }
}

/**
 * A buffer for a phase's events when `hooks` deciding hooks (each writing up to a decision, a shadowed
 * decision and an error event) and `observers` (an error event each when they throw, written live) might
 * not fit the span's event limit; undefined when they always fit, and then events are written as they happen.
 */
export function phaseEventBuffer(span: Span, hooks: number, observers: number): PhaseEventBuffer | undefined {
  const limit = eventCountLimit(span);
  if (limit === undefined || 3 * hooks + observers <= limit) return undefined;
  // Room is kept for observers that throw when the phase ends (their events are written after the flush).
  return new PhaseEventBuffer(Math.max(0, limit - Math.min(observers, Math.floor(limit / 4))));
}

/** What a phase span says about the phase once it ends. */
interface PhaseSummary {
  readonly decision: DecisionKind;
  /** The winning hook, when the decision is not continue. */
  readonly winner: string | undefined;
  readonly invoked: number;
  readonly shadowed: number;
  readonly errors: number;
  /** The events left out to fit the span's event limit, when any were. */
  readonly dropped?: DroppedEvents | undefined;
  /** With the guardrail conventions: what the phase guarded and what its hooks said (see guardrail.ts). */
  readonly phase?: Phase;
  readonly callId?: string | undefined;
  readonly reason?: string | undefined;
  /** Whether an audit hook would have changed the call (the action is then `audit` when nothing else did). */
  readonly audited?: boolean;
}

/** Sets the phase's summary attributes and ends its span. */
export function endPhaseSpan(span: Span, summary: PhaseSummary, recording: Recording = DEFAULT_RECORDING): void {
  const attributes: Attributes = {
    [ATTR_DECISION]: summary.decision,
    [ATTR_HOOKS_INVOKED]: summary.invoked,
    [ATTR_DECISIONS_SHADOWED]: summary.shadowed,
    [ATTR_HOOK_ERRORS]: summary.errors,
  };
  if (summary.winner !== undefined && summary.decision !== 'continue') attributes[ATTR_DECISION_HOOK] = summary.winner;
  const dropped = summary.dropped;
  if (dropped !== undefined) {
    attributes[ATTR_EVENTS_DROPPED] = dropped.total;
    if (dropped.decision > 0) attributes[ATTR_EVENTS_DROPPED_DECISION] = dropped.decision;
    if (dropped.shadowed > 0) attributes[ATTR_EVENTS_DROPPED_SHADOWED] = dropped.shadowed;
    if (dropped.error > 0) attributes[ATTR_EVENTS_DROPPED_ERROR] = dropped.error;
  }
  if (recording.guardrail && summary.phase !== undefined) Object.assign(attributes, guardrailPhaseAttributes(summary.phase, summary));
  setSpanAttributes(span, 'phase span attributes', attributes);
  endSpan(span);
}
