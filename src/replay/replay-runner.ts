/**
 * The runner replay uses: the user's hooks, in their order, plus one observer that reads each phase's
 * outcome (winning hook, reasons, swallowed failures). Its own approver denies at once: a hook that asks
 * is reported as asking, and no approver of the user's is ever called. It records no telemetry, and hooks that only
 * observe (MetricsHook, LoggingHook) are not called, so a replay writes no logs or metrics.
 * @internal
 */
import { ProxyTracerProvider } from '@opentelemetry/api';
import { errorMessage, typeName } from '../internal/describe.js';
import { replayCopyOf } from '../internal/replay-copy.js';
import { HookAbortError, HookRunner } from '../index.js';
import type { HookDecision, HookFailure, HookRunnerOptions, PhaseEvent, ToolArgs, ToolHook } from '../index.js';
import { ReplayInputError } from './input-error.js';
import type { ReplayedDecision, ReplayHooks } from './types.js';

/** One replayed phase: its effective decision and the hook failures the runner swallowed. */
export interface PhaseReplay {
  readonly replayed: ReplayedDecision;
  /** The effective decision itself (for a Redirect's `newArgs`); undefined for an Abort. */
  readonly decision: HookDecision | undefined;
  readonly errors: readonly HookFailure[];
}

function isRunner<S>(value: unknown): value is HookRunner<S> {
  if (value instanceof HookRunner) return true;
  // Another copy of toolhooks (a CommonJS policy module next to the ESM CLI) has its own class.
  const candidate = value as { hooks?: unknown; runBefore?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && Array.isArray(candidate.hooks) && typeof candidate.runBefore === 'function';
}

/** A hook with no decision method takes no part in decisions; a no-op stands in so later hooks keep their index (and default names). */
function muteObserver<S>(hook: ToolHook<S>): ToolHook<S> {
  if (typeof hook !== 'object' || hook === null) return hook;
  if (hook.beforeTool !== undefined || hook.afterTool !== undefined || hook.onError !== undefined) return hook;
  return { name: 'replay-muted-observer', onEvent: () => undefined };
}

function runnerOptions<S>(hooks: ReplayHooks<S>): HookRunnerOptions<S> {
  if (isRunner<S>(hooks)) return { hooks: [...hooks.hooks] };
  if (Array.isArray(hooks)) return { hooks: [...(hooks as readonly ToolHook<S>[])] };
  if (typeof hooks === 'object' && hooks !== null && Array.isArray((hooks as HookRunnerOptions<S>).hooks)) {
    const given = hooks as HookRunnerOptions<S>;
    const options: HookRunnerOptions<S> = { hooks: [...(given.hooks ?? [])] };
    if (given.timeoutMs !== undefined) options.timeoutMs = given.timeoutMs;
    if (given.failureMode !== undefined) options.failureMode = given.failureMode;
    return options;
  }
  throw new ReplayInputError(`hooks must be an array of hooks, a HookRunner or runner options ({ hooks }), got ${typeName(hooks)}`);
}

function askReplay(event: PhaseEvent): PhaseReplay {
  const winner = event.winner ?? null;
  const asked = event.hooks.find((record) => record.hook === winner && record.decision === 'ask');
  return { replayed: { decision: 'ask', hook: winner, reason: asked?.reason ?? null }, decision: undefined, errors: event.errors };
}

/** Runs the before_tool and after_tool phases of recorded calls through the user's hooks; never runs a tool. */
export class ReplayRunner<S = unknown> {
  readonly #runner: HookRunner<S>;
  #last: PhaseEvent | undefined;
  /** The recorded start of the call being replayed, in ms: the clock of hooks that count over time (limits). */
  #now = 0;

  constructor(hooks: ReplayHooks<S>) {
    const options = runnerOptions(hooks);
    const observer: ToolHook<S> = {
      name: 'toolhooks-replay',
      onEvent: (event) => {
        if (event.type === 'phase') this.#last = event;
      },
    };
    try {
      // The hooks as given pass the runner's own checks first (a misspelt method is a TypeError naming the
      // one meant), before observers are muted: a muted hook would otherwise be dropped without a word.
      new HookRunner<S>({ ...options, hooks: [...(options.hooks ?? [])], tracer: new ProxyTracerProvider().getTracer('toolhooks-replay') });
      this.#runner = new HookRunner<S>({
        ...options,
        // A hook that keeps state between calls (a limit) runs as a fresh copy on the recorded clock:
        // deterministic, and never counting in the store the live hook uses.
        hooks: [...(options.hooks ?? []).map((hook) => muteObserver((replayCopyOf(hook, () => this.#now) as ToolHook<S> | undefined) ?? hook)), observer],
        // Replay must not add spans to the traces it reads, nor to any other.
        tracer: new ProxyTracerProvider().getTracer('toolhooks-replay'),
        // Nobody is asked: an Ask is reported as the Ask it is (below), whatever this answers.
        approver: () => ({ approved: false, reason: 'replay asks nobody' }),
      });
    } catch (error) {
      throw new ReplayInputError(`hooks cannot be run: ${errorMessage(error)}`, { cause: error });
    }
  }

  /** Sets the clock to a recorded call's start (nanoseconds since the epoch), before its phases run. */
  clockAt(startNs: bigint): void {
    this.#now = Number(startNs / 1_000_000n);
  }

  /** Runs before_tool for one recorded call. */
  before(tool: string, args: ToolArgs, state: S, callId: string | null): Promise<PhaseReplay> {
    return this.#phase(() => this.#runner.runBefore(tool, args, state, callId === null ? {} : { callId }));
  }

  /** Runs after_tool for one recorded call with its captured result. */
  after(tool: string, args: ToolArgs, result: unknown, state: S, durationMs: number, callId: string | null, attempt: number): Promise<PhaseReplay> {
    const opts = callId === null ? { attempt } : { callId, attempt };
    return this.#phase(() => this.#runner.runAfter(tool, args, result, state, durationMs, opts));
  }

  async #phase(run: () => Promise<HookDecision>): Promise<PhaseReplay> {
    // Calls are replayed one at a time, so the last phase event is this phase's.
    this.#last = undefined;
    try {
      const decision = await run();
      const event = this.#last as PhaseEvent | undefined;
      // A policy that now asks: reported as the Ask it is. The runner's approver (above) denies at once,
      // so nobody is asked and nothing waits.
      if (event?.decision === 'ask') return askReplay(event);
      const reason = decision.kind === 'continue' ? null : decision.reason;
      const hook = decision.kind === 'continue' ? null : (event?.winner ?? null);
      return { replayed: { decision: decision.kind, hook, reason }, decision, errors: event?.errors ?? [] };
    } catch (error) {
      if (!(error instanceof HookAbortError)) throw error;
      const event = this.#last as PhaseEvent | undefined;
      return {
        replayed: { decision: 'abort', hook: error.sourceHook ?? event?.winner ?? null, reason: error.reason },
        decision: undefined,
        errors: event?.errors ?? [],
      };
    }
  }
}
