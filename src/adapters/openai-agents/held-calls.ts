/**
 * Calls whose before_tool phase ran in the SDK's `needsApproval` (`approvals: 'framework'`), held for
 * the `invoke` that follows so that hooks run once per pass. The SDK asks `needsApproval` first and,
 * when it answers false, invokes the tool right after (its input guardrails in between): the call's
 * flow starts in `needsApproval` and its executor waits for that invocation.
 * @internal
 */
import type { Context } from '@opentelemetry/api';
import { context } from '@opentelemetry/api';
import type { ApprovalHandoff, HandoffRequest } from '../../runner/handoff.js';
import { jsonOf } from '../json-text.js';

/** The SDK's invocation of a tool, as `invoke(runContext, input, details)` receives it. */
export interface Invocation {
  readonly runContext: unknown;
  readonly input: string;
  readonly details: unknown;
}

/**
 * How long a held call waits for its `invoke`. The SDK invokes a tool right after `needsApproval`
 * answered false; only its input guardrails (which may reject the call) or a cancelled run come in
 * between. A guardrail's rejection ends the call at once ({@link HeldCalls.release}); otherwise, with no
 * invocation at all, the call ends `failed` with a {@link NotInvokedError}.
 */
const HELD_CALL_TIMEOUT_MS = 60_000;

/** The SDK never invoked a tool whose `needsApproval` answered false (an input guardrail rejected it, the run stopped). */
export class NotInvokedError extends Error {
  constructor(toolName: string, callId: string, timeoutMs: number) {
    super(`the Agents SDK did not invoke "${toolName}" for call ${callId} within ${timeoutMs} ms of its needsApproval (an input guardrail rejected it, or the run stopped)`);
    this.name = 'NotInvokedError';
  }
}

/** A tool input guardrail of the Agents SDK rejected a held call, so the SDK does not invoke the tool. */
export class GuardrailRejectedError extends Error {
  constructor(toolName: string, callId: string, guardrail: string, how: string) {
    super(`the Agents SDK's tool input guardrail "${guardrail}" rejected "${toolName}" for call ${callId} (${how}), so the tool was not invoked`);
    this.name = 'GuardrailRejectedError';
  }
}

/** Work a call's executor gives the SDK's invocation: running a tool's own `invoke` with it. */
type Work = (invocation: Invocation) => Promise<unknown>;

/** How a call's executor has its work done: at once (a call invoke started), or in the invocation to come (a held call). */
export type Perform = (work: Work) => Promise<unknown>;

/** Work waiting for the invocation, with the context (the call's execute span) it was asked in. */
interface Queued {
  readonly work: Work;
  readonly context: Context;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One held call: the flow running it, and the work its executor asks for. The work runs inside the
 * SDK's `invoke` (so the tool runs where the SDK invoked it, in the SDK's own async context) with the
 * executor's OpenTelemetry context (so the tool's spans nest under the call's `toolhooks.execute`).
 */
class HeldCall {
  /** The call's flow: its result is what `invoke` returns. */
  result: Promise<unknown> = Promise.resolve(undefined);
  readonly #queue: Queued[] = [];
  #wake: (() => void) | undefined;
  #expired: { readonly error: unknown } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** The executor's side: the work is done when the invocation comes (a NotInvokedError if it never does). */
  perform(work: Work): Promise<unknown> {
    if (this.#expired !== undefined) return Promise.reject(this.#expired.error);
    return new Promise<unknown>((resolve, reject) => {
      this.#queue.push({ work, context: context.active(), resolve, reject });
      this.#wake?.();
    });
  }

  /** The invocation's side: does the executor's work until the call's flow settles, then returns its result. */
  async serve(invocation: Invocation): Promise<unknown> {
    this.drop();
    let settled = false;
    const done = this.result.then(
      () => void (settled = true),
      () => void (settled = true),
    );
    for (;;) {
      const queued = this.#queue.shift();
      if (queued !== undefined) {
        try {
          queued.resolve(await context.with(queued.context, queued.work, undefined, invocation));
        } catch (error) {
          queued.reject(error);
        }
        continue;
      }
      if (settled) return this.result;
      await Promise.race([done, new Promise<void>((wake) => (this.#wake = wake))]);
      this.#wake = undefined;
    }
  }

  expireAfter(timeoutMs: number, error: () => unknown, onExpired: () => void): void {
    this.#timer = setTimeout(() => {
      this.expire(error());
      onExpired();
    }, timeoutMs);
    this.#timer.unref?.();
  }

  /** No invocation will come: the executor's work, now and later, fails with `error`. */
  expire(error: unknown): void {
    this.drop();
    this.#expired = { error };
    for (const queued of this.#queue.splice(0)) queued.reject(error);
  }

  drop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
  }
}

/** Starts a call's flow with the hand-off and the way its executor has its work done. */
type StartHeld = (handoff: ApprovalHandoff, perform: Perform) => Promise<unknown>;

/** A number per run context (the SDK passes one object to a run's `needsApproval`, guardrails and `invoke`). */
const runScopes = new WeakMap<object, number>();
let nextRunScope = 0;

function runScope(runContext: unknown): number | undefined {
  if (runContext === null || typeof runContext !== 'object') return undefined;
  let scope = runScopes.get(runContext);
  if (scope === undefined) runScopes.set(runContext, (scope = ++nextRunScope));
  return scope;
}

/**
 * The key of a held call: its run (the run context the SDK passes to `needsApproval` and `invoke`),
 * its call id and its arguments as JSON (`input` as the SDK passes it, a JSON string or the parsed
 * value). Two runs sharing one hooked set whose models number their calls alike (`call_0`), even
 * with the same arguments, hold their calls apart, and each invocation takes its own. Undefined for
 * arguments that are not JSON: no such call is held.
 */
export function heldKey(runContext: unknown, callId: string, input: unknown): string | undefined {
  let value: unknown = input ?? null;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input) as unknown;
    } catch {
      return undefined;
    }
  }
  const json = jsonOf(value);
  return json === undefined ? undefined : `${runScope(runContext) ?? ''}\u0000${callId}\u0000${json}`;
}

/** The held calls of one `withHooks`, by {@link heldKey}. */
export class HeldCalls {
  /** The calls held under each key, oldest first: a key taken again (one run asking twice alike) queues. */
  readonly #held = new Map<string, HeldCall[]>();

  constructor(
    private readonly onAsked: (pending: HandoffRequest, about: string | undefined) => void,
    private readonly timeoutMs = HELD_CALL_TIMEOUT_MS,
  ) {}

  /**
   * Runs the call's before_tool phase (its flow) for `needsApproval`: true when the hooks asked — the
   * flow has ended `pending` and the SDK interrupts the run —, false when the call goes on, held
   * for {@link take}: its flow waits for the invocation to run the tool, or has already settled
   * (a Skip, a Redirect's stub, an Abort).
   */
  hold(toolName: string, callId: string, key: string, start: StartHeld, about?: string): Promise<boolean> {
    const held = new HeldCall();
    const queue = this.#held.get(key);
    if (queue === undefined) this.#held.set(key, [held]);
    else queue.push(held);
    return new Promise<boolean>((answer) => {
      let asked = false;
      let answered = false;
      const handoff: ApprovalHandoff = {
        id: callId,
        onPending: (pending) => {
          asked = true;
          answered = true;
          this.#forget(key, held);
          this.onAsked(pending, about);
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
          () => this.#forget(key, held),
        );
        answer(false);
      };
      held.result = start(handoff, (work) => {
        goOn();
        return held.perform(work);
      });
      held.result.then(
        () => (asked ? undefined : goOn()),
        () => goOn(),
      );
    });
  }

  /** The held call of `key` served by its invocation, once: its result; undefined when none is held. */
  take(key: string, invocation: Invocation): Promise<unknown> | undefined {
    const held = this.#held.get(key)?.[0];
    if (held === undefined) return undefined;
    this.#remove(key, held);
    return held.serve(invocation);
  }

  /**
   * A held call the SDK will not invoke (one of its tool input guardrails rejected it): it ends now,
   * `failed` with `error`, instead of after the wait.
   */
  release(key: string, error: unknown): void {
    const held = this.#held.get(key)?.[0];
    if (held === undefined) return;
    this.#forget(key, held);
    held.expire(error);
  }

  #forget(key: string, held: HeldCall): void {
    held.drop();
    this.#remove(key, held);
  }

  #remove(key: string, held: HeldCall): void {
    const queue = this.#held.get(key);
    const index = queue === undefined ? -1 : queue.indexOf(held);
    if (queue === undefined || index < 0) return;
    queue.splice(index, 1);
    if (queue.length === 0) this.#held.delete(key);
  }
}
