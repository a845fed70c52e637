/**
 * What a call is about (`CallSpec`, built by the flow or adapter that makes the call) and the phase
 * request a call hands the runner for each of its phases (`CallPhaseRequest`): the requested tool as a
 * known Redirect target, the call's tally, its frozen argument copy and its error-text scrubber.
 * @internal
 */
import type { Attributes, Span } from '@opentelemetry/api';
import type { Skip } from '../decisions.js';
import type { Approver, Phase, ToolArgs } from '../hook.js';
import type { RunnerCore } from '../runner/core.js';
import type { CallTally, PhaseRequest } from '../runner/phase.js';
import type { ArgsCopy } from '../runner/read-only-args.js';
import type { Capture } from '../telemetry/capture/options.js';
import type { ErrorScrubber } from '../telemetry/capture/error-text.js';
import type { ApprovalHandoff } from './handoff.js';
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
}

/** The phase request a call reuses for each of its phases (they run one after another). */
export class CallPhaseRequest implements PhaseRequest {
  phase: Phase = 'before_tool';
  toolName: string;
  args: ToolArgs;
  value: unknown = undefined;
  durationMs = 0;
  attempt = 1;
  readonly tally: CallTally = { hookErrors: 0, gated: false, approval: undefined };
  readonly argsCopy: ArgsCopy = { source: undefined, copy: undefined };
  readonly #requested: ToolArgs;
  readonly #capture: Capture;
  #scrubber: ErrorScrubber | undefined = undefined;

  constructor(
    spec: CallSpec<unknown>,
    readonly traced: boolean,
  ) {
    this.toolName = spec.toolName;
    this.args = spec.args;
    this.#requested = spec.args;
    this.#capture = spec.core.capture;
    this.state = spec.state;
    this.callId = spec.callId;
    this.signal = spec.signal;
    // The requested tool is always a known target: a Redirect back to it after an earlier one switched away.
    const known = spec.isRedirectTarget;
    const requested = spec.toolName;
    this.isRedirectTarget = known === undefined ? undefined : (tool) => tool === requested || known(tool);
    this.skipCheck = spec.checkSkip;
    this.approver = spec.approver;
    this.handoff = spec.handoff;
    const held = spec.before;
    if (held !== undefined) Object.assign(this.tally, held.tally);
  }

  /**
   * The call's error-text scrubber, made when the first error is described: it knows the requested
   * arguments and those the current phase runs with (a Redirect's).
   */
  get scrubber(): ErrorScrubber {
    const scrubber = (this.#scrubber ??= this.#capture.scrubber([this.#requested]));
    scrubber.add(this.args);
    return scrubber;
  }

  /** A Skip's stub is used in before_tool and on_error; after the tool ran, a Skip is ignored anyway. */
  get checkSkip(): ((decision: Skip) => string | undefined) | undefined {
    return this.phase === 'after_tool' ? undefined : this.skipCheck;
  }

  readonly state: unknown;
  readonly callId: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly isRedirectTarget: ((tool: string) => boolean) | undefined;
  readonly skipCheck: ((decision: Skip) => string | undefined) | undefined;
  readonly approver: Approver | undefined;
  readonly handoff: ApprovalHandoff | undefined;
}
