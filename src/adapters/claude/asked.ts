/**
 * Calls whose Ask went to the SDK's own permission prompt (`approvals: 'ask'`), by tool_use_id, until
 * the SDK says how it ended: PostToolUse / PostToolUseFailure (approved: the tool ran) or the
 * PostToolBatch that lists the call without either (denied: the model got the SDK's denial). Bounded,
 * and a session's calls are dropped when it ends: nothing outlives the run.
 * @internal
 */
import type { ToolArgs } from '../../hook.js';
import { setBounded } from '../../internal/bounded-map.js';

/** A call that asked: what its continuation runs the hooks with again. */
export interface AskedCall {
  readonly toolName: string;
  readonly args: ToolArgs;
  /** Whether `args` is `{ input }` around a tool_input that is not an object. */
  readonly wrapped: boolean;
  readonly sessionId: string | undefined;
}

export class AskedCalls {
  readonly #calls = new Map<string, AskedCall>();
  readonly #capacity: number;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  add(id: string, call: AskedCall): void {
    setBounded(this.#calls, id, call, this.#capacity);
  }

  /** The call `id` asked, taken: its outcome is known now. */
  take(id: string): AskedCall | undefined {
    const call = this.#calls.get(id);
    if (call !== undefined) this.#calls.delete(id);
    return call;
  }

  /** Drops the calls of a session that ended (all of them when the session is not known). */
  endSession(sessionId: string | undefined): void {
    for (const [id, call] of [...this.#calls]) if (sessionId === undefined || call.sessionId === sessionId) this.#calls.delete(id);
  }

  get size(): number {
    return this.#calls.size;
  }
}

