/**
 * Calls between PreToolUse and their PostToolUse / PostToolUseFailure, by tool_use_id. The
 * executor executeTool runs for a call is a promise this registry settles when the SDK reports
 * the tool's outcome; a call the SDK never reports on fails after a bound (an unref'd timer) or
 * when its session ends, so no span and no entry outlives the run.
 * @internal
 */
import { ClaudeToolError } from './tool-error.js';

interface Pending {
  readonly toolName: string;
  readonly sessionId: string | undefined;
  readonly resolve: (response: unknown) => void;
  readonly reject: (error: ClaudeToolError) => void;
  /** The whole hooked call: settles after the after_tool / on_error phase. */
  readonly done: () => Promise<unknown> | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class PendingCalls {
  readonly #calls = new Map<string, Pending>();
  readonly #maxMs: number;

  constructor(maxToolDurationMs: number) {
    this.#maxMs = maxToolDurationMs;
  }

  /** The tool's outcome, as the SDK will report it for `id`. */
  wait(id: string, toolName: string, sessionId: string | undefined, done: () => Promise<unknown> | undefined): Promise<unknown> {
    this.#reject(id, 'failed', 'PreToolUse came again for this tool_use_id before its PostToolUse');
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = { toolName, sessionId, resolve, reject, done, timer: undefined };
      if (this.#maxMs > 0) {
        entry.timer = setTimeout(() => this.#reject(id, 'timeout', `no PostToolUse within ${this.#maxMs} ms`), this.#maxMs);
        entry.timer.unref?.();
      }
      this.#calls.set(id, entry);
    });
  }

  /** Settles `id` with the tool's response; the hooked call's promise, or undefined when unknown. */
  succeed(id: string, response: unknown): Promise<unknown> | undefined {
    const entry = this.#take(id);
    entry?.resolve(response);
    return entry?.done();
  }

  /** Fails `id`; the hooked call's promise, or undefined when unknown. */
  fail(id: string, failure: ClaudeToolError['failure'], message: string): Promise<unknown> | undefined {
    return this.#reject(id, failure, message)?.done();
  }

  /** Fails every call of a session that ended. */
  endSession(sessionId: string | undefined): void {
    for (const [id, entry] of [...this.#calls]) {
      if (sessionId === undefined || entry.sessionId === sessionId) this.#reject(id, 'session_ended', 'the session ended before the tool reported');
    }
  }

  get size(): number {
    return this.#calls.size;
  }

  /**
   * Fails `id`'s wait without touching the hooked call's promise: the flow that owns that promise
   * settles it and records the failure; callers that need it use `fail`.
   */
  #reject(id: string, failure: ClaudeToolError['failure'], message: string): Pending | undefined {
    const entry = this.#take(id);
    entry?.reject(new ClaudeToolError(message, failure, entry.toolName));
    return entry;
  }

  #take(id: string): Pending | undefined {
    const entry = this.#calls.get(id);
    if (entry === undefined) return undefined;
    this.#calls.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    return entry;
  }
}
