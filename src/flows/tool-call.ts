/**
 * The `execute_tool` span of one flow call: started with the GenAI attributes, given its outcome at
 * the end, announced to observers as a tool event, and parent of the phase and `toolhooks.execute`
 * spans. Every telemetry step is guarded: a broken tracer never reaches the tool.
 * @internal
 */
import { errorClassName, errorMessage } from '../describe.js';
import type { Attributes, Span } from '@opentelemetry/api';
import { INVALID_TRACEID, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { HookAbortError } from '../errors.js';
import type { Outcome, ToolArgs, ToolEvent } from '../hook.js';
import type { RunnerInternals } from '../runner.js';
import { endSpan, reportTelemetryFailure, startRecordingSpan } from '../telemetry/failures.js';
import {
  ATTR_ATTEMPT,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_OUTCOME,
  ATTR_REDIRECTED,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  ATTR_TOOL_EFFECTIVE_NAME,
  ERROR_TYPE_OTHER,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  GEN_AI_TOOL_TYPE_FUNCTION,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../telemetry/semconv.js';

/** `error.type` of anything thrown: `HookAbortError`, the error's class name, else `_OTHER`. */
export function errorTypeOf(error: unknown): string {
  return errorClassName(error) ?? ERROR_TYPE_OTHER;
}

/** One flow call: its span, its counters, and how it ended. */
export class ToolCall {
  /** How the call ends when it returns normally; the flow sets `skipped` or `recovered`. */
  outcome: Extract<Outcome, 'completed' | 'skipped' | 'recovered'> = 'completed';
  effectiveToolName: string;
  redirected = false;
  retries = 0;
  reexecutions = 0;
  /**
   * False when the tracer is the API's no-op one (its spans have no valid context): then no span of
   * this call can record, and the phases need not start theirs.
   */
  readonly traced: boolean;
  readonly #internals: RunnerInternals;
  readonly #span: Span | undefined;
  /** When the call started; read only for the observers' tool event. */
  readonly #started: number;
  readonly #arguments: string | undefined;
  #failure: { error: unknown } | undefined;

  constructor(
    internals: RunnerInternals,
    readonly toolName: string,
    readonly callId: string | undefined,
    args: ToolArgs,
  ) {
    this.#internals = internals;
    this.effectiveToolName = toolName;
    this.#started = internals.hasObservers ? performance.now() : 0;
    this.#arguments = internals.capture.args ? internals.capture.serialize(args) : undefined;
    const attributes: Attributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: toolName,
      [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION,
    };
    if (callId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = callId;
    if (this.#arguments !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = this.#arguments;
    let span: Span | undefined;
    let traced = true;
    try {
      span = internals.tracer.startSpan(`${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`, { kind: SpanKind.INTERNAL, attributes });
      if (!span.isRecording()) {
        // The API's no-op tracer answers with the all-zero trace id; an SDK never does (a plain id
        // comparison, not isSpanContextValid's regular expressions, since this runs on every call).
        traced = span.spanContext().traceId !== INVALID_TRACEID;
        span.end();
        span = undefined;
      }
    } catch (error) {
      reportTelemetryFailure('startSpan', error);
      span = undefined;
    }
    this.#span = span;
    this.traced = traced;
  }

  /**
   * Runs the flow's body, `body(arg, this)`, with the `execute_tool` span active, then ends the span with
   * the outcome: the body's own on return, `aborted` for a HookAbortError, `failed` for any other error.
   * The outcome is recorded inside the span's context, so observers see the span as active.
   */
  run<T, A = undefined>(body: (arg: A, call: ToolCall) => Promise<T>, arg?: A): Promise<T> {
    return this.within(runAndEnd<T, A>, { body, arg: arg as A });
  }

  /**
   * Runs `body(arg, this)` with the `execute_tool` span active. The body ends the call itself, with
   * {@link returned} or {@link threw}.
   */
  within<T, A>(body: (arg: A, call: ToolCall) => Promise<T>, arg: A): Promise<T> {
    const span = this.#span;
    if (span === undefined) return body(arg, this);
    return context.with(trace.setSpan(context.active(), span), body, undefined, arg, this);
  }

  /** Ends a call whose body returned `result` (with its outcome, or `failed` after markFailed); returns `result`. */
  returned<T>(result: T): T {
    if (this.#failure === undefined) this.#finish(this.outcome, result, undefined);
    else this.#finish('failed', result, this.#failure.error);
    return result;
  }

  /** Ends a call whose body threw: `aborted` for a HookAbortError, else `failed`. */
  threw(error: unknown): void {
    this.#finish(error instanceof HookAbortError ? 'aborted' : 'failed', undefined, error);
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
   * under it. Returns what the executor returns (a value or a promise) and throws what it throws.
   */
  execute<A, B>(toolName: string, attempt: number, run: (a: A, b: B) => unknown, a: A, b: B): unknown {
    const span = this.startExecute(toolName, attempt);
    if (span === undefined) return run(a, b);
    return this.#executeInSpan(span, run, a, b);
  }

  async #executeInSpan<A, B>(span: Span, run: (a: A, b: B) => unknown, a: A, b: B): Promise<unknown> {
    try {
      const result = await runExecutor(span, run, a, b);
      this.endExecute(span);
      return result;
    } catch (error) {
      this.failExecute(span, error);
      throw error;
    }
  }

  /** Starts the `toolhooks.execute` span of one executor run; undefined when the call is not traced. */
  startExecute(toolName: string, attempt: number): Span | undefined {
    if (this.#span === undefined) return undefined;
    return startRecordingSpan(this.#internals.tracer, SPAN_EXECUTE, { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_ATTEMPT]: attempt });
  }

  /** Ends an executor run's span after the executor returned. */
  endExecute(span: Span | undefined): void {
    if (span !== undefined) endSpan(span);
  }

  /** Ends an executor run's span after the executor threw: `error.type` and status ERROR. */
  failExecute(span: Span | undefined, error: unknown): void {
    if (span === undefined) return;
    try {
      span.setAttribute(ATTR_ERROR_TYPE, errorTypeOf(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: this.#internals.capture.limit(errorMessage(error)) });
    } catch (failure) {
      reportTelemetryFailure('toolhooks.execute status', failure);
    }
    endSpan(span);
  }

  #finish(outcome: Outcome, result: unknown, error: unknown): void {
    const span = this.#span;
    const failed = outcome === 'aborted' || outcome === 'failed';
    const errorType = failed ? errorTypeOf(error) : undefined;
    const capturedResult = !failed && this.#internals.capture.results ? this.#internals.capture.serialize(result) : undefined;
    if (span !== undefined) {
      try {
        const attributes: Attributes = {
          [ATTR_OUTCOME]: outcome,
          [ATTR_REDIRECTED]: this.redirected,
          [ATTR_RETRIES]: this.retries,
          [ATTR_REEXECUTIONS]: this.reexecutions,
        };
        if (this.redirected) attributes[ATTR_TOOL_EFFECTIVE_NAME] = this.effectiveToolName;
        if (errorType !== undefined) attributes[ATTR_ERROR_TYPE] = errorType;
        if (capturedResult !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_RESULT] = capturedResult;
        span.setAttributes(attributes);
        if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: this.#internals.capture.limit(errorMessage(error)) });
      } catch (failure) {
        reportTelemetryFailure('execute_tool attributes', failure);
      }
    }
    if (this.#internals.hasObservers) {
      const event: Mutable<ToolEvent> = {
        type: 'tool',
        toolName: this.toolName,
        effectiveToolName: this.effectiveToolName,
        outcome,
        durationMs: performance.now() - this.#started,
        retries: this.retries,
        reexecutions: this.reexecutions,
      };
      if (errorType !== undefined) event.errorType = errorType;
      if (error instanceof HookAbortError) event.reason = this.#internals.capture.limit(error.reason);
      if (this.callId !== undefined) event.callId = this.callId;
      if (this.#arguments !== undefined) event.arguments = this.#arguments;
      if (capturedResult !== undefined) event.result = capturedResult;
      // Called from inside the span's context (see run), so observers see the execute_tool span as active.
      this.#internals.notify(event, span);
    }
    if (span !== undefined) endSpan(span);
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Calls the executor, inside the `toolhooks.execute` span's context when there is one. @internal */
export function runExecutor<A, B>(span: Span | undefined, run: (a: A, b: B) => unknown, a: A, b: B): unknown {
  return span === undefined ? run(a, b) : context.with(trace.setSpan(context.active(), span), run, undefined, a, b);
}

/** The generic body wrapper of {@link ToolCall.run}: runs the body, then ends the call. */
async function runAndEnd<T, A>(job: { body: (arg: A, call: ToolCall) => Promise<T>; arg: A }, call: ToolCall): Promise<T> {
  try {
    return call.returned(await job.body(job.arg, call));
  } catch (error) {
    call.threw(error);
    throw error;
  }
}
