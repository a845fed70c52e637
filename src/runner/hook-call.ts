/**
 * How a phase calls one hook: its method for the phase, through the guard (`guard.ts`: a throw, a
 * rejection or a timeout becomes a failure, never the tool path's), with its own `HookContext`, and
 * what it returned checked into a verdict (`verdict.ts`). Synchronous for a synchronous hook.
 * @internal
 */
import { InvocationContext } from './context.js';
import type { Settled } from './guard.js';
import { callUser } from './guard.js';
import type { HookEntry } from './hook-entry.js';
import type { ToolArgs } from '../hook.js';
import type { Matched } from './phase-hooks.js';
import type { PhaseRequest } from './phase-request.js';
import type { Verdict } from './verdict.js';
import { HookTimeoutError, InvalidHookDecisionError } from '../errors.js';
import type { HookErrorKind } from '../hook.js';
import { HookFailed, checkDecision } from './verdict.js';

/** What calling one hook needs: the request, its matched hooks, and the arguments as hooks see them. */
export interface HookInput<S> {
  readonly request: PhaseRequest;
  readonly matched: Matched<S>;
  /** The arguments as hooks see them: a frozen copy, never the caller's object. */
  readonly args: ToolArgs;
}

/** Calls one hook through the guard and checks what it returned; synchronous for a synchronous hook. */
export function invoke<S>(run: HookInput<S>, entry: HookEntry<S>): Verdict | Promise<Verdict> {
  const matcherErrors = run.matched.matcherErrors;
  if (matcherErrors?.has(entry) === true) return new HookFailed('threw', matcherErrors.get(entry));
  const request = run.request;
  const ctx = new InvocationContext(request.phase, request.attempt ?? 1, request.callId, request.signal, request.agentName);
  const settled = callUser(callHookMethod, run, entry, ctx, entry.timeoutMs, abortTimedOut);
  if (settled instanceof Promise) return settled.then((result) => verdictOf(result, entry.name, run));
  return verdictOf(settled, entry.name, run);
}

/** Calls the phase's method of the entry's hook (as a method: `this` is the hook). */
function callHookMethod<S>(run: HookInput<S>, entry: HookEntry<S>, ctx: InvocationContext): unknown {
  const hook = entry.hook;
  const { toolName, state, value } = run.request;
  const args = run.args;
  switch (run.request.phase) {
    case 'before_tool':
      return hook.beforeTool?.(toolName, args, state as S, ctx);
    case 'after_tool':
      return hook.afterTool?.(toolName, args, value, state as S, run.request.durationMs ?? 0, ctx);
    case 'on_error':
      return hook.onError?.(toolName, args, value, state as S, ctx);
  }
}

/** Fires the signal of a hook that did not settle in time. */
function abortTimedOut<S>(_run: HookInput<S>, entry: HookEntry<S>, ctx: InvocationContext): void {
  ctx.abort(new Error(`hook "${entry.name}" timed out after ${entry.timeoutMs} ms`));
}

function verdictOf<S>(settled: Settled, hookName: string, run: HookInput<S>): Verdict {
  if (!settled.ok) return new HookFailed(failureKind(settled), settled.error);
  // The request carries the rules themselves (toolName, isRedirectTarget, checkSkip): no object per hook.
  return checkDecision(settled.value, hookName, run.request);
}

/**
 * How a hook failed. A hook that throws one of the runner's own failure errors fails as that kind: a
 * policy engine whose server timed out throws a HookTimeoutError (`timeout`), one whose result is
 * malformed an InvalidHookDecisionError (`invalid_decision`), as if the runner had found it.
 */
function failureKind(settled: Extract<Settled, { ok: false }>): HookErrorKind {
  if (settled.kind !== 'threw') return settled.kind;
  const error = settled.error;
  if (error instanceof InvalidHookDecisionError) return 'invalid_decision';
  if (error instanceof HookTimeoutError) return 'timeout';
  return 'threw';
}
