/**
 * Recorded tool calls: each `execute_tool` span with what replay needs from it and from its phase
 * spans (`toolhooks.before_tool`, `toolhooks.after_tool`, `toolhooks.execute` children).
 * @internal
 */
import type { DecisionKind } from '../index.js';
import { isDecisionKind } from '../decisions.js';
import {
  ATTR_ATTEMPT,
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_OUTCOME,
  ATTR_TOOL_EFFECTIVE_NAME,
  GEN_AI_OPERATION_EXECUTE_TOOL,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../telemetry/semconv.js';
import type { RecordedSpan } from './otlp-json.js';
import type { RecordedDecision } from './types.js';

/** One recorded `execute_tool` span. */
export interface RecordedCall {
  readonly traceId: string;
  readonly spanId: string;
  readonly startNs: bigint;
  readonly tool: string;
  readonly callId: string | null;
  /** `gen_ai.tool.call.arguments` (JSON), when capture was on. */
  readonly arguments: string | undefined;
  /** `gen_ai.tool.call.result` (JSON), when results capture was on and the call returned. */
  readonly result: string | undefined;
  /** `toolhooks.outcome`. */
  readonly outcome: string | undefined;
  /** The tool that produced the result (`toolhooks.tool.effective_name` after a Redirect, else `tool`). */
  readonly effectiveTool: string;
  /** The first before_tool phase; `continue` (hook null) when no hook was invoked. */
  readonly before: RecordedDecision;
  /** The last after_tool phase (the one that saw the captured result), when one was recorded. */
  readonly after: RecordedDecision | undefined;
  /** Duration of the last executor run, in milliseconds (0 when not recorded). */
  readonly executeMs: number;
  /** The last executor run's attempt number (1 when not recorded). */
  readonly attempt: number;
}


function isExecuteTool(span: RecordedSpan): boolean {
  const operation = span.attributes.get(ATTR_GEN_AI_OPERATION_NAME);
  if (operation !== undefined) return operation === GEN_AI_OPERATION_EXECUTE_TOOL;
  return span.name.startsWith(`${SPAN_EXECUTE_TOOL_PREFIX} `);
}

const PHASE_SPANS: readonly string[] = [SPAN_BEFORE_TOOL, SPAN_AFTER_TOOL, SPAN_EXECUTE];

/** Whether replay reads the span: a tool call, or one of its phases (everything else in a trace is not held). */
export function isReplaySpan(span: RecordedSpan): boolean {
  return isExecuteTool(span) || PHASE_SPANS.includes(span.name);
}

function text(span: RecordedSpan, key: string): string | undefined {
  const value = span.attributes.get(key);
  return typeof value === 'string' ? value : undefined;
}

function phaseDecision(span: RecordedSpan | undefined): RecordedDecision {
  if (span === undefined) return { decision: 'continue', hook: null };
  const kind = text(span, ATTR_DECISION);
  const decision: DecisionKind = isDecisionKind(kind) ? kind : 'continue';
  return { decision, hook: decision === 'continue' ? null : (text(span, ATTR_DECISION_HOOK) ?? null) };
}

function byStart(a: RecordedSpan, b: RecordedSpan): number {
  return a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0;
}

/** The recorded calls, in start order. */
export function recordedCalls(spans: readonly RecordedSpan[]): RecordedCall[] {
  const children = new Map<string, RecordedSpan[]>();
  for (const span of spans) {
    if (span.parentSpanId === '') continue;
    const key = `${span.traceId}/${span.parentSpanId}`;
    const list = children.get(key);
    if (list === undefined) children.set(key, [span]);
    else list.push(span);
  }
  const calls: RecordedCall[] = [];
  for (const span of spans) {
    if (!isExecuteTool(span)) continue;
    const kids = [...(children.get(`${span.traceId}/${span.spanId}`) ?? [])].sort(byStart);
    const befores = kids.filter((kid) => kid.name === SPAN_BEFORE_TOOL);
    const afters = kids.filter((kid) => kid.name === SPAN_AFTER_TOOL);
    const executes = kids.filter((kid) => kid.name === SPAN_EXECUTE);
    const lastExecute = executes[executes.length - 1];
    const tool = text(span, ATTR_GEN_AI_TOOL_NAME) ?? span.name.slice(SPAN_EXECUTE_TOOL_PREFIX.length + 1);
    const attempt = lastExecute?.attributes.get(ATTR_ATTEMPT);
    calls.push({
      traceId: span.traceId,
      spanId: span.spanId,
      startNs: span.startNs,
      tool,
      callId: text(span, ATTR_GEN_AI_TOOL_CALL_ID) ?? null,
      arguments: text(span, ATTR_GEN_AI_TOOL_CALL_ARGUMENTS),
      result: text(span, ATTR_GEN_AI_TOOL_CALL_RESULT),
      outcome: text(span, ATTR_OUTCOME),
      effectiveTool: text(span, ATTR_TOOL_EFFECTIVE_NAME) ?? tool,
      before: phaseDecision(befores[0]),
      after: afters.length === 0 ? undefined : phaseDecision(afters[afters.length - 1]),
      executeMs:
        lastExecute !== undefined && lastExecute.endNs > lastExecute.startNs
          ? Number(lastExecute.endNs - lastExecute.startNs) / 1e6
          : 0,
      attempt: typeof attempt === 'number' && Number.isSafeInteger(attempt) && attempt >= 1 ? attempt : 1,
    });
  }
  // A stable sort: calls that started in the same clock tick (the JS SDK's start times are whole
  // milliseconds) keep the source's order, which differs between sources (a file keeps export order,
  // Jaeger its own).
  return calls.sort((a, b) => (a.startNs === b.startNs ? 0 : a.startNs < b.startNs ? -1 : 1));
}
