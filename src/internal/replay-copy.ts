/**
 * How a hook that keeps state between calls offers `toolhooks replay` a fresh copy of itself: a method
 * under this symbol, given the replay's clock (the recorded time of the call being replayed), returns a
 * hook with the same options and fresh state in memory (a limit hook's fresh memory store), so that a
 * replay is deterministic and never touches the state the live hook counts in. `Symbol.for`, so that
 * the ESM and CommonJS builds share it.
 * @internal
 */
import type { ToolHook } from '../hook.js';

export const REPLAY_COPY: unique symbol = Symbol.for('toolhooks.replayCopy');

/** A hook that offers a replay copy of itself. */
interface ReplayCopyable {
  [REPLAY_COPY](now: () => number): ToolHook<never>;
}

/** The hook's replay copy when it offers one (and offering it does not throw), else undefined. */
export function replayCopyOf(hook: unknown, now: () => number): ToolHook<never> | undefined {
  if (typeof hook !== 'object' || hook === null) return undefined;
  try {
    const copy = (hook as Partial<ReplayCopyable>)[REPLAY_COPY];
    return typeof copy === 'function' ? copy.call(hook, now) : undefined;
  } catch {
    return undefined;
  }
}
