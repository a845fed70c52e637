/**
 * Calls whose before_tool phase ran in the SDK's `needsApproval` (`approvals: 'framework'`), held for
 * the `invoke` that follows so that hooks run once per pass. The SDK asks `needsApproval` first and,
 * when it answers false, invokes the tool right after (its input guardrails in between): the call's
 * flow starts in `needsApproval` and its executor waits for that invocation.
 * @internal
 */
import type { ApprovalHandoff, PendingApproval } from '../../flows/handoff.js';

/** The SDK's invocation of a tool, as `invoke(runContext, input, details)` receives it. */
export interface Invocation {
  readonly runContext: unknown;
  readonly input: string;
  readonly details: unknown;
}

/**
 * How long a held call waits for its `invoke`. The SDK invokes a tool right after `needsApproval`
 * answered false; only its input guardrails (which may reject the call) or a cancelled run come in
 * between, and then no invocation comes at all: the call ends `failed` with a {@link NotInvokedError}.
 */
export const HELD_CALL_TIMEOUT_MS = 60_000;

/** The SDK never invoked a tool whose `needsApproval` answered false (an input guardrail rejected it, the run stopped). */
export class NotInvokedError extends Error {
  constructor(toolName: string, callId: string, timeoutMs: number) {
    super(`the Agents SDK did not invoke "${toolName}" for call ${callId} within ${timeoutMs} ms of its needsApproval (an input guardrail rejected it, or the run stopped)`);
    this.name = 'NotInvokedError';
  }
}

/** One held call: the flow running it, and the invocation its executor waits for. */
class HeldCall {
  /** The call's flow: its result is what `invoke` returns (never rejects unobserved). */
  result: Promise<unknown> = Promise.resolve(undefined);
  readonly invocation: Promise<Invocation>;
  #arrive: ((invocation: Invocation) => void) | undefined;
  #fail: ((error: unknown) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.invocation = new Promise<Invocation>((resolve, reject) => {
      this.#arrive = resolve;
      this.#fail = reject;
    });
    // Observed once here: an expired invocation is reported through the flow, never unhandled.
    this.invocation.catch(() => undefined);
  }

  expireAfter(timeoutMs: number, error: () => unknown, onExpired: () => void): void {
    this.#timer = setTimeout(() => {
      this.#fail?.(error());
      onExpired();
    }, timeoutMs);
    this.#timer.unref?.();
  }

  arrive(invocation: Invocation): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#arrive?.(invocation);
  }

  drop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }
}

/** Starts a call's flow with the hand-off and a way for its executor to wait for the SDK's invocation. */
export type StartHeld = (handoff: ApprovalHandoff, invocation: () => Promise<Invocation>) => Promise<unknown>;

/** The held calls of one `withHooks`, by call id. */
export class HeldCalls {
  readonly #held = new Map<string, HeldCall>();

  constructor(
    private readonly onAsked: (pending: PendingApproval) => void,
    private readonly timeoutMs = HELD_CALL_TIMEOUT_MS,
  ) {}

  /**
   * Runs the call's before_tool phase (its flow) for `needsApproval`: true when the hooks asked — the
   * flow has ended `pending` and the SDK interrupts the run —, false when the call goes on, held
   * for {@link take}: its flow waits for the invocation to run the tool, or has already settled
   * (a Skip, a Redirect's stub, an Abort).
   */
  hold(toolName: string, callId: string, start: StartHeld): Promise<boolean> {
    const held = new HeldCall();
    this.#held.get(callId)?.drop();
    this.#held.set(callId, held);
    return new Promise<boolean>((answer) => {
      let asked = false;
      let answered = false;
      const handoff: ApprovalHandoff = {
        id: callId,
        onPending: (pending) => {
          asked = true;
          answered = true;
          this.#forget(callId, held);
          this.onAsked(pending);
          answer(true);
        },
      };
      const goOn = (): void => {
        if (answered) return;
        answered = true;
        // From now on the SDK invokes the tool (or never does): the wait for it starts here.
        held.expireAfter(
          this.timeoutMs,
          () => new NotInvokedError(toolName, callId, this.timeoutMs),
          () => this.#forget(callId, held),
        );
        answer(false);
      };
      held.result = start(handoff, () => {
        goOn();
        return held.invocation;
      });
      held.result.then(
        () => (asked ? undefined : goOn()),
        () => goOn(),
      );
    });
  }

  /** The held call of `callId` for its invocation, once: undefined when none is held. */
  take(callId: string, invocation: Invocation): Promise<unknown> | undefined {
    const held = this.#held.get(callId);
    if (held === undefined) return undefined;
    this.#held.delete(callId);
    held.arrive(invocation);
    return held.result;
  }

  #forget(callId: string, held: HeldCall): void {
    held.drop();
    if (this.#held.get(callId) === held) this.#held.delete(callId);
  }
}
