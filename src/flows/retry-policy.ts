/**
 * A retry policy over the decision loop (runWithRetry's), and the path a call takes through the loop
 * under one (`RetryPath`): the policy owns the input of each attempt, so a Redirect changes that input,
 * never the tool or the arguments hooks see.
 * @internal
 */
import type { HookDecision, Redirect, Skip } from '../decisions.js';
import { redirect } from '../decisions.js';
import type { ToolArgs } from '../hook.js';
import type { CallPath } from './call-path.js';
import { answerAfter } from './call-path.js';
import type { ToolCall } from './tool-call.js';

/**
 * A retry policy over the decision loop (runWithRetry's): it owns the input of each attempt (a note)
 * and decides, after a failed attempt the hooks did not settle, whether to go again. With a policy the
 * loop also: turns a Skip's stub into the call's result through {@link RetryPolicy.stub} and gives an
 * on_error Skip to after_tool; reports after_tool's duration since the call started; and returns
 * {@link RetryPolicy.exhausted}'s value (the call `failed`) instead of throwing when no attempt is left.
 */
export interface RetryPolicy {
  readonly maxAttempts: number;
  /** What a Skip's stub becomes as the call's result. */
  stub(decision: Skip): unknown;
  /** What an after_tool Replace's result becomes as the call's result. */
  replaced(result: unknown): unknown;
  /** A before_tool Redirect: the input of every attempt from now on. */
  redirect(decision: Redirect): void;
  /**
   * After failed attempt `attempt` (its on_error decision Continue or Redirect): whether to try again,
   * with the input set for it. False ends the call with {@link exhausted}.
   */
  again(decision: HookDecision, error: unknown, attempt: number): boolean;
  /** The call's result once no attempt is left. */
  exhausted(error: unknown, attempts: number): unknown;
}

/**
 * The path of one call under a retry policy. Hooks always see the requested arguments; a Redirect's
 * `newArgs` go to the policy (and are scrubbed from the call's error text like arguments).
 */
export class RetryPath implements CallPath {
  readonly #policy: RetryPolicy;
  /** When the call started: after_tool's duration covers every attempt. */
  readonly #callStarted = performance.now();

  constructor(policy: RetryPolicy) {
    this.#policy = policy;
  }

  clockStart(): number {
    return this.#callStarted;
  }

  stub(decision: Skip): unknown {
    return this.#policy.stub(decision);
  }

  redirect<S>(call: ToolCall<S>, args: ToolArgs, decision: Redirect): ToolArgs {
    call.redirected = true;
    return this.#toPolicy(call, args, decision);
  }

  edit<S>(call: ToolCall<S>, args: ToolArgs, edits: Readonly<ToolArgs>): ToolArgs {
    return this.#toPolicy(call, args, redirect({ newArgs: edits }));
  }

  again<S>(_plan: unknown, call: ToolCall<S>, args: ToolArgs, decision: HookDecision, error: unknown, attempt: number): ToolArgs | undefined {
    if (decision.kind === 'skip' || !this.#policy.again(decision, error, attempt)) return undefined;
    call.retries += 1;
    call.outcome = 'recovered';
    if (decision.kind === 'redirect') {
      call.redirected = true;
      if (decision.newArgs !== undefined) call.runsWith(decision.newArgs);
    }
    return args;
  }

  settle<S>(call: ToolCall<S>, args: ToolArgs, decision: HookDecision, error: unknown, started: number, attempt: number): Promise<unknown> {
    if (decision.kind === 'skip') {
      call.outcome = 'recovered';
      return answerAfter(call, this, args, this.#policy.stub(decision), started, attempt);
    }
    call.markFailed(error);
    return answerAfter(call, this, args, this.#policy.exhausted(error, attempt), started, attempt);
  }

  replaced(result: unknown): unknown {
    return this.#policy.replaced(result);
  }

  /** A Redirect changes the policy's input (a note), scrubbed from the call's error text like arguments; the arguments stay. */
  #toPolicy<S>(call: ToolCall<S>, args: ToolArgs, decision: Redirect): ToolArgs {
    if (decision.newArgs !== undefined) call.runsWith(decision.newArgs);
    this.#policy.redirect(decision);
    return args;
  }
}
