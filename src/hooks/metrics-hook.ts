/**
 * MetricsHook: turns the runner's observer events into the OpenTelemetry metrics listed in
 * docs/telemetry.md ("Metrics").
 */
import { metrics, ValueType } from '@opentelemetry/api';
import type { Attributes, Counter, Histogram, Meter, MeterProvider } from '@opentelemetry/api';
import { anything, object, readOptions, string } from '../internal/validate.js';
import type { ApprovalEvent, PhaseEvent, PhaseHookRecord, ToolEvent, ToolHook, ToolHookEvent, ToolMatcher } from '../hook.js';
import {
  APPROVAL_DURATION_BUCKETS,
  ATTR_APPROVAL_OUTCOME,
  ATTR_GATED,
  ATTR_DECISION,
  ATTR_DECISION_SHADOWED,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_TOOL_TYPE_FUNCTION,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  ATTR_LIMIT_LIMIT,
  ATTR_OUTCOME,
  ATTR_PHASE,
  HOOK_DURATION_BUCKETS,
  INSTRUMENTATION_NAME,
  METRIC_APPROVAL_DURATION,
  METRIC_APPROVAL_REQUESTS,
  METRIC_HOOK_DECISIONS,
  METRIC_HOOK_DURATION,
  METRIC_HOOK_ERRORS,
  METRIC_LIMIT_EXCEEDED,
  METRIC_TOOL_CALLS,
  METRIC_TOOL_DURATION,
  TOOL_DURATION_BUCKETS,
} from '../telemetry/semconv.js';
import { FollowGlobal } from '../telemetry/follow-global.js';
import { FailureCounter } from '../telemetry/warn-once.js';
import { VERSION } from '../version.js';
import type { MetricsHookOptions } from './types.js';

interface Instruments {
  readonly toolDuration: Histogram;
  readonly toolCalls: Counter;
  readonly hookDecisions: Counter;
  readonly hookErrors: Counter;
  readonly hookDuration: Histogram;
  readonly approvalRequests: Counter;
  readonly approvalDuration: Histogram;
  readonly limitExceeded: Counter;
}

/**
 * Records tool-call and hook metrics from the observer channel (`onEvent`): call counts and durations
 * by outcome (calls flagged `toolhooks.gated` when an enforce-mode hook saw them first), every hook
 * decision (shadowed ones flagged), swallowed hook errors, hook latency, and approvals by outcome
 * with the time spent waiting for them.
 * It issues no decisions, so its place in the hook list does not matter: it sees aborts raised by
 * hooks registered before it. Attributes are names and enums only (no reasons, no arguments), so the
 * series count stays bounded by tools × hooks × outcomes. It never throws.
 *
 * @example
 * ```ts
 * import { HookRunner } from 'toolhooks';
 * import { MetricsHook } from 'toolhooks/hooks';
 *
 * const hooks = new HookRunner([policyHook, new MetricsHook()]);
 * // Prometheus: sum(rate(toolhooks_tool_calls_total{toolhooks_outcome="aborted"}[5m]))
 * ```
 */
export class MetricsHook implements ToolHook {
  readonly name: string;
  readonly tools?: ToolMatcher;
  readonly #instruments: FollowGlobal<MeterProvider, Instruments> | { get(): Instruments };
  readonly #failures = new FailureCounter('the tool call is unaffected');

  constructor(options: MetricsHookOptions = {}) {
    const { meter, tools, name } = readOptions(options, 'MetricsHook(options)', 'MetricsHook', { meter: object, tools: anything, name: string }) as MetricsHookOptions;
    this.name = name ?? 'MetricsHook';
    if (tools !== undefined) this.tools = tools;
    if (meter === undefined) {
      this.#instruments = new FollowGlobal(
        () => metrics.getMeterProvider(),
        (provider) => createInstruments(provider.getMeter(INSTRUMENTATION_NAME, VERSION)),
      );
    } else {
      const fixed = createInstruments(meter);
      this.#instruments = { get: () => fixed };
    }
  }

  /** Records one observer event. Called by the runner; never throws. */
  onEvent(event: ToolHookEvent): void {
    try {
      const instruments = this.#instruments.get();
      if (event.type === 'tool') recordTool(instruments, event);
      else if (event.type === 'phase') recordPhase(instruments, event);
      else if (event.type === 'approval') recordApproval(instruments, event);
    } catch (error) {
      // Metrics must never disturb a tool call.
      this.#failures.report(`${this.name} could not record an event`, error);
    }
  }
}

function createInstruments(meter: Meter): Instruments {
  const counter = (name: string, description: string, unit: string): Counter =>
    meter.createCounter(name, { description, unit, valueType: ValueType.INT });
  const histogram = (name: string, description: string, buckets: readonly number[]): Histogram =>
    meter.createHistogram(name, { description, unit: 's', advice: { explicitBucketBoundaries: [...buckets] } });
  return {
    toolDuration: histogram(
      METRIC_TOOL_DURATION,
      'Duration of tool calls run through toolhooks, from the first hook to the result.',
      TOOL_DURATION_BUCKETS,
    ),
    toolCalls: counter(METRIC_TOOL_CALLS, 'Tool calls run through toolhooks, by outcome.', '{call}'),
    hookDecisions: counter(
      METRIC_HOOK_DECISIONS,
      'Decisions issued by hooks, one per invoked hook; shadowed ones lost to an earlier decision.',
      '{decision}',
    ),
    hookErrors: counter(
      METRIC_HOOK_ERRORS,
      'Hook failures (throw, timeout, invalid decision, unknown redirect target) the runner swallowed.',
      '{error}',
    ),
    hookDuration: histogram(METRIC_HOOK_DURATION, 'Duration of one hook method invocation.', HOOK_DURATION_BUCKETS),
    approvalRequests: counter(
      METRIC_APPROVAL_REQUESTS,
      'Approvals hooks asked for, by outcome; every outcome but approved denied the call.',
      '{request}',
    ),
    approvalDuration: histogram(
      METRIC_APPROVAL_DURATION,
      'Time tool calls spent waiting for an approval (the wait alone).',
      APPROVAL_DURATION_BUCKETS,
    ),
    limitExceeded: counter(METRIC_LIMIT_EXCEEDED, 'Tool calls a limit hook stopped (aborted, skipped or asked about).', '{call}'),
  };
}

function recordTool(instruments: Instruments, event: ToolEvent): void {
  // Two objects, never one mutated after use: the SDK keeps the first attributes object of each series.
  // A call recorded without any phase has no `gated`: neither gated nor ungated, it never pages ToolhooksUngatedCalls.
  instruments.toolCalls.add(
    1,
    event.gated === undefined
      ? { [ATTR_GEN_AI_TOOL_NAME]: event.toolName, [ATTR_OUTCOME]: event.outcome }
      : { [ATTR_GEN_AI_TOOL_NAME]: event.toolName, [ATTR_OUTCOME]: event.outcome, [ATTR_GATED]: event.gated },
  );
  if (!isDuration(event.durationMs)) return;
  const attributes: Attributes = {
    [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
    [ATTR_GEN_AI_TOOL_TYPE]: GEN_AI_TOOL_TYPE_FUNCTION,
    [ATTR_OUTCOME]: event.outcome,
  };
  if (event.errorType !== undefined) attributes[ATTR_ERROR_TYPE] = event.errorType;
  if (event.agentName !== undefined) attributes[ATTR_GEN_AI_AGENT_NAME] = event.agentName;
  instruments.toolDuration.record(event.durationMs / 1000, attributes);
}

function recordPhase(instruments: Instruments, event: PhaseEvent): void {
  for (const record of event.hooks) {
    if (isDuration(record.durationMs)) {
      instruments.hookDuration.record(record.durationMs / 1000, {
        [ATTR_PHASE]: event.phase,
        [ATTR_HOOK_NAME]: record.hook,
      });
    }
    if (record.decision === 'error') continue;
    if (stoppedByLimit(record)) {
      instruments.limitExceeded.add(1, { [ATTR_HOOK_NAME]: record.hook, [ATTR_GEN_AI_TOOL_NAME]: event.toolName });
    }
    instruments.hookDecisions.add(1, {
      [ATTR_PHASE]: event.phase,
      [ATTR_HOOK_NAME]: record.hook,
      [ATTR_DECISION]: record.decision,
      [ATTR_DECISION_SHADOWED]: record.shadowedBy !== undefined,
      [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
      [ATTR_HOOK_MODE]: record.mode ?? 'enforce',
    });
  }
  for (const failure of event.errors) {
    instruments.hookErrors.add(1, {
      [ATTR_PHASE]: event.phase,
      [ATTR_HOOK_NAME]: failure.hook,
      [ATTR_HOOK_ERROR_KIND]: failure.kind,
      [ATTR_HOOK_MODE]: failure.mode ?? 'enforce',
    });
  }
}

/**
 * Whether an enforced limit hook stopped the call: its decision carries the limit's attributes and is not
 * Continue (an audit hook's would-stop is counted by `toolhooks.hook.decisions` with its mode).
 */
function stoppedByLimit(record: PhaseHookRecord): boolean {
  return record.decision !== 'continue' && record.mode !== 'audit' && record.attributes?.[ATTR_LIMIT_LIMIT] !== undefined;
}

function recordApproval(instruments: Instruments, event: ApprovalEvent): void {
  instruments.approvalRequests.add(1, {
    [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
    [ATTR_HOOK_NAME]: event.hook,
    [ATTR_APPROVAL_OUTCOME]: event.outcome,
  });
  if (!isDuration(event.durationMs)) return;
  instruments.approvalDuration.record(event.durationMs / 1000, {
    [ATTR_GEN_AI_TOOL_NAME]: event.toolName,
    [ATTR_HOOK_NAME]: event.hook,
    [ATTR_APPROVAL_OUTCOME]: event.outcome,
  });
}

function isDuration(ms: number): boolean {
  return Number.isFinite(ms) && ms >= 0;
}
