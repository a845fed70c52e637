/**
 * What a phase is asked about (`PhaseRequest`) and what the phases of one call tell its flow
 * (`CallTally`): the runner's side of the contract with the flows, which build requests (a call is its
 * own, `flows/call-spec.ts`) and read the tally when the call ends.
 * @internal
 */
import type { Skip } from '../decisions.js';
import type { Approver, Phase, ToolArgs } from '../hook.js';
import type { ApprovalHandoff } from './handoff.js';
import type { ErrorScrubber } from '../telemetry/capture/error-text.js';
import type { ApprovalRecord } from './approvals.js';
import type { ArgsCopy } from './read-only-args.js';

/** What a phase is asked to decide about: one object instead of a long parameter list. */
export interface PhaseRequest {
  readonly phase: Phase;
  readonly toolName: string;
  readonly args: ToolArgs;
  readonly state: unknown;
  /** The tool's result (after_tool) or error (on_error). */
  readonly value?: unknown;
  /** How long the tool ran (after_tool). */
  readonly durationMs?: number;
  readonly callId?: string | undefined;
  /** The agent the call belongs to (the flow's `agentName`, else the runner's): the hooks' `ctx.agentName`. */
  readonly agentName?: string | undefined;
  readonly attempt?: number;
  readonly signal?: AbortSignal | undefined;
  /** Whether a Redirect may name a tool; undefined accepts every target. */
  readonly isRedirectTarget?: ((tool: string) => boolean) | undefined;
  /** A flow's own check of a Skip's stub (runWithRetry needs a string or JSON). */
  readonly checkSkip?: ((decision: Skip) => string | undefined) | undefined;
  /**
   * False when the call's span does not record (no SDK, or sampled out): then no phase span is
   * started — a child of a span that does not record need not exist to keep the trace whole.
   */
  readonly traced?: boolean;
  /** The call's frozen copy of its arguments for hooks, shared by its phases. */
  readonly argsCopy?: ArgsCopy;
  /** The adapter's own way to ask (a framework's approval UI); wins over the runner's `approver`. */
  readonly approver?: Approver | undefined;
  /** An adapter handing approvals to its framework: the asking call (pending) or the continuation (answered). */
  readonly handoff?: ApprovalHandoff | undefined;
  /** What a flow learns about its whole call from its phases. */
  readonly tally?: CallTally;
  /** The call's error-text scrubber (a flow's, across its phases); else one is made for the phase's args. */
  readonly scrubber?: ErrorScrubber;
}

/** Written by the phases of one call, read by the flow when the call ends. */
export interface CallTally {
  /** Swallowed hook errors over all phases (`toolhooks.hook.errors`). */
  hookErrors: number;
  /** Whether an enforce-mode hook was invoked in before_tool (`toolhooks.gated`). */
  gated: boolean;
  /** How the call's approval ended, when a hook asked for one. */
  approval: ApprovalRecord | undefined;
}
