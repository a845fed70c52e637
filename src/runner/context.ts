/**
 * The HookContext given to each hook invocation. Its AbortSignal is created only when a hook reads
 * it, so the common hook that never looks at it costs no AbortController.
 * @internal
 */
import type { HookContext, Phase } from '../hook.js';

/** The signal's state, made the first time a hook reads the signal or the phase aborts it. */
interface SignalState {
  controller: AbortController | undefined;
  signal: AbortSignal | undefined;
  aborted: boolean;
  reason: unknown;
}

export class InvocationContext implements HookContext {
  declare readonly callId?: string;
  declare readonly agentName?: string;
  // One slot instead of one field per piece of signal state: a context is made for every hook a phase
  // invokes, and most hooks never read the signal, so the cheap object is the common one.
  #state: SignalState | undefined = undefined;
  readonly #parent: AbortSignal | undefined;

  constructor(
    readonly phase: Phase,
    readonly attempt: number,
    callId: string | undefined,
    parent: AbortSignal | undefined,
    agentName?: string,
  ) {
    if (callId !== undefined) this.callId = callId;
    if (agentName !== undefined) this.agentName = agentName;
    this.#parent = parent;
  }

  get signal(): AbortSignal {
    const state = (this.#state ??= { controller: undefined, signal: undefined, aborted: false, reason: undefined });
    if (state.signal === undefined) {
      const controller = new AbortController();
      state.controller = controller;
      if (state.aborted) controller.abort(state.reason);
      state.signal = this.#parent === undefined ? controller.signal : AbortSignal.any([controller.signal, this.#parent]);
    }
    return state.signal;
  }

  /** Aborts the signal (now, or as soon as the hook first reads it). */
  abort(reason: unknown): void {
    const state = (this.#state ??= { controller: undefined, signal: undefined, aborted: false, reason: undefined });
    state.aborted = true;
    state.reason = reason;
    state.controller?.abort(reason);
  }
}
