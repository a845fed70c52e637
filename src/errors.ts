/**
 * The error a flow raises when a hook aborts a tool call.
 *
 * Its `message` is the abort reason; `sourceHook` names the hook that decided it; `cause` holds the
 * failure that led to it (the tool's error for an onError Abort, the hook's own error for a
 * fail-closed hook).
 *
 * @example
 * ```ts
 * try {
 *   await executeTool({ hooks, toolName: 'shell', args: { cmd }, execute: runShell });
 * } catch (error) {
 *   if (error instanceof HookAbortError) console.log(`${error.sourceHook} stopped it: ${error.reason}`);
 * }
 * ```
 */
export class HookAbortError extends Error {
  /** Why the call was aborted; the same text as `message`. */
  readonly reason: string;
  /** The name of the hook that aborted the call, when a hook did. */
  declare readonly sourceHook?: string;

  constructor(reason: string, sourceHook?: string, options?: { cause?: unknown }) {
    super(reason, options !== undefined && 'cause' in options ? { cause: options.cause } : undefined);
    this.name = 'HookAbortError';
    this.reason = reason;
    if (sourceHook !== undefined) this.sourceHook = sourceHook;
  }
}
