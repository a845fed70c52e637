/**
 * The public types of `toolhooks/replay`: what {@link replay} takes and what it resolves to.
 */
import type { DecisionKind, HookRunner, HookRunnerOptions, ToolHook } from '../index.js';

/**
 * The hooks to replay: an array of hooks, a {@link HookRunner}, or runner options (`{ hooks, timeoutMs,
 * failureMode }`). A runner's own `timeoutMs` and `failureMode` cannot be read back from it; pass options
 * (or set them on each hook) when they matter.
 */
export type ReplayHooks<S = unknown> = readonly ToolHook<S>[] | HookRunner<S> | HookRunnerOptions<S>;

/** Options of {@link replay}. */
export interface ReplayOptions<S = unknown> {
  /** The hooks (the new policy) to run against the recorded calls. */
  hooks: ReplayHooks<S>;
  /**
   * Where the recorded traces are: a file path, an `http(s)://` URL, or `-` for standard input. The
   * content is OTLP/JSON: one object, one object per line (the OTel Collector's file exporter), or a
   * Jaeger `/api/v3/traces` response.
   */
  source: string | URL;
  /** The agent state given to every hook (recorded traces hold none). Default `undefined`. */
  state?: S;
  /** How long fetching a URL source may take, in milliseconds. Default 30 000. */
  fetchTimeoutMs?: number;
  /**
   * The most bytes read from the source (file, URL or standard input); a larger source is rejected
   * with a {@link ReplayInputError} before it fills memory. JSON lines are parsed as they arrive, so
   * only their spans are held; one big object is held whole up to this bound. Default 268 435 456
   * (256 MiB); the CLI's `--max-bytes`.
   */
  maxSourceBytes?: number;
}

/** A phase's effective decision and the hook that won it (`null` for `continue`). */
export interface RecordedDecision {
  readonly decision: DecisionKind;
  readonly hook: string | null;
}

/** A replayed phase's effective decision, its winning hook and its reason (`null` for `continue`). */
export interface ReplayedDecision {
  readonly decision: DecisionKind;
  readonly hook: string | null;
  readonly reason: string | null;
}

/**
 * Why a call's replay may differ from what the live call would decide today: its recorded arguments
 * (or result) held `[REDACTED]` values, or strings or containers cut by the capture limits.
 */
export type ReplayFlag = 'redacted' | 'truncated';

/** One phase of one recorded call whose effective decision or winning hook changed. */
export interface ReplayChange {
  readonly traceId: string;
  readonly spanId: string;
  readonly tool: string;
  readonly callId: string | null;
  readonly recorded: RecordedDecision;
  readonly replayed: ReplayedDecision;
  /** `before_tool`, or `after_tool` for a call whose captured result was replayed too. */
  readonly phase: 'before_tool' | 'after_tool';
  /** Set when the values the hooks were given held redacted or truncated parts; empty otherwise. */
  readonly flags: readonly ReplayFlag[];
}

/** A hook that failed while a recorded call was replayed (the runner swallowed it, or aborted when fail-closed). */
export interface ReplayHookError {
  readonly traceId: string;
  readonly spanId: string;
  readonly tool: string;
  readonly callId: string | null;
  readonly phase: 'before_tool' | 'after_tool';
  readonly hook: string;
  /** `threw`, `timeout`, `invalid_decision` or `invalid_redirect_target`. */
  readonly kind: string;
  readonly message: string;
}

/**
 * What a replay found. `calls` = recorded `execute_tool` spans; `replayed` + `notReplayable` = `calls`;
 * `unchanged` = replayed calls none of whose phases changed; `changed` lists each changed phase.
 */
export interface ReplayReport {
  readonly calls: number;
  readonly replayed: number;
  readonly notReplayable: number;
  readonly unchanged: number;
  readonly changed: readonly ReplayChange[];
  /**
   * How the before_tool decision moved, counted per flip class (`{ "abort→continue": 1, "continue→ask": 2 }`):
   * the changes whose before_tool decision differs, in the order their classes first appear.
   */
  readonly flips: Readonly<Record<string, number>>;
  /**
   * How many replayed calls loosened: recorded as stopped in before_tool (abort, skip, ask — a denied call
   * was asked) and now continuing or redirected. What `toolhooks replay --fail-on loosened` gates on.
   */
  readonly loosened: number;
  readonly hookErrors: readonly ReplayHookError[];
}
