/**
 * One tool call: its `execute_tool` span, its phases and executor runs, and how it ended. Every flow
 * and every adapter runs its calls through this class, so a call is recorded the same way whoever
 * makes it. Every telemetry step is guarded: a broken tracer never reaches the tool.
 *
 * It is one piece because the span, the phases and the executor runs share the call's state — whether
 * it records, its counters, its outcome — and every path must end the call exactly once; split apart,
 * no module could be read on its own to check that. That it is also the phase request, the tally and
 * the argument cache: docs/decisions/2026-12-02-one-object-per-call.md.
 * @internal
 */
import { noteExecuteRun } from './outer-call.js';
import type { Attributes, Context, Link, Span } from '@opentelemetry/api';
import { context, trace } from '@opentelemetry/api';
import type { HookDecision } from '../decisions.js';
import { CONTINUE } from '../decisions.js';
import { errorMessage } from '../internal/describe.js';
import { errorTypeOf } from '../telemetry/error-type.js';
import { HookAbortError } from '../errors.js';
import type { Outcome, Phase, ToolArgs, ToolEvent } from '../hook.js';
import type { RunnerCore } from '../runner/core.js';
import type { CallSpec } from './call-spec.js';
import { CallPhaseRequest } from './call-spec.js';
import type { HeldBefore } from './before-ahead.js';
import type { Capture } from '../telemetry/capture/options.js';
import type { ErrorScrubber } from '../telemetry/capture/error-text.js';
import { reportTelemetryFailure } from '../telemetry/failures.js';
import { addSpanLink, endSpan, hasTraceId, isDroppedSpanIn, isRecording, setSpanAttributes, startSpan } from '../telemetry/span.js';
import { attributeLengthLimit } from '../telemetry/span-limits.js';
import {
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_RESULT_REPLACED,
  ATTR_ATTEMPT,
  ATTR_BLOCKED,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_HOOK_ERRORS,
  ATTR_OUTCOME,
  ATTR_REDIRECTED,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  ATTR_TOOL_EFFECTIVE_NAME,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  GEN_AI_TOOL_TYPE_FUNCTION,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../telemetry/semconv.js';

/**
 * One tool call: its span, its counters, its phases, and how it ended. The call is its own phase request
 * ({@link CallPhaseRequest}: `toolName` and `args` are the current phase's; the requested ones are
 * `requestedTool` and `requestedArgs`).
 */
export class ToolCall<S = unknown> extends CallPhaseRequest {
  /** How the call ends when it returns normally; the flow sets `skipped`, `recovered` or `denied`. */
  outcome: Extract<Outcome, 'completed' | 'skipped' | 'recovered' | 'denied' | 'pending'> = 'completed';
  /** Whether an after_tool Replace supplied the result. */
  replaced = false;
  effectiveToolName: string;
  redirected = false;
  retries = 0;
  reexecutions = 0;
  readonly #core: RunnerCore<S>;
  /** The call's span when it records; attributes, phase and execute spans go there. */
  readonly #span: Span | undefined;
  /** The span made active for hooks and tools: the recording span, or a sampled-out one. */
  readonly #active: Span | undefined;
  /** The context the call's span was started in (read once per call); `within` makes the span active in it. */
  readonly #parent: Context | undefined;
  /** When the call started; read only for the observers' tool event. */
  readonly #started: number;
  /** The captured arguments (redacted JSON), as recorded on the span and given to observers. */
  #arguments: string | undefined;
  /** The span's attribute length limit, when capture is on and the span has one: captured JSON fits it. */
  #lengthLimit: number | undefined;
  /** Whether #span is the framework's (adopted, ended by the framework) rather than the call's own. */
  readonly #adopted: boolean;
  #failure: { error: unknown } | undefined;
  /** The before_tool phase run ahead of the call, until the call uses it. */
  #held: HeldBefore | undefined;
  /** The `toolhooks.execute` span of the executor run in progress, between startExecute and its end. */
  #executeSpan: Span | undefined = undefined;

  constructor(spec: CallSpec<S>) {
    super(spec as CallSpec<unknown>);
    const core = spec.core;
    this.#core = core;
    this.effectiveToolName = spec.toolName;
    this.#started = core.hasObservers ? performance.now() : 0;
    this.#arguments = core.capture.args ? core.capture.serialize(spec.args) : undefined;
    // Under a parent the app's sampler dropped (the agent's sampled-out request), a child span could only
    // be dropped too — or, with a sampler that is not parent-based, recorded without its parent. So none
    // is started: the parent stays active and passes its decision on to the hooks' and the tool's spans.
    this.#adopted = spec.span !== undefined;
    const parent = this.#adopted ? undefined : activeContext();
    const span = this.#adopted
      ? adoptSpan(spec.span, spec.outer === true ? (spec.attributes ?? {}) : startAttributes(spec, this.agentName, this.#arguments), linksOf(spec))
      : parent !== undefined && isDroppedSpanIn(parent)
        ? undefined
        : startSpan(core.tracer, `${SPAN_EXECUTE_TOOL_PREFIX} ${spec.toolName}`, startAttributes(spec, this.agentName, this.#arguments), parent, linksOf(spec));
    const recording = span !== undefined && isRecording(span);
    // The API's no-op tracer (no SDK) answers with the all-zero trace id: nothing to make active.
    // A sampled-out span has a real id: active, it passes its decision on to the tool's spans.
    const active = span !== undefined && (recording || hasTraceId(span)) ? span : undefined;
    if (recording && span !== undefined && spec.outer !== true && (core.capture.args || core.capture.results)) this.#fitCapture(span, spec.args);
    this.#span = recording ? span : undefined;
    this.#active = active;
    this.#parent = parent;
    this.traced = recording;
    this.#held = spec.before;
  }

  /**
   * Under an SDK attribute length limit, the captured arguments given at start would be cut mid-value
   * (invalid JSON, unreadable for replay): they are written again within the limit.
   */
  #fitCapture(span: Span, args: ToolArgs): void {
    const limit = attributeLengthLimit(span);
    this.#lengthLimit = limit;
    if (limit === undefined || this.#arguments === undefined || this.#arguments.length <= limit) return;
    this.#arguments = this.#core.capture.serializeWithin(args, limit);
    setSpanAttributes(span, 'execute_tool attributes', { [ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]: this.#arguments });
  }

  /** Runs `body(arg, this)` with the call's span active; the body ends the call ({@link returned} / {@link threw}). */
  within<T, A>(body: (arg: A, call: ToolCall<S>) => Promise<T>, arg: A): Promise<T> {
    const active = this.#active;
    if (active === undefined) return body(arg, this);
    // The context read at construction (the span's parent) rather than a second context.active().
    return context.with(trace.setSpan(this.#parent ?? context.active(), active), body, undefined, arg, this);
  }

  /** Runs the before_tool phase for the requested tool; a phase run ahead of the call (CallSpec.before) is used once instead. */
  before(args: ToolArgs, attempt = 1): HookDecision | Promise<HookDecision> {
    const held = this.#held;
    if (held !== undefined) {
      this.#held = undefined;
      if ('error' in held) throw held.error;
      return held.decision;
    }
    return this.#phase('before_tool', this.requestedTool, args, attempt, undefined, 0);
  }

  /** Runs the after_tool phase for the tool that ran, with its result. */
  after(args: ToolArgs, result: unknown, durationMs: number, attempt: number): HookDecision | Promise<HookDecision> {
    // No after_tool hook: the phase is Continue, as the core would answer, without setting up the request.
    if (!this.#core.hasHooks('after_tool')) return CONTINUE;
    return this.#phase('after_tool', this.effectiveToolName, args, attempt, result, durationMs);
  }

  /** Runs the on_error phase; an Abort it decides carries the tool's error as its cause. */
  async onError(args: ToolArgs, error: unknown, attempt: number): Promise<HookDecision> {
    try {
      return await this.#phase('on_error', this.effectiveToolName, args, attempt, error, 0);
    } catch (abortError) {
      if (abortError instanceof HookAbortError && abortError.cause === undefined) {
        throw new HookAbortError(abortError.reason, abortError.sourceHook, { cause: error });
      }
      throw abortError;
    }
  }

  /** Runs a phase with the call as its request, rewritten for that phase first ({@link CallPhaseRequest.askAbout}). */
  #phase(phase: Phase, toolName: string, args: ToolArgs, attempt: number, value: unknown, durationMs: number): HookDecision | Promise<HookDecision> {
    this.askAbout(phase, toolName, args, attempt, value, durationMs);
    return this.#core.run(this);
  }

  /** Whether after_tool hooks exist (the flows read the clock only for them). */
  get timesExecution(): boolean {
    return this.#core.hasHooks('after_tool');
  }

  /** Ends a call whose body returned `result` (with its outcome, or `failed` after markFailed); returns `result`. */
  returned<T>(result: T): T {
    if (this.#failure === undefined) this.#finish(this.outcome, result, undefined);
    else this.#finish('failed', result, this.#failure.error);
    return result;
  }

  /** Ends a call whose body threw (or that failed before it could run): `aborted` for a HookAbortError, else `failed`. */
  threw(error: unknown): void {
    this.#finish(error instanceof HookAbortError ? 'aborted' : 'failed', undefined, error);
  }

  /** Records a call that failed before any hook or tool could run (a model's invalid call) as `failed`. */
  recordFailure(error: unknown): Promise<void> {
    return this.within(endAsFailed, error);
  }

  /**
   * Marks a call that returns a failure payload instead of throwing (runWithRetry's exhaustion):
   * its outcome is `failed`, with the error's type, although the flow returns normally.
   */
  markFailed(error: unknown): void {
    this.#failure = { error };
  }

  /**
   * Runs the executor once, `run(a, b)`, under a `toolhooks.execute` span; the tool's own spans nest
   * under it. Returns what the executor returns (a value or a promise, not awaited) and throws what it
   * throws synchronously; the caller settles it and ends the run with {@link endExecute} or
   * {@link failExecute}, in its own async frame. A call's runs are one after another, so the call holds
   * the open run's span itself (docs/decisions/2026-12-02-one-object-per-call.md).
   */
  startExecute<A, B>(toolName: string, attempt: number, run: (a: A, b: B) => unknown, a: A, b: B): unknown {
    if (this.#span === undefined) return run(a, b);
    const span = startSpan(this.#core.tracer, SPAN_EXECUTE, { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_ATTEMPT]: attempt });
    if (span === undefined) return run(a, b);
    this.#executeSpan = span;
    noteExecuteRun(span, this.#span);
    return context.with(trace.setSpan(context.active(), span), run, undefined, a, b);
  }

  /** Ends the open executor run's span after the executor's result settled. */
  endExecute(): void {
    const span = this.#executeSpan;
    if (span === undefined) return;
    this.#executeSpan = undefined;
    endSpan(span);
  }

  /** Ends the open executor run's span after the executor threw (or rejected): `error.type` and status ERROR. */
  failExecute(error: unknown): void {
    const span = this.#executeSpan;
    if (span === undefined) return;
    this.#executeSpan = undefined;
    setSpanAttributes(span, 'toolhooks.execute status', { [ATTR_ERROR_TYPE]: errorTypeOf(error) }, this.scrubber.text(errorMessage(error)));
    endSpan(span);
  }

  #finish(outcome: Outcome, result: unknown, error: unknown): void {
    const span = this.#span;
    // A call that records nothing (sampled out, no observers) has nothing to end or tell.
    if (span === undefined && !this.#core.hasObservers) return;
    const capture = this.#core.capture;
    const failed = outcome === 'aborted' || outcome === 'failed';
    const errorType = failed ? errorTypeOf(error) : undefined;
    // With abortStatus 'unset', a call the hooks stopped is marked blocked, not failed (docs/telemetry.md).
    const blocked = this.#core.recording.blockedUnset && (outcome === 'aborted' || outcome === 'denied');
    const capturedResult = !failed && capture.results ? capture.serializeWithin(result, this.#lengthLimit) : undefined;
    const approval = this.approval;
    if (span !== undefined) {
      const attributes: Attributes = {
        [ATTR_OUTCOME]: outcome,
        [ATTR_REDIRECTED]: this.redirected,
        [ATTR_RETRIES]: this.retries,
        [ATTR_REEXECUTIONS]: this.reexecutions,
        [ATTR_HOOK_ERRORS]: this.hookErrors,
      };
      if (this.redirected) attributes[ATTR_TOOL_EFFECTIVE_NAME] = this.effectiveToolName;
      if (approval !== undefined) {
        attributes[ATTR_APPROVAL_OUTCOME] = approval.outcome;
        attributes[ATTR_APPROVAL_ID] = approval.id;
      }
      if (this.replaced) attributes[ATTR_RESULT_REPLACED] = true;
      if (blocked) attributes[ATTR_BLOCKED] = true;
      else if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
      if (capturedResult !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_RESULT] = capturedResult;
      setSpanAttributes(span, 'execute_tool attributes', attributes, failed && !blocked ? statusMessage(error, capture, this.scrubber) : undefined);
    }
    if (this.#core.hasObservers) {
      const event: Mutable<ToolEvent> = {
        type: 'tool',
        toolName: this.requestedTool,
        effectiveToolName: this.effectiveToolName,
        outcome,
        durationMs: performance.now() - this.#started,
        retries: this.retries,
        reexecutions: this.reexecutions,
      };
      if (this.gateKnown) event.gated = this.gated;
      if (approval !== undefined) event.approval = approval.outcome;
      if (this.replaced) event.replaced = true;
      if (errorType !== undefined) event.errorType = errorType;
      if (error instanceof HookAbortError) event.reason = capture.limit(error.reason);
      if (this.callId !== undefined) event.callId = this.callId;
      if (this.agentName !== undefined) event.agentName = this.agentName;
      if (this.#arguments !== undefined) event.arguments = this.#arguments;
      if (capturedResult !== undefined) event.result = capturedResult;
      // Called from inside the span's context (see within), so observers see the execute_tool span as active.
      this.#core.notify(event, this.requestedTool, span, this.requestedArgs);
    }
    if (span !== undefined && !this.#adopted) endSpan(span);
  }
}

/** Everything a sampler may look at, given at start: the call's `gen_ai.*` attributes, the captured arguments, a continuation's approval id. */
function startAttributes<S>(spec: CallSpec<S>, agentName: string | undefined, captured: string | undefined): Attributes {
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
    [ATTR_GEN_AI_TOOL_NAME]: spec.toolName,
    [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION,
  };
  if (spec.callId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = spec.callId;
  if (spec.toolDescription !== undefined) attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = spec.toolDescription;
  if (agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = agentName;
  if (captured !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = captured;
  // A continuation carries its approval's id from the start; a call that may ask gets it only if it asks.
  if (spec.handoff?.id !== undefined && spec.handoff.answer !== undefined) attributes[ATTR_APPROVAL_ID] = spec.handoff.id;
  if (spec.attributes !== undefined) Object.assign(attributes, spec.attributes);
  return attributes;
}

/**
 * Starts the `execute_tool` span of `spec`'s call in `parent` with the start attributes every call
 * span gets, for an adapter that must hold the span before the call records on it (`CallSpec.span`).
 * Undefined under a dropped parent, as for a call's own span.
 */
export function startCallSpan<S>(spec: CallSpec<S>, parent: Context): Span | undefined {
  if (isDroppedSpanIn(parent)) return undefined;
  const core = spec.core;
  const captured = core.capture.args ? core.capture.serialize(spec.args) : undefined;
  return startSpan(core.tracer, `${SPAN_EXECUTE_TOOL_PREFIX} ${spec.toolName}`, startAttributes(spec, spec.agentName ?? core.agentName, captured), parent);
}

/**
 * The status message of a failed call. An abort's reason is the hook's own words, recorded as written
 * like every decision reason (a fail-closed reason quotes an already scrubbed message); anything else
 * thrown is scrubbed of argument values.
 */
function statusMessage(error: unknown, capture: Capture, scrubber: ErrorScrubber): string {
  return error instanceof HookAbortError ? capture.limit(error.reason) : scrubber.text(errorMessage(error));
}

/** The framework's span with the call's start attributes (and a continuation's link) added; never throws. */
function adoptSpan(span: Span | undefined, attributes: Attributes, links: Link[] | undefined): Span | undefined {
  if (span === undefined) return span;
  setSpanAttributes(span, 'execute_tool attributes', attributes);
  if (links !== undefined) for (const link of links) addSpanLink(span, link);
  return span;
}

/**
 * A continuation's link to the call that asked for its approval (handed to the framework); added to
 * the framework's own span, when adopted, after its start.
 */
function linksOf<S>(spec: CallSpec<S>): Link[] | undefined {
  const askedIn = spec.handoff?.answer?.askedIn;
  return askedIn === undefined ? undefined : [{ context: askedIn, attributes: { [ATTR_APPROVAL_ID]: spec.handoff?.id ?? '' } }];
}

/** The active context, read once per call (and handed to the tracer); undefined when the context API throws. */
function activeContext(): Context | undefined {
  try {
    return context.active();
  } catch (error) {
    reportTelemetryFailure('context.active', error);
    return undefined;
  }
}

async function endAsFailed(error: unknown, call: ToolCall<unknown>): Promise<void> {
  call.threw(error);
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
