/**
 * LoggingHook: writes the runner's observer events as structured pino records, linked to their spans.
 */
import { isSpanContextValid } from '@opentelemetry/api';
import pino from 'pino';
import type { Level, LevelWithSilentOrString, Logger } from 'pino';
import { anything, object, readOptions, string } from '../internal/validate.js';
import type { ApprovalEvent, HookFailure, PhaseEvent, RecordedError, ToolEvent, ToolHook, ToolHookEvent, ToolMatcher } from '../hook.js';
import { resolveCapture } from '../telemetry/capture/options.js';
import { activeSpanContext } from '../telemetry/span.js';
import {
  ATTR_APPROVAL_APPROVER,
  ATTR_APPROVAL_DENIAL_REASON,
  ATTR_APPROVAL_DURATION_MS,
  ATTR_APPROVAL_EDITED,
  ATTR_APPROVAL_HOOK,
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_RESULT_REPLACED,
  LOG_MSG_APPROVAL_PREFIX,
  ATTR_DECISION,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  ATTR_OUTCOME,
  ATTR_PHASE,
  ATTR_REDIRECT_NEW_TOOL,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  ATTR_TOOL_DURATION_MS,
  ATTR_TOOL_EFFECTIVE_NAME,
  INSTRUMENTATION_NAME,
  LOG_MSG_AUDIT_PREFIX,
  LOG_MSG_DECISION_PREFIX,
  LOG_MSG_HOOK_FAILED,
  LOG_MSG_SHADOWED,
  LOG_MSG_TOOL_PREFIX,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_REDIRECT_ARGS,
  LOG_SPAN_ID,
  LOG_TRACE_FLAGS,
  LOG_TRACE_ID,
} from '../telemetry/semconv.js';
import { FailureCounter } from '../telemetry/warn-once.js';
import { otelDestination } from './otel-destination.js';
import { stdoutDestination } from './stdout-destination.js';
import type { LoggingHookOptions } from './types.js';

type Fields = Record<string, unknown>;

/**
 * Writes one pino record per tool outcome (`info`, `warn` for aborted and failed), per non-Continue hook
 * decision (`info`), per shadowed decision (`info`), per swallowed hook failure (`warn`, with the
 * error as the span event records it: `err` = `{ type, message, stack }`, cut to the runner's
 * `capture.maxLength` and scrubbed of the call's argument values — never the raw error object) and per
 * approval outcome (`info` for approved and denied, `warn` for expired, error and no_approver: a gate
 * nobody answered). Every record carries `trace_id`, `span_id` and `trace_flags` of the span active when
 * the event was delivered (the phase span or the `execute_tool` span), so logs and traces join up. Field
 * names are the span attribute names (`gen_ai.tool.name`,
 * `toolhooks.outcome`, ...). Argument and result values are logged only when the runner's `capture` option
 * records them (`gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`, `toolhooks.redirect.args`), already
 * redacted and bounded (see docs/capture.md). It never throws.
 *
 * @example
 * ```ts
 * import { HookRunner } from 'toolhooks';
 * import { LoggingHook } from 'toolhooks/hooks';
 *
 * const hooks = new HookRunner([policyHook, new LoggingHook()]);
 * // {"level":40,"name":"toolhooks","gen_ai.tool.name":"shell","toolhooks.outcome":"aborted",...,"msg":"tool call aborted"}
 * ```
 */
export class LoggingHook implements ToolHook {
  readonly name: string;
  readonly tools?: ToolMatcher;
  readonly #logger: Logger;
  readonly #failures = new FailureCounter('the tool call is unaffected');

  constructor(options: LoggingHookOptions = {}) {
    const { logger, level, tools, name } = readOptions(options, 'LoggingHook(options)', 'LoggingHook', { logger: object, level: string, tools: anything, name: string }) as LoggingHookOptions;
    this.name = name ?? 'LoggingHook';
    if (tools !== undefined) this.tools = tools;
    if (logger === undefined) {
      this.#logger = defaultLogger(level ?? 'info');
    } else {
      this.#logger = level === undefined ? logger : logger.child({}, { level });
    }
  }

  /** Logs one observer event. Called by the runner; never throws. */
  onEvent(event: ToolHookEvent): void {
    try {
      if (event.type === 'tool') this.#logTool(event);
      else if (event.type === 'phase') this.#logPhase(event);
      else if (event.type === 'approval') this.#logApproval(event);
    } catch (error) {
      this.#failures.report(`${this.name} could not log an event`, error);
    }
  }

  #logTool(event: ToolEvent): void {
    const level: Level = event.outcome === 'aborted' || event.outcome === 'failed' ? 'warn' : 'info';
    if (!this.#logger.isLevelEnabled(level)) return;
    const fields: Fields = { [ATTR_GEN_AI_TOOL_NAME]: event.toolName };
    if (event.effectiveToolName !== event.toolName) fields[ATTR_TOOL_EFFECTIVE_NAME] = event.effectiveToolName;
    fields[ATTR_OUTCOME] = event.outcome;
    if (event.errorType !== undefined) fields[ATTR_ERROR_TYPE] = event.errorType;
    if (event.reason !== undefined && event.reason !== '') fields[ATTR_DECISION_REASON] = event.reason;
    fields[ATTR_RETRIES] = event.retries;
    fields[ATTR_REEXECUTIONS] = event.reexecutions;
    fields[ATTR_TOOL_DURATION_MS] = roundMs(event.durationMs);
    if (event.approval !== undefined) fields[ATTR_APPROVAL_OUTCOME] = event.approval;
    if (event.replaced === true) fields[ATTR_RESULT_REPLACED] = true;
    if (event.callId !== undefined) fields[ATTR_GEN_AI_TOOL_CALL_ID] = event.callId;
    // Present only with capture on, already redacted and bounded by the runner's one capture module.
    if (event.arguments !== undefined) fields[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = event.arguments;
    if (event.result !== undefined) fields[ATTR_GEN_AI_TOOL_CALL_RESULT] = event.result;
    this.#write(level, fields, `${LOG_MSG_TOOL_PREFIX} ${event.outcome}`);
  }

  #logPhase(event: PhaseEvent): void {
    if (this.#logger.isLevelEnabled('info')) {
      for (const record of event.hooks) {
        if (record.decision === 'continue' || record.decision === 'error') continue;
        const audit = record.mode === 'audit';
        const fields: Fields = {
          [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
          [ATTR_PHASE]: event.phase,
          [ATTR_HOOK_NAME]: record.hook,
          [ATTR_DECISION]: record.decision,
        };
        if (audit) fields[ATTR_HOOK_MODE] = 'audit';
        if (record.reason !== undefined && record.reason !== '') fields[ATTR_DECISION_REASON] = record.reason;
        if (record.newTool !== undefined) fields[ATTR_REDIRECT_NEW_TOOL] = record.newTool;
        if (record.newArgs !== undefined) fields[ATTR_REDIRECT_ARGS] = record.newArgs;
        if (record.shadowedBy !== undefined) fields[ATTR_DECISION_WINNER] = record.shadowedBy;
        if (Number.isFinite(record.durationMs)) fields[ATTR_HOOK_DURATION_MS] = roundMs(record.durationMs);
        if (event.callId !== undefined) fields[ATTR_GEN_AI_TOOL_CALL_ID] = event.callId;
        const message = audit
          ? `${LOG_MSG_AUDIT_PREFIX} ${record.decision}`
          : record.shadowedBy === undefined
            ? `${LOG_MSG_DECISION_PREFIX} ${record.decision}`
            : LOG_MSG_SHADOWED;
        this.#write('info', fields, message);
      }
    }
    if (event.errors.length === 0 || !this.#logger.isLevelEnabled('warn')) return;
    for (const failure of event.errors) {
      const fields: Fields = {
        [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
        [ATTR_PHASE]: event.phase,
        [ATTR_HOOK_NAME]: failure.hook,
        [ATTR_HOOK_ERROR_KIND]: failure.kind,
        err: loggedError(failure),
      };
      if (failure.mode === 'audit') fields[ATTR_HOOK_MODE] = 'audit';
      if (event.callId !== undefined) fields[ATTR_GEN_AI_TOOL_CALL_ID] = event.callId;
      this.#write('warn', fields, LOG_MSG_HOOK_FAILED);
    }
  }

  #logApproval(event: ApprovalEvent): void {
    const level: Level = event.outcome === 'approved' || event.outcome === 'denied' || event.outcome === 'pending' ? 'info' : 'warn';
    if (!this.#logger.isLevelEnabled(level)) return;
    const fields: Fields = {
      [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
      [ATTR_APPROVAL_ID]: event.id,
      [ATTR_APPROVAL_HOOK]: event.hook,
      [ATTR_APPROVAL_OUTCOME]: event.outcome,
    };
    if (event.reason !== '') fields[ATTR_DECISION_REASON] = event.reason;
    if (event.approver !== undefined) fields[ATTR_APPROVAL_APPROVER] = event.approver;
    if (event.denialReason !== undefined && event.denialReason !== '') fields[ATTR_APPROVAL_DENIAL_REASON] = event.denialReason;
    fields[ATTR_APPROVAL_EDITED] = event.edited;
    if (Number.isFinite(event.durationMs)) fields[ATTR_APPROVAL_DURATION_MS] = roundMs(event.durationMs);
    // An approver's failure: as the runner recorded it (bounded, argument values scrubbed), else bounded.
    if (event.error !== undefined) fields.err = errField(event.exception ?? unscrubbed.describe(event.error));
    if (event.callId !== undefined) fields[ATTR_GEN_AI_TOOL_CALL_ID] = event.callId;
    this.#write(level, fields, `${LOG_MSG_APPROVAL_PREFIX} ${event.outcome}`);
  }

  #write(level: Level, fields: Fields, msg: string): void {
    // Read at write time: the runner delivers events inside the phase or execute_tool span's context.
    const spanContext = activeSpanContext();
    if (spanContext !== undefined && isSpanContextValid(spanContext)) {
      fields[LOG_TRACE_ID] = spanContext.traceId;
      fields[LOG_SPAN_ID] = spanContext.spanId;
      fields[LOG_TRACE_FLAGS] = spanContext.traceFlags.toString(16).padStart(2, '0');
    }
    this.#logger[level](fields, msg);
  }
}

function defaultLogger(level: LevelWithSilentOrString): Logger {
  // Each stream takes every level: the logger's own level is the only filter.
  const streams = pino.multistream([
    { level: 'trace', stream: stdoutDestination() },
    { level: 'trace', stream: otelDestination() },
  ]);
  const logger = pino({ name: INSTRUMENTATION_NAME, level }, streams);
  // @opentelemetry/instrumentation-pino (e.g. in an app's auto-instrumentations) wraps a new logger's
  // stream to send its records to OTel itself; ours would then send each record twice.
  if ((logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] === streams) return logger;
  return pino({ name: INSTRUMENTATION_NAME, level }, stdoutDestination());
}

/** Describes errors in events that did not come from a runner (no `exception`): bounded, nothing to scrub. */
const unscrubbed = resolveCapture(undefined).scrubber([]);

/**
 * The `err` field of a hook-failure record: the failure as every other signal records it (the span
 * event's `exception.*`), never the raw error — an axios error's request config and headers, or a
 * 5 MB message, stay out of the log line. pino's err serializer takes the type from
 * `constructor.name`, so the description carries a constructor named after the type.
 */
function loggedError(failure: HookFailure): Record<string, string> {
  return errField(failure.exception ?? unscrubbed.describe(failure.error));
}

/** One serialiser for every `err` field: `{ type, message, stack }` from a recorded description. */
function errField(exception: RecordedError): Record<string, string> {
  const described: Record<string, string> = { type: exception.type, message: exception.message };
  if (exception.stacktrace !== undefined) described.stack = exception.stacktrace;
  Object.defineProperty(described, 'constructor', { value: namedFunction(exception.type), enumerable: false });
  return described;
}

function namedFunction(name: string): () => void {
  const fn = (): void => undefined;
  Object.defineProperty(fn, 'name', { value: name });
  return fn;
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
