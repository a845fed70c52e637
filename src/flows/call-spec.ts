/**
 * What a call is about (`CallSpec`, built by the flow or adapter that makes the call) and what a call
 * hands the runner for each of its phases (`CallPhaseRequest`, the base of the call itself): the
 * requested tool as a known Redirect target, the call's tally, its frozen argument copy and its
 * error-text scrubber.
 * @internal
 */
import type { Attributes, Span } from '@opentelemetry/api';
import type { Skip } from '../decisions.js';
import type { Approver, Phase, ToolArgs } from '../hook.js';
import type { RunnerCore } from '../runner/core.js';
import type { CallTally, PhaseRequest } from '../runner/phase-request.js';
import type { ArgsCopy } from '../runner/read-only-args.js';
import type { ApprovalRecord } from '../runner/approvals.js';
import type { ErrorScrubber } from '../telemetry/capture/error-text.js';
import type { ApprovalHandoff } from '../runner/handoff.js';
import type { HeldBefore } from './before-ahead.js';

/** What a call is about; one object, built by the flow or adapter that makes the call. */
export interface CallSpec<S> {
  readonly core: RunnerCore<S>;
  readonly toolName: string;
  readonly args: ToolArgs;
  readonly state: S;
  readonly callId?: string | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The flow's agent name; the runner's is used when absent. */
  readonly agentName?: string | undefined;
  readonly toolDescription?: string | undefined;
  /** More attributes for the `execute_tool` span at start (an adapter's protocol attributes). */
  readonly attributes?: Attributes | undefined;
  /**
   * The framework's own `execute_tool` span for this call, already started and active (the AI SDK's
   * `@ai-sdk/otel`): the call records on it instead of starting a second one, and leaves ending it
   * to the framework.
   */
  readonly span?: Span | undefined;
  /**
   * `span` is not this call's own but an outer `execute_tool` span that covers it (the MCP adapter's
   * `span: 'outer'`): only the adapter's protocol `attributes` are added to it at start, so it keeps its
   * own name and `gen_ai.*` identity.
   */
  readonly outer?: boolean | undefined;
  /** Whether a Redirect may name a tool; undefined accepts every target. */
  readonly isRedirectTarget?: ((tool: string) => boolean) | undefined;
  /** A flow's own check of a Skip's stub. */
  readonly checkSkip?: ((decision: Skip) => string | undefined) | undefined;
  /** An adapter's own way to ask for approval (its framework's); wins over the runner's `approver`. */
  readonly approver?: Approver | undefined;
  /** An adapter that hands approvals to its framework's own flow: the asking call, or the continuation. */
  readonly handoff?: ApprovalHandoff | undefined;
  /** The call's before_tool phase, already run ahead of the call (runBeforeAhead): used instead of running it again. */
  readonly before?: HeldBefore | undefined;
  /**
   * A call recorded without any phase of its own (the framework rejected it, or answered its
   * approval without running it): what an earlier pass of it tallied — `gated` undefined when none
   * ran here, and then its tool event carries no `gated`, so it never counts as ungated.
   */
  readonly tallied?: { readonly gated: boolean | undefined } | undefined;
}

/**
 * What a call's phases are asked about — the call's phase request, its tally and its frozen argument
 * copy in one object — and the base of {@link ToolCall}: a call is its own phase request, tally and
 * cache (why: docs/decisions/2026-12-02-one-object-per-call.md). Before each phase the call is
 * rewritten for it ({@link CallPhaseRequest.askAbout}).
 */
export class CallPhaseRequest implements PhaseRequest, CallTally, ArgsCopy {
  // No class fields here (every field is `declare`d and written by the constructor, and the private ones
  // are TypeScript's `private`, not `#`): a base class with class fields made each call's construction,
  // with ToolCall's own fields after them, ~20 ns dearer in V8 (docs/performance.md, "Twelfth round").
  declare phase: Phase;
  /** The tool of the phase in progress: the requested one in before_tool, the one that ran after it. */
  declare toolName: string;
  /** The arguments of the phase in progress (a Redirect's, once one applied). */
  declare args: ToolArgs;
  declare value: unknown;
  declare durationMs: number;
  declare attempt: number;
  /** The agent the call belongs to: the flow's `agentName`, else the runner's. */
  declare readonly agentName: string | undefined;
  /** Whether the call's span records; set by the call once its span is started. */
  declare traced: boolean;
  /** CallTally: swallowed hook errors over all phases. */
  declare hookErrors: number;
  /** CallTally: whether an enforce-mode hook was invoked in before_tool. */
  declare gated: boolean;
  /** CallTally: how the call's approval ended, once before_tool settled one. */
  declare approval: ApprovalRecord | undefined;
  /** ArgsCopy: the arguments the frozen copy for hooks was made of, and the copy. */
  declare source: ToolArgs | undefined;
  declare copy: ToolArgs | undefined;
  /** The call's error-text scrubber, once an error was described (see scrubber). */
  declare private errorScrubber: ErrorScrubber | undefined;
  /** Arguments the tool ran with that the scrubber is told about when it is made (see runsWith). */
  declare private ranWith: Readonly<ToolArgs> | undefined;
  /** The call's spec, read through the getters below rather than copied field by field (docs/decisions/2026-12-02-one-object-per-call.md). */
  declare private readonly spec: CallSpec<unknown>;

  constructor(spec: CallSpec<unknown>) {
    // The call starts as the request of its first phase: the requested tool and arguments in before_tool.
    this.askAbout('before_tool', spec.toolName, spec.args, 1, undefined, 0);
    this.agentName = spec.agentName ?? spec.core.agentName;
    this.traced = false;
    // What the phase run ahead of the call tallied (CallSpec.before) is the call's.
    const held = spec.before?.tally;
    this.hookErrors = held === undefined ? 0 : held.hookErrors;
    this.gated = spec.tallied?.gated ?? (held === undefined ? false : held.gated);
    this.approval = held?.approval;
    this.source = undefined;
    this.copy = undefined;
    this.errorScrubber = undefined;
    this.ranWith = undefined;
    this.spec = spec;
  }

  /**
   * The rewrite between phases: the call becomes the request of its next phase. Phases run one after
   * another and an asynchronous one reads these fields until it settles, so no phase sees another's;
   * `value` is after_tool's result or on_error's error, `durationMs` after_tool's.
   */
  askAbout(phase: Phase, toolName: string, args: ToolArgs, attempt: number, value: unknown, durationMs: number): void {
    this.phase = phase;
    this.toolName = toolName;
    this.args = args;
    this.attempt = attempt;
    this.value = value;
    this.durationMs = durationMs;
  }

  /** The requested tool (before any Redirect). */
  get requestedTool(): string {
    return this.spec.toolName;
  }

  /** The arguments the call was made with (before any Redirect). */
  get requestedArgs(): ToolArgs {
    return this.spec.args;
  }

  get state(): unknown {
    return this.spec.state;
  }

  get callId(): string | undefined {
    return this.spec.callId;
  }

  get signal(): AbortSignal | undefined {
    return this.spec.signal;
  }

  get approver(): Approver | undefined {
    return this.spec.approver;
  }

  get handoff(): ApprovalHandoff | undefined {
    return this.spec.handoff;
  }

  /** Whether `gated` says something: false for a call recorded without any phase, when no earlier pass ran here. */
  get gateKnown(): boolean {
    const tallied = this.spec.tallied;
    return tallied === undefined || tallied.gated !== undefined;
  }

  /** When the call names its known tools: one shared function, called as the request's method (`rules.isRedirectTarget(target)`), not a closure per call. */
  get isRedirectTarget(): ((tool: string) => boolean) | undefined {
    return this.spec.isRedirectTarget === undefined ? undefined : knownOrRequested;
  }

  /** The call is its own tally: what its phases learn about it. */
  get tally(): CallTally {
    return this;
  }

  /** The call is its own cache of the hooks' frozen argument copy, shared by its phases. */
  get argsCopy(): ArgsCopy {
    return this;
  }

  /** The requested tool is always a known target: a Redirect back to it after an earlier one switched away. */
  static isRedirectTargetOf(request: CallPhaseRequest, tool: string): boolean {
    return tool === request.spec.toolName || request.spec.isRedirectTarget?.(tool) === true;
  }

  /**
   * The call's error-text scrubber, made when the first error is described: it knows the requested
   * arguments and those the current phase runs with (a Redirect's).
   */
  get scrubber(): ErrorScrubber {
    let scrubber = this.errorScrubber;
    if (scrubber === undefined) {
      scrubber = this.errorScrubber = this.spec.core.capture.scrubber([this.spec.args]);
      if (this.ranWith !== undefined) scrubber.add(this.ranWith);
    }
    scrubber.add(this.args);
    return scrubber;
  }

  /**
   * Arguments the tool is about to run with that no phase was asked about yet — a before_tool Redirect's,
   * an approver's edits, an on_error Redirect's retry, an after_tool Redirect's re-execution: their
   * values are scrubbed from the error text of the attempt that runs with them (its `toolhooks.execute`
   * status) as from every later one. The first set is only kept (a Redirect on every call, a capped
   * limit, must not make a scrubber per call); the scrubber is made when an error is described.
   */
  runsWith(args: Readonly<ToolArgs>): void {
    if (this.errorScrubber === undefined && this.ranWith === undefined) this.ranWith = args;
    else this.scrubber.add(args);
  }

  /** A Skip's stub is used in before_tool and on_error; after the tool ran, a Skip is ignored anyway. */
  get checkSkip(): ((decision: Skip) => string | undefined) | undefined {
    return this.phase === 'after_tool' ? undefined : this.spec.checkSkip;
  }
}

/** The request's `isRedirectTarget` when the call names its known tools. */
function knownOrRequested(this: CallPhaseRequest, tool: string): boolean {
  return CallPhaseRequest.isRedirectTargetOf(this, tool);
}
