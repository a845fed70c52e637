import { brandAcrossBuilds } from './internal/brand.js';

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
  static {
    brandAcrossBuilds(this, 'HookAbortError');
  }

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

/**
 * A hook that did not settle within its timeout (the hook's `timeoutMs`, else the runner's).
 *
 * It reaches you as `HookFailure.error` in a phase event (kind `timeout`) and as the `cause` of the
 * {@link HookAbortError} when the hook is fail-closed.
 *
 * @example
 * ```ts
 * if (error instanceof HookAbortError && error.cause instanceof HookTimeoutError) retryLater();
 * ```
 */
export class HookTimeoutError extends Error {
  static {
    brandAcrossBuilds(this, 'HookTimeoutError');
  }

  /** The timeout that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'HookTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A hook returned something that is not a decision (a string such as `'abort'`, a malformed literal,
 * a Redirect with neither target).
 *
 * It reaches you as `HookFailure.error` (kind `invalid_decision`) and as the `cause` of the
 * {@link HookAbortError} when the hook is fail-closed.
 *
 * @example
 * ```ts
 * runner.hooks; // a hook returning 'abort' instead of abort('reason') fails with this error
 * ```
 */
export class InvalidHookDecisionError extends Error {
  static {
    brandAcrossBuilds(this, 'InvalidHookDecisionError');
  }

  constructor(message: string) {
    super(message);
    this.name = 'InvalidHookDecisionError';
  }
}

/**
 * A Redirect named a tool the flow does not know (not the requested tool, not one of its `tools`).
 *
 * It reaches you as `HookFailure.error` (kind `invalid_redirect_target`) and as the `cause` of the
 * {@link HookAbortError} when the hook is fail-closed; the original call goes on otherwise.
 *
 * @example
 * ```ts
 * if (failure.error instanceof InvalidRedirectTargetError) console.log(failure.error.target);
 * ```
 */
export class InvalidRedirectTargetError extends Error {
  static {
    brandAcrossBuilds(this, 'InvalidRedirectTargetError');
  }

  /** The tool the Redirect named. */
  readonly target: string;

  constructor(target: string) {
    super(`redirect to unknown tool ${JSON.stringify(target)}`);
    this.name = 'InvalidRedirectTargetError';
    this.target = target;
  }
}
