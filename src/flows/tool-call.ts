/**
 * The `execute_tool` span of one flow call: started with the GenAI attributes, given its outcome at
 * the end, announced to observers as a tool event, and parent of the phase and `toolhooks.execute`
 * spans. Every telemetry step is guarded: a broken tracer never reaches the tool.
 * @internal
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { HookAbortError } from '../errors.js';
import type { Outcome, ToolArgs, ToolEvent } from '../hook.js';
import type { RunnerInternals } from '../runner.js';
import { errorMessage } from '../guard.js';
import { reportTelemetryFailure } from '../telemetry/failures.js';
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
  try {
    if (error instanceof Error) return error.constructor?.name || error.name || ERROR_TYPE_OTHER;
  } catch {
    // a hostile error object: fall through
  }
  return ERROR_TYPE_OTHER;
}

/** One flow call: its span, its counters, and how it ended. */
export class ToolCall {
  /** How the call ends when it returns normally; the flow sets `skipped` or `recovered`. */
  outcome: Extract<Outcome, 'completed' | 'skipped' | 'recovered'> = 'completed';
  effectiveToolName: string;
  redirected = false;
  retries = 0;
  reexecutions = 0;
  readonly #internals: RunnerInternals;
  readonly #span: Span | undefined;
  readonly #started = performance.now();
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
    this.#arguments = internals.capture.args ? internals.capture.serialize(args) : undefined;
    this.#span = startSpan(internals, `${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`, () => {
      const attributes: Attributes = {
        [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_EXECUTE_TOOL,
        [ATTR_GEN_AI_TOOL_NAME]: toolName,
        [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION,
      };
      if (callId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = callId;
      if (this.#arguments !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = this.#arguments;
      return attributes;
    });
  }

  /**
   * Runs the flow's body with the `execute_tool` span active, then ends the span with the outcome:
   * the body's own on return, `aborted` for a HookAbortError, `failed` for any other error.
   */
  async run<T>(body: () => Promise<T>): Promise<T> {
    const span = this.#span;
    try {
      const result = span === undefined ? await body() : await context.with(trace.setSpan(context.active(), span), body);
      if (this.#failure === undefined) this.#finish(this.outcome, result, undefined);
      else this.#finish('failed', result, this.#failure.error);
      return result;
    } catch (error) {
      this.#finish(error instanceof HookAbortError ? 'aborted' : 'failed', undefined, error);
      throw error;
    }
  }

  /**
   * Marks a call that returns a failure payload instead of throwing (runWithRetry's exhaustion):
   * its outcome is `failed`, with the error's type, although the flow returns normally.
   */
  markFailed(error: unknown): void {
    this.#failure = { error };
  }

  /** Runs the executor once under a `toolhooks.execute` span; the tool's own spans nest under it. */
  async execute(toolName: string, attempt: number, run: () => unknown): Promise<unknown> {
    const span = this.#span === undefined ? undefined : startSpan(this.#internals, SPAN_EXECUTE, () => ({
      [ATTR_GEN_AI_TOOL_NAME]: toolName,
      [ATTR_ATTEMPT]: attempt,
    }));
    if (span === undefined) return run();
    try {
      return await context.with(trace.setSpan(context.active(), span), run);
    } catch (error) {
      guarded('toolhooks.execute status', () => {
        span.setAttribute(ATTR_ERROR_TYPE, errorTypeOf(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: this.#internals.capture.limit(errorMessage(error)) });
      });
      throw error;
    } finally {
      guarded('span.end', () => span.end());
    }
  }

  #finish(outcome: Outcome, result: unknown, error: unknown): void {
    const span = this.#span;
    const failed = outcome === 'aborted' || outcome === 'failed';
    const errorType = failed ? errorTypeOf(error) : undefined;
    const capturedResult = !failed && this.#internals.capture.results ? this.#internals.capture.serialize(result) : undefined;
    if (span !== undefined) {
      guarded('execute_tool attributes', () => {
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
      });
    }
    if (this.#internals.hasObservers) {
      const event: ToolEvent = {
        type: 'tool',
        toolName: this.toolName,
        effectiveToolName: this.effectiveToolName,
        outcome,
        durationMs: performance.now() - this.#started,
        retries: this.retries,
        reexecutions: this.reexecutions,
        ...(errorType === undefined ? {} : { errorType }),
        ...(error instanceof HookAbortError ? { reason: this.#internals.capture.limit(error.reason) } : {}),
        ...(this.callId === undefined ? {} : { callId: this.callId }),
        ...(this.#arguments === undefined ? {} : { arguments: this.#arguments }),
        ...(capturedResult === undefined ? {} : { result: capturedResult }),
      };
      const notify = (): void => this.#internals.notify(event, span);
      if (span === undefined) notify();
      else context.with(trace.setSpan(context.active(), span), notify);
    }
    if (span !== undefined) guarded('span.end', () => span.end());
  }
}

function startSpan(internals: RunnerInternals, name: string, attributes: () => Attributes): Span | undefined {
  try {
    const span = internals.tracer.startSpan(name, { kind: SpanKind.INTERNAL, attributes: attributes() });
    if (span.isRecording()) return span;
    span.end();
    return undefined;
  } catch (error) {
    reportTelemetryFailure('startSpan', error);
    return undefined;
  }
}

function guarded(where: string, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    reportTelemetryFailure(where, error);
  }
}
