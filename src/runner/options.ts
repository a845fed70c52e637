/**
 * The runner's public options and per-call options, and how they are read: a misspelt option, or a
 * hook passed where the options belong, is a TypeError at construction naming the fix.
 * @internal (the option types are public, re-exported from the package entry)
 */
import type { Tracer } from '@opentelemetry/api';
import { quoteValue, typeName } from '../internal/describe.js';
import { isPlainObject } from '../decisions.js';
import type { Approver, FailureMode, Phase, ToolHook } from '../hook.js';
import type { HOOK_METHODS } from './misuse.js';
import { RUNNER_OPTION_HINTS, looksLikeHook, singleHookError } from './misuse.js';
import type { CaptureOptions } from '../telemetry/capture/options.js';
import { abortSignal, anything, boolean, count, duration, func, oneOf, readOptions, string, stringList } from '../internal/validate.js';
import type { AbortStatus, DecisionRecordsMode, VendorHint } from '../telemetry/decision-records.js';

/**
 * Options of a {@link HookRunner}.
 *
 * @example
 * ```ts
 * const runner = new HookRunner({ hooks: [policy], timeoutMs: 5_000, failureMode: 'closed', agentName: 'support-bot' });
 * ```
 */
export interface HookRunnerOptions<S = unknown> extends NotAHook {
  /** The hooks, run in this order. */
  hooks?: ToolHook<S>[];
  /** The tracer for phase and call spans. Default: `trace.getTracer('toolhooks', VERSION)` from the global API. */
  tracer?: Tracer;
  /** Per hook invocation, in milliseconds; 0 = none. Default 30 000. A hook's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** What a failing hook means: `'open'` (default) goes on, `'closed'` aborts the call. A hook's own wins. */
  failureMode?: FailureMode;
  /** What tool values may be recorded; default: none. */
  capture?: CaptureOptions;
  /** The agent the tool calls belong to, recorded as `gen_ai.agent.name`; a flow's own `agentName` wins. */
  agentName?: string;
  /**
   * Decides the calls a hook asks about (`ask(reason)`). Without one, every Ask is denied
   * (`no_approver`): a gate never fails open. See docs/protocol.md (Approvals).
   */
  approver?: Approver;
  /**
   * How long an approval may take, in milliseconds, before the call is denied as `expired`; 0 = no
   * limit. Default 300 000 (5 minutes); at most 2 147 483 647.
   */
  approvalTimeoutMs?: number;
  /**
   * Where each decision, shadowed decision and hook error is recorded: `'span-events'` (the default) on the
   * phase span; `'log-events'` as log-based events (an `eventName` and the same attributes, in the phase
   * span's context) through the registered LoggerProvider; `'both'`. Without a LoggerProvider, log events
   * fall back to span events, said once. See docs/telemetry.md ("Decision records as log events").
   */
  decisionRecords?: DecisionRecordsMode;
  /**
   * Conventions to follow besides toolhooks' own names. `guardrail: true` adds the GenAI guardrail draft's
   * attributes (`gen_ai.guardrail.verdict.type`, `…action.type`, …) to phase spans and decision records;
   * opt-in while the draft is open. See docs/telemetry.md ("Guardrail conventions").
   */
  conventions?: { guardrail?: boolean };
  /**
   * How an aborted or denied call's `execute_tool` span is marked: `'error'` (the default) with status
   * ERROR and `error.type`; `'unset'` leaves the status UNSET, sets no `error.type`, and marks it
   * `toolhooks.blocked = true`, so that a block does not count as a failure in APM error rates.
   */
  abortStatus?: AbortStatus;
  /** Backends' span kinds for phase spans: `'openinference'` (`GUARDRAIL`), `'langfuse'` (`guardrail`). */
  vendorHints?: readonly VendorHint[];
}

/** Hook members as `never`: a hook object passed as runner options does not type-check. */
type NotAHook = { readonly [K in (typeof HOOK_METHODS)[number] | 'name' | 'tools' | 'mode']?: never };

/** Per-call options of the run methods. */
export interface RunOptions {
  /** The tool call's id, passed to hooks and recorded as `gen_ai.tool.call.id` by the flows. */
  callId?: string;
  /** The executor attempt this phase belongs to (1-based). Default 1. */
  attempt?: number;
  /** Aborts every hook's `ctx.signal` when it aborts (e.g. the agent run was cancelled). */
  signal?: AbortSignal;
  /**
   * The tools a Redirect's `newTool` may name. When given, any other target is a hook error of kind
   * `invalid_redirect_target`. When omitted, every target is accepted.
   */
  knownTools?: ReadonlySet<string> | readonly string[];
}

/** Each runner option and its check; `hooks`, `tracer` and `capture` are checked further where they are read. */
const RUNNER_CHECKS = {
  hooks: anything,
  tracer: anything,
  timeoutMs: duration(0),
  failureMode: oneOf('open', 'closed'),
  capture: anything,
  agentName: string,
  approver: func,
  approvalTimeoutMs: duration(0),
  decisionRecords: oneOf('span-events', 'log-events', 'both'),
  conventions: (value: unknown, what: string) => readOptions(value, what, what, { guardrail: boolean }),
  abortStatus: oneOf('error', 'unset'),
  vendorHints: vendorHintList,
} as const;
const RUNNER_OPTIONS: readonly string[] = Object.keys(RUNNER_CHECKS);
const RUN_CHECKS = { callId: string, attempt: count(1), signal: abortSignal, knownTools: stringList } as const;

/** An array of vendor names toolhooks knows span kinds for. */
function vendorHintList(value: unknown, what: string): readonly VendorHint[] {
  const known: readonly unknown[] = ['openinference', 'langfuse'];
  const wrong = Array.isArray(value) ? value.find((item) => !known.includes(item)) : value;
  if (!Array.isArray(value) || wrong !== undefined) {
    throw new TypeError(`${what} must be an array of 'openinference' and 'langfuse', got ${quoteValue(wrong)}`);
  }
  return Object.freeze([...(value as VendorHint[])]);
}

/** Reads the constructor argument: an array of hooks, or options; anything else is a TypeError naming the fix. */
export function readRunnerOptions<S>(value: ToolHook<S>[] | HookRunnerOptions<S> | undefined): HookRunnerOptions<S> {
  if (value === undefined) return {};
  if (Array.isArray(value)) return { hooks: value };
  if (looksLikeHook(value)) throw singleHookError(value);
  if (!isPlainObject(value)) {
    throw new TypeError(`HookRunner takes an array of hooks or an options object ({ hooks, ... }), got ${typeName(value)}`);
  }
  for (const key of Object.keys(value)) {
    // `{ policy }` in JavaScript: a hook under its variable's name instead of in `hooks`. Only an unknown
    // key's value is read here; each known option is read once, below.
    if (!RUNNER_OPTIONS.includes(key) && looksLikeHook((value as Record<string, unknown>)[key])) {
      throw new TypeError(`HookRunner: option ${JSON.stringify(key)} is a hook, not an option; pass { hooks: [${key}] }`);
    }
  }
  // The checked snapshot, never the caller's object again: an option read twice could change in between.
  return readOptions(value, 'HookRunner(options)', 'HookRunner', RUNNER_CHECKS, RUNNER_OPTION_HINTS) as HookRunnerOptions<S>;
}

/** Checks the arguments of a public run method (a TypeError names the parameter); returns the checked options. */
export function checkRunCall(phase: Phase, toolName: unknown, args: unknown, opts: unknown): RunOptions {
  const method = PHASE_API[phase];
  if (typeof toolName !== 'string' || toolName.length === 0) {
    throw new TypeError(
      `HookRunner.${method}: toolName must be a non-empty string, got ${typeof toolName === 'string' ? 'an empty string' : typeName(toolName)}`,
    );
  }
  if (!isPlainObject(args)) {
    throw new TypeError(`HookRunner.${method}: args must be a plain object of tool arguments, got ${typeName(args)}`);
  }
  return readOptions(opts, `HookRunner.${method}: opts ({ callId, attempt, signal, knownTools })`, `HookRunner.${method}`, RUN_CHECKS) as RunOptions;
}

const PHASE_API = { before_tool: 'runBefore', after_tool: 'runAfter', on_error: 'runError' } as const;
