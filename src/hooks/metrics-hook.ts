/**
 * MetricsHook: turns the runner's observer events into the OpenTelemetry metrics of SPEC §4.
 */
import { diag, metrics, ValueType } from '@opentelemetry/api';
import type { Attributes, Counter, Histogram, Meter, MeterProvider } from '@opentelemetry/api';
import type { PhaseEvent, ToolEvent, ToolHook, ToolHookEvent, ToolMatcher } from '../hook.js';
import {
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
  ATTR_OUTCOME,
  ATTR_PHASE,
  HOOK_DURATION_BUCKETS,
  INSTRUMENTATION_NAME,
  METRIC_HOOK_DECISIONS,
  METRIC_HOOK_DURATION,
  METRIC_HOOK_ERRORS,
  METRIC_TOOL_CALLS,
  METRIC_TOOL_DURATION,
  TOOL_DURATION_BUCKETS,
} from '../telemetry/semconv.js';
import { VERSION } from '../version.js';

/**
 * Options of {@link MetricsHook}.
 *
 * @example
 * ```ts
 * new MetricsHook({ meter: myMeterProvider.getMeter('toolhooks'), tools: /^db_/ });
 * ```
 */
export interface MetricsHookOptions {
  /**
   * The meter to record with. Default: `metrics.getMeter('toolhooks', VERSION)` from the global
   * MeterProvider, looked up again whenever the global provider changes, so a hook built before
   * `startTelemetry()` (or the app's own SDK) registers its provider still records into it.
   */
  readonly meter?: Meter;
  /** Which tools to record. Default: all tools. */
  readonly tools?: ToolMatcher;
  /** The hook's telemetry name. Default: `MetricsHook`. */
  readonly name?: string;
}

interface Instruments {
  readonly toolDuration: Histogram;
  readonly toolCalls: Counter;
  readonly hookDecisions: Counter;
  readonly hookErrors: Counter;
  readonly hookDuration: Histogram;
}

/**
 * Records tool-call and hook metrics from the observer channel (`onEvent`): call counts and durations
 * by outcome, every hook decision (shadowed ones flagged), swallowed hook errors and hook latency.
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
  readonly #fixedMeter: Meter | undefined;
  #provider: MeterProvider | undefined;
  #instruments: Instruments | undefined;
  #failures = 0;

  constructor(options: MetricsHookOptions = {}) {
    this.name = options.name ?? 'MetricsHook';
    if (options.tools !== undefined) this.tools = options.tools;
    this.#fixedMeter = options.meter;
    if (options.meter !== undefined) this.#instruments = createInstruments(options.meter);
  }

  /** Records one observer event. Called by the runner; never throws. */
  onEvent(event: ToolHookEvent): void {
    try {
      const instruments = this.#currentInstruments();
      if (event.type === 'tool') recordTool(instruments, event);
      else recordPhase(instruments, event);
    } catch (error) {
      // Metrics must never disturb a tool call; say so once, then count silently.
      if (this.#failures++ === 0) diag.warn(`toolhooks: ${this.name} could not record an event; further failures are not logged`, error);
    }
  }

  #currentInstruments(): Instruments {
    if (this.#fixedMeter !== undefined && this.#instruments !== undefined) return this.#instruments;
    const provider = metrics.getMeterProvider();
    if (provider !== this.#provider || this.#instruments === undefined) {
      this.#provider = provider;
      this.#instruments = createInstruments(provider.getMeter(INSTRUMENTATION_NAME, VERSION));
    }
    return this.#instruments;
  }
}

function createInstruments(meter: Meter): Instruments {
  return {
    toolDuration: meter.createHistogram(METRIC_TOOL_DURATION, {
      description: 'Duration of tool calls run through toolhooks, from the first hook to the result.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...TOOL_DURATION_BUCKETS] },
    }),
    toolCalls: meter.createCounter(METRIC_TOOL_CALLS, {
      description: 'Tool calls run through toolhooks, by outcome.',
      unit: '{call}',
      valueType: ValueType.INT,
    }),
    hookDecisions: meter.createCounter(METRIC_HOOK_DECISIONS, {
      description: 'Decisions issued by hooks, one per invoked hook; shadowed ones lost to an earlier decision.',
      unit: '{decision}',
      valueType: ValueType.INT,
    }),
    hookErrors: meter.createCounter(METRIC_HOOK_ERRORS, {
      description: 'Hook failures (throw, timeout, invalid decision, unknown redirect target) the runner swallowed.',
      unit: '{error}',
      valueType: ValueType.INT,
    }),
    hookDuration: meter.createHistogram(METRIC_HOOK_DURATION, {
      description: 'Duration of one hook method invocation.',
      unit: 's',
      advice: { explicitBucketBoundaries: [...HOOK_DURATION_BUCKETS] },
    }),
  };
}

function recordTool(instruments: Instruments, event: ToolEvent): void {
  // Two objects, never one mutated after use: the SDK keeps the first attributes object of each series.
  instruments.toolCalls.add(1, { [ATTR_GEN_AI_TOOL_NAME]: event.toolName, [ATTR_OUTCOME]: event.outcome });
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

function isDuration(ms: number): boolean {
  return Number.isFinite(ms) && ms >= 0;
}
