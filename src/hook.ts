/**
 * The hook interface: what a user implements to take part in tool calls, and what it is given.
 */
import type { DecisionKind, HookDecision } from './decisions.js';
import type { HookNearMisses } from './hook-near-misses.js';

/** A tool call's arguments. */
export type ToolArgs = Record<string, unknown>;

/** A value, or a promise of it: hooks may be synchronous or asynchronous. */
export type MaybePromise<T> = T | Promise<T>;

/** The runner phase a hook method belongs to. */
export type Phase = 'before_tool' | 'after_tool' | 'on_error';

/**
 * How a hook failed:
 * - `threw`: it threw or its promise rejected (with any value);
 * - `timeout`: it did not settle within its timeout;
 * - `invalid_decision`: it returned something that is not a well-formed decision;
 * - `invalid_redirect_target`: it redirected to a tool the flow does not know.
 */
export type HookErrorKind = 'threw' | 'timeout' | 'invalid_decision' | 'invalid_redirect_target';

/**
 * How a tool call ended:
 * - `completed`: the tool ran and its result stands (after any re-executions, or replaced by an
 *   after_tool Replace);
 * - `skipped`: a before_tool Skip returned a stub instead;
 * - `recovered`: the tool failed and an onError Skip or a retry produced the result;
 * - `aborted`: a {@link HookAbortError} ended the call;
 * - `failed`: the tool's error escaped;
 * - `denied`: a hook asked for approval and did not get it; the tool never ran;
 * - `pending`: a hook asked and the adapter handed the approval to its framework (the AI SDK's
 *   `tool-approval-request`, an interruption): the tool did not run in this call; the framework's
 *   continuation is a second call that records the answer (docs/adapters.md).
 */
export type Outcome = 'completed' | 'skipped' | 'recovered' | 'aborted' | 'failed' | 'denied' | 'pending';

/**
 * How an approval ended. Every outcome but `approved` denies the call (fail closed):
 * - `approved`: the approver approved;
 * - `denied`: the approver refused;
 * - `expired`: no answer within `approvalTimeoutMs`, or the call's signal aborted the wait;
 * - `error`: the approver threw, or answered something that is not an {@link ApprovalResponse};
 * - `no_approver`: there was no way to ask (no `approver` on the runner, none from the adapter);
 * - `pending`: the adapter handed the request to its framework's approval flow; the call that asked
 *   ends without running the tool, and the continuation records `approved` or `denied`.
 */
export type ApprovalOutcome = 'approved' | 'denied' | 'expired' | 'error' | 'no_approver' | 'pending';

/**
 * What an {@link Approver} is asked: the tool and arguments the call would run (after the other hooks'
 * Redirect, if any), why, and by which hook.
 *
 * @example
 * ```ts
 * const approver: Approver = (request) => {
 *   console.log(`${request.hook} asks: run ${request.toolName} ${request.redactedArgs}? (${request.reason})`);
 *   return { approved: false, reason: 'nobody here' };
 * };
 * ```
 */
export interface ApprovalRequest {
  /** Unique per approval; the `toolhooks.approval.id` the call's telemetry links back to. */
  readonly id: string;
  /** The tool the call would run. */
  readonly toolName: string;
  /** The arguments the call would run with (a copy: changing it changes nothing; answer with `args` to edit). */
  readonly args: ToolArgs;
  /**
   * The arguments as JSON with the runner's redaction rules applied (secret-looking keys `[REDACTED]`,
   * long strings cut): what to show a person, whether or not `capture.args` is on.
   */
  readonly redactedArgs: string;
  /** The asking hook's reason. */
  readonly reason: string;
  /** The asking hook's name. */
  readonly hook: string;
  /** The tool call's id, when the caller knows it. */
  readonly callId?: string;
  /** Aborts when the wait is over (timeout, or the call's signal): stop asking and return. */
  readonly signal: AbortSignal;
}

/**
 * An approver's answer. `approved: true` may edit the arguments (`args`, merged over the call's like a
 * Redirect's `newArgs`, and recorded as `toolhooks.approval.edited`); `approved: false` may say why.
 * `approver` is an opaque reference to who decided (`"on-call"`, a user id), recorded as
 * `toolhooks.approval.approver`: never put personal data there that your telemetry must not hold.
 *
 * @example
 * ```ts
 * const yes: ApprovalResponse = { approved: true, approver: 'on-call' };
 * const no: ApprovalResponse = { approved: false, reason: 'not during the freeze', approver: 'on-call' };
 * ```
 */
export type ApprovalResponse =
  | { readonly approved: true; readonly args?: ToolArgs; readonly approver?: string }
  | { readonly approved: false; readonly reason?: string; readonly approver?: string };

/**
 * Decides whether a call that a hook asked about may run. Anything but `{ approved: true }` — a
 * refusal, a throw, a junk answer, no answer within `approvalTimeoutMs` — denies the call.
 * Calls wait independently: an approver may be asked about several calls at once.
 *
 * @example
 * ```ts
 * const runner = new HookRunner({
 *   hooks: [{ name: 'mail-gate', beforeTool: (tool) => (tool === 'send_email' ? ask('outgoing mail') : undefined) }],
 *   approver: async (request) => ((await slack.confirm(request.reason)) ? { approved: true, approver: 'slack' } : { approved: false }),
 *   approvalTimeoutMs: 60_000,
 * });
 * ```
 */
export type Approver = (request: ApprovalRequest) => MaybePromise<ApprovalResponse>;

/** What to do when a hook throws, times out or returns junk: go on (`open`) or abort the call (`closed`). */
export type FailureMode = 'open' | 'closed';

/**
 * How a hook takes part: `'enforce'` (default) decisions take effect; `'audit'` decisions are recorded
 * (as "would abort", "would skip"…) and never take effect — to learn what a new policy would do before
 * it does it.
 */
export type HookMode = 'enforce' | 'audit';

/** Which tools a hook applies to: a list of names, a pattern, or a predicate. */
export type ToolMatcher = readonly string[] | RegExp | ((toolName: string) => boolean);

/** What a hook method is given besides the call itself. */
export interface HookContext {
  /** Aborted when the hook's timeout expires (or the caller's signal aborts): stop work when it fires. */
  readonly signal: AbortSignal;
  /** The phase being run. */
  readonly phase: Phase;
  /** The executor attempt this phase belongs to (1 for the first run). */
  readonly attempt: number;
  /** The tool call's id, when the caller knows it (e.g. the model's tool call id). */
  readonly callId?: string;
  /** The agent the call belongs to (`agentName` of the flow, else of the runner), when known. */
  readonly agentName?: string;
}

/** One invoked hook's part in a phase, as observers see it. */
export interface PhaseHookRecord {
  /** The hook's telemetry name. */
  readonly hook: string;
  /** What it decided, or `'error'` when it failed. */
  readonly decision: DecisionKind | 'error';
  /** Its reason, for a decision that has one. */
  readonly reason?: string;
  /** The redirect target tool, for a Redirect with `newTool`. */
  readonly newTool?: string;
  /** A Redirect's `newArgs` as redacted JSON; only with `capture.args` on. */
  readonly newArgs?: string;
  /** How long it took. */
  readonly durationMs: number;
  /** `'audit'` for a hook whose decisions are recorded and never take effect; else `'enforce'`. Always set by the runner. */
  readonly mode?: HookMode;
  /** The hook whose decision won over this one, when this decision was shadowed. */
  readonly shadowedBy?: string;
  /**
   * Telemetry attributes the hook attached to its decision, as on its `toolhooks.hook.decision` event
   * (a limit hook's `toolhooks.limit.used`, `.limit`, `.window_ms`); absent for most hooks.
   */
  readonly attributes?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
}

/** A decision that lost to an earlier one in the same phase. */
export interface ShadowedDecision {
  readonly hook: string;
  readonly decision: DecisionKind;
  readonly reason?: string;
}

/**
 * What telemetry records of an error, the same in every signal: the `exception.type`,
 * `exception.message` and `exception.stacktrace` of a `toolhooks.hook.error` span event, the `err` of
 * a LoggingHook record. The message and stack are cut to the capture's `maxLength` and scrubbed of the
 * call's argument values (every value with capture of arguments off, values under redacted keys with
 * it on), so an error that quotes the tool's input leaks none of it. See docs/capture.md.
 *
 * @example
 * ```ts
 * // { type: 'ToolInvocationError', message: 'Error invoking tool \'login\' with kwargs {"password":"[REDACTED]"} …' }
 * ```
 */
export interface RecordedError {
  /** An Error's class name, else the thrown value's `typeof` (`null` for null). */
  readonly type: string;
  /** The message, scrubbed and cut to `maxLength` with a `…[truncated N]` marker. */
  readonly message: string;
  /** An Error's stack, scrubbed and cut the same way, when it has one. */
  readonly stacktrace?: string;
}

/** A hook failure the runner swallowed. */
export interface HookFailure {
  readonly hook: string;
  readonly kind: HookErrorKind;
  /**
   * What was thrown, or a HookTimeoutError, InvalidHookDecisionError or InvalidRedirectTargetError.
   * Raw: it may hold anything, argument values included. Record `exception` instead.
   */
  readonly error: unknown;
  /** The failing hook's mode (an audit hook's failure never aborts the call). Always set by the runner. */
  readonly mode?: HookMode;
  /** The error as telemetry records it: bounded and scrubbed. Always set by the runner. */
  readonly exception?: RecordedError;
}

/** The outcome of one runner phase, delivered to every observer (`onEvent`). */
export interface PhaseEvent {
  readonly type: 'phase';
  readonly phase: Phase;
  readonly toolName: string;
  /** The decision the phase returned (an after_tool Skip shows as `continue`). */
  readonly decision: DecisionKind;
  /** The hook whose decision won, when it is not `continue`. */
  readonly winner?: string;
  readonly hooks: readonly PhaseHookRecord[];
  readonly shadowed: readonly ShadowedDecision[];
  readonly errors: readonly HookFailure[];
  readonly durationMs: number;
  readonly callId?: string;
}

/** The outcome of one flow call (one `execute_tool` span), delivered to every observer. */
export interface ToolEvent {
  readonly type: 'tool';
  readonly toolName: string;
  /** The tool that produced the result: differs from `toolName` after a Redirect with `newTool`. */
  readonly effectiveToolName: string;
  readonly outcome: Outcome;
  readonly durationMs: number;
  /** `HookAbortError`, the error's class name, or `_OTHER`, for `aborted` and `failed`. */
  readonly errorType?: string;
  /** The abort reason, for `aborted`, cut to the capture's `maxLength` like every recorded reason. */
  readonly reason?: string;
  readonly retries: number;
  readonly reexecutions: number;
  readonly callId?: string;
  /** The agent the call belongs to (`agentName` of the flow, else of the runner), when known. */
  readonly agentName?: string;
  /**
   * Whether an enforce-mode hook was invoked in the call's before_tool phase: a call no hook could
   * have stopped is ungated (`toolhooks.gated` on `toolhooks.tool.calls`). Set by the runner for every
   * call a phase ran for; absent for a call recorded without any (a malformed call the framework
   * rejected, a rejection the framework reports without its arguments that this process did not ask
   * about), which is neither gated nor ungated.
   */
  readonly gated?: boolean;
  /** How the approval ended, when a hook asked for one. */
  readonly approval?: ApprovalOutcome;
  /** Whether an after_tool Replace supplied the result. */
  readonly replaced?: boolean;
  /** The call's arguments as redacted JSON; only with `capture.args` on. */
  readonly arguments?: string;
  /** The call's result as redacted JSON; only with `capture.results` on and a call that returned. */
  readonly result?: string;
}

/** The end of one approval wait, delivered to every observer. */
export interface ApprovalEvent {
  readonly type: 'approval';
  /** The tool the call would run (after the other hooks' Redirect, if any). */
  readonly toolName: string;
  /** The approval's id (`toolhooks.approval.id`). */
  readonly id: string;
  /** The asking hook. */
  readonly hook: string;
  /** The asking hook's reason, cut to the capture's `maxLength`. */
  readonly reason: string;
  readonly outcome: ApprovalOutcome;
  /** The approver's opaque reference, when it gave one. */
  readonly approver?: string;
  /** The approver's reason for a refusal, when it gave one. */
  readonly denialReason?: string;
  /** Whether the approver edited the arguments. */
  readonly edited: boolean;
  /** For `error`: what the approver threw, or a TypeError describing the junk it answered. */
  readonly error?: unknown;
  /**
   * For `error`: the error as recorded — type, message and stack bounded, with the call's argument values
   * scrubbed out as in every other signal (what LoggingHook logs). Set by the runner.
   */
  readonly exception?: RecordedError;
  /** How long the wait took. */
  readonly durationMs: number;
  readonly callId?: string;
}

/** What observers (`onEvent`) receive. */
export type ToolHookEvent = PhaseEvent | ToolEvent | ApprovalEvent;

/**
 * A hook around tool calls. Every member is optional; methods may be sync or async and may return
 * nothing (meaning Continue).
 *
 * @typeParam S - the agent state passed through to hooks.
 * @example
 * ```ts
 * const policy: ToolHook = {
 *   name: 'policy',
 *   tools: ['shell'],
 *   failureMode: 'closed',
 *   beforeTool(tool, args) {
 *     if (String(args.cmd).startsWith('rm ')) return abort('destructive shell command');
 *   },
 * };
 * ```
 */
export interface ToolHook<S = unknown> extends HookNearMisses {
  /** The name used in telemetry. Default: the constructor name (not `Object`), else `hook#<index>`. */
  readonly name?: string;
  /**
   * `'audit'` runs the hook in its place with the same matcher, timeout and validation and records
   * what it decides, but its decisions never take effect and its failures never abort. Default `'enforce'`.
   */
  readonly mode?: HookMode;
  /** Which tools this hook applies to (its decision methods and `onEvent`). Default: all tools. */
  readonly tools?: ToolMatcher;
  /** Overrides the runner's per-invocation timeout, in milliseconds; 0 means none. */
  readonly timeoutMs?: number;
  /** Overrides the runner's failure mode; `'closed'` turns a crash or timeout into an Abort. */
  readonly failureMode?: FailureMode;
  beforeTool?(toolName: string, args: ToolArgs, state: S, ctx: HookContext): MaybePromise<HookDecision | void>;
  afterTool?(
    toolName: string,
    args: ToolArgs,
    result: unknown,
    state: S,
    durationMs: number,
    ctx: HookContext,
  ): MaybePromise<HookDecision | void>;
  onError?(toolName: string, args: ToolArgs, error: unknown, state: S, ctx: HookContext): MaybePromise<HookDecision | void>;
  /**
   * Observer channel: sees every phase outcome and every tool outcome, whatever this hook's place in
   * the chain. Called synchronously in the span context of the phase or call; what it throws is
   * recorded and swallowed.
   */
  onEvent?(event: ToolHookEvent): void;
}
