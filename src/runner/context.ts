/**
 * The HookContext given to each hook invocation. Its AbortSignal is created only when a hook reads
 * it, so the common hook that never looks at it costs no AbortController.
 * @internal
 */
import type { HookContext, Phase } from '../hook.js';

export class InvocationContext implements HookContext {
  declare readonly callId?: string;
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;
  #abortReason: unknown;
  #aborted = false;
  readonly #parent: AbortSignal | undefined;

  constructor(
    readonly phase: Phase,
    readonly attempt: number,
    callId: string | undefined,
    parent: AbortSignal | undefined,
  ) {
    if (callId !== undefined) this.callId = callId;
    this.#parent = parent;
  }

  get signal(): AbortSignal {
    if (this.#signal === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
      this.#signal =
        this.#parent === undefined ? this.#controller.signal : AbortSignal.any([this.#controller.signal, this.#parent]);
    }
    return this.#signal;
  }

  /** Aborts the signal (now, or as soon as the hook first reads it). */
  abort(reason: unknown): void {
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }
}
