/**
 * The metrics and log lines of the hand-written baseline: the same instruments, attributes and pino
 * records as MetricsHook and LoggingHook produce for a call, recorded inline where the hand-written code
 * already holds the values (no event objects), as a careful engineer would.
 */
import type { Meter, Span } from '@opentelemetry/api';
import { ValueType } from '@opentelemetry/api';
import type { Logger } from 'pino';
import {
  ATTR_DECISION,
  ATTR_DECISION_REASON,
  ATTR_DECISION_SHADOWED,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  GEN_AI_TOOL_TYPE_FUNCTION,
  ATTR_GATED,
  ATTR_OUTCOME,
  ATTR_PHASE,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  ATTR_TOOL_DURATION_MS,
  HOOK_DURATION_BUCKETS,
  LOG_MSG_DECISION_PREFIX,
  LOG_MSG_TOOL_PREFIX,
  LOG_SPAN_ID,
  LOG_TRACE_FLAGS,
  LOG_TRACE_ID,
  METRIC_HOOK_DECISIONS,
  METRIC_HOOK_DURATION,
  METRIC_TOOL_CALLS,
  METRIC_TOOL_DURATION,
  TOOL_DURATION_BUCKETS,
} from '../src/telemetry/semconv.js';
import type { CallObserver } from './hand-written.js';

/** Records the SPEC §4 metrics and the LoggingHook's log lines for each hand-written call. */
export function handWrittenTelemetry(meter: Meter, logger: Logger): CallObserver {
  const toolDuration = meter.createHistogram(METRIC_TOOL_DURATION, {
    unit: 's',
    advice: { explicitBucketBoundaries: [...TOOL_DURATION_BUCKETS] },
  });
  const toolCalls = meter.createCounter(METRIC_TOOL_CALLS, { unit: '{call}', valueType: ValueType.INT });
  const hookDecisions = meter.createCounter(METRIC_HOOK_DECISIONS, { unit: '{decision}', valueType: ValueType.INT });
  const hookDuration = meter.createHistogram(METRIC_HOOK_DURATION, {
    unit: 's',
    advice: { explicitBucketBoundaries: [...HOOK_DURATION_BUCKETS] },
  });
  return {
    decision(span, toolName, hookName, decision, durationMs, callId) {
      hookDuration.record(durationMs / 1000, { [ATTR_PHASE]: 'before_tool', [ATTR_HOOK_NAME]: hookName });
      hookDecisions.add(1, {
        [ATTR_PHASE]: 'before_tool',
        [ATTR_HOOK_NAME]: hookName,
        [ATTR_DECISION]: decision.kind,
        [ATTR_DECISION_SHADOWED]: false,
        [ATTR_GEN_AI_TOOL_NAME]: toolName,
        [ATTR_HOOK_MODE]: 'enforce',
      });
      if (decision.kind === 'continue' || !logger.isLevelEnabled('info')) return;
      const fields: Record<string, unknown> = {
        [ATTR_GEN_AI_TOOL_NAME]: toolName,
        [ATTR_PHASE]: 'before_tool',
        [ATTR_HOOK_NAME]: hookName,
        [ATTR_DECISION]: decision.kind,
      };
      if (decision.reason !== '') fields[ATTR_DECISION_REASON] = decision.reason;
      fields[ATTR_HOOK_DURATION_MS] = Math.round(durationMs * 1000) / 1000;
      fields[ATTR_GEN_AI_TOOL_CALL_ID] = callId;
      logger.info(withTrace(fields, span), `${LOG_MSG_DECISION_PREFIX} ${decision.kind}`);
    },
    outcome(span, toolName, outcome, durationMs, callId) {
      // Gated: the workload's hooks are enforced and invoked for every call.
      toolCalls.add(1, { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_OUTCOME]: outcome, [ATTR_GATED]: true });
      toolDuration.record(durationMs / 1000, { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION, [ATTR_OUTCOME]: outcome });
      const level = outcome === 'failed' ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const fields: Record<string, unknown> = {
        [ATTR_GEN_AI_TOOL_NAME]: toolName,
        [ATTR_OUTCOME]: outcome,
        [ATTR_RETRIES]: 0,
        [ATTR_REEXECUTIONS]: 0,
        [ATTR_TOOL_DURATION_MS]: Math.round(durationMs * 1000) / 1000,
        [ATTR_GEN_AI_TOOL_CALL_ID]: callId,
      };
      logger[level](withTrace(fields, span), `${LOG_MSG_TOOL_PREFIX} ${outcome}`);
    },
  };
}

function withTrace(fields: Record<string, unknown>, span: Span): Record<string, unknown> {
  const spanContext = span.spanContext();
  fields[LOG_TRACE_ID] = spanContext.traceId;
  fields[LOG_SPAN_ID] = spanContext.spanId;
  fields[LOG_TRACE_FLAGS] = spanContext.traceFlags.toString(16).padStart(2, '0');
  return fields;
}

/** A pino destination that drops every line, counting them (and keeping them when asked). */
export class DiscardingDestination {
  lines = 0;
  kept: string[] | undefined;

  write(line: string): void {
    this.lines += 1;
    this.kept?.push(line);
  }
}
