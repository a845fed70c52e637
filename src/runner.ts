/**
 * HookRunner: runs the registered hooks of one phase in order, aggregates their decisions (SPEC §2)
 * and records the phase as a span with one event per decision, shadowed decision and hook error.
 */
import { errorMessage, typeName } from './describe.js';
import type { Span, Tracer } from '@opentelemetry/api';
import { context, diag, trace } from '@opentelemetry/api';
import type { HookDecision } from './decisions.js';
import { CONTINUE, abort, describeInvalidDecision, isPlainObject, normaliseDecision } from './decisions.js';
import { HookAbortError } from './errors.js';
import type {
  FailureMode,
  HookErrorKind,
  HookFailure,
  Phase,
  PhaseEvent,
  PhaseHookRecord,
  ShadowedDecision,
  ToolArgs,
  ToolEvent,
  ToolHook,
  ToolHookEvent,
} from './hook.js';
import type { HookEntry } from './hook-entry.js';
import { checkFailureMode, checkTimeout, createHookEntry } from './hook-entry.js';
import { InvocationContext } from './context.js';
import type { Settled } from './guard.js';
import { InvalidHookDecisionError, InvalidRedirectTargetError, callObserver, callSync, callUser } from './guard.js';
import type { Capture, CaptureOptions } from './telemetry/capture.js';
import { diagSafe, resolveCapture } from './telemetry/capture.js';
import { endPhaseSpan, recordDecision, recordHookError, recordShadowed, startPhaseSpan } from './telemetry/phase-span.js';
import { INSTRUMENTATION_NAME } from './telemetry/semconv.js';
import { VERSION } from './version.js';

/** Options of a {@link HookRunner}. */
export interface HookRunnerOptions<S = unknown> {
  /** The hooks, run in this order. */
  hooks?: ToolHook<S>[];
  /** The tracer for phase spans. Default: `trace.getTracer('toolhooks', VERSION)` from the global API. */
  tracer?: Tracer;
  /** Per hook invocation, in milliseconds; 0 = none. Default 30 000. A hook's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** What a failing hook means: `'open'` (default) goes on, `'closed'` aborts the call. A hook's own wins. */
  failureMode?: FailureMode;
  /** What tool values may be recorded; default: none. */
  capture?: CaptureOptions;
}

/** Per-call options of the run methods. */
export interface RunOptions {
  /** The tool call's id, passed to hooks and recorded as `gen_ai.tool.call.id` by the flows. */
  callId?: string;
  /** The executor attempt this phase belongs to (1-based). Default 1. */
  attempt?: number;
  /** Aborts every hook's `ctx.signal` when it aborts (e.g. the agent run was cancelled). */
  signal?: AbortSignal;
  /**
   * The tools a Redirect's `newTool` may name. When given, any other target is a hook error of kind
   * `invalid_redirect_target`. When omitted, every target is accepted.
   */
  knownTools?: ReadonlySet<string> | readonly string[];
}

/** What the flows need from a runner and users never see. @internal */
export interface RunnerInternals {
  readonly tracer: Tracer;
  readonly capture: Capture;
  readonly hasObservers: boolean;
  notify(event: ToolEvent, span: Span | undefined): void;
  /** Whether any hook has a method for the phase (whatever its matcher). */
  hasHooks(phase: Phase): boolean;
  /**
   * Runs a phase for a flow, without re-validating what the flow validated: synchronous (a decision, or
   * a thrown HookAbortError) while the hooks are, a promise once one returns a promise. `traced` false
   * (the flow's tracer is the API's no-op one) skips starting a phase span that could not record.
   */
  run(
    phase: Phase,
    toolName: string,
    args: ToolArgs,
    state: unknown,
    value: unknown,
    durationMs: number,
    opts: RunOptions | undefined,
    traced: boolean,
  ): HookDecision | Promise<HookDecision>;
}

const internals = new WeakMap<object, RunnerInternals>();

/** The flows' access to a runner's internals; a TypeError naming `hooks` for anything that is not a runner. @internal */
export function runnerInternals(runner: unknown, where: string): RunnerInternals {
  const found = typeof runner === 'object' && runner !== null ? internals.get(runner) : undefined;
  if (found === undefined) throw new TypeError(`${where}: hooks must be a HookRunner, got ${typeName(runner)}`);
  return found;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const PHASES: readonly Phase[] = ['before_tool', 'after_tool', 'on_error'];
const PHASE_METHOD = { before_tool: 'beforeTool', after_tool: 'afterTool', on_error: 'onError' } as const;
const PHASE_API = { before_tool: 'runBefore', after_tool: 'runAfter', on_error: 'runError' } as const;

/** The hooks of one phase that apply to a tool, with the failures of matchers that threw. */
interface Matched<S> {
  readonly entries: readonly HookEntry<S>[];
  readonly matcherErrors: Map<HookEntry<S>, unknown> | undefined;
}

/** A hook that failed: threw, timed out, or returned something that is not a usable decision. */
class HookFailed {
  constructor(
    readonly kind: HookErrorKind,
    readonly error: unknown,
  ) {}
}

/** A hook's outcome once its return value has been checked: its decision, or how it failed. */
type Verdict = HookDecision | HookFailed;

/** One phase call: what its hooks are given, and the decision aggregated so far. */
class PhaseRun<S> {
  shadowedCount = 0;
  errorCount = 0;
  winner: HookEntry<S> | undefined = undefined;
  winning: HookDecision = CONTINUE;
  abortCause: { cause: unknown } | undefined = undefined;
  /** Observer records, kept only when there are observers. */
  readonly records: PhaseHookRecord[] | undefined;
  readonly shadowed: ShadowedDecision[] | undefined;
  readonly errors: HookFailure[] | undefined;
  readonly started: number;

  constructor(
    readonly phase: Phase,
    readonly toolName: string,
    readonly args: ToolArgs,
    readonly state: S,
    /** The tool's result (after_tool) or error (on_error). */
    readonly value: unknown,
    readonly durationMs: number,
    readonly opts: RunOptions | undefined,
    readonly matched: Matched<S>,
    readonly span: Span | undefined,
    observe: boolean,
  ) {
    this.records = observe ? [] : undefined;
    this.shadowed = observe ? [] : undefined;
    this.errors = observe ? [] : undefined;
    this.started = observe ? performance.now() : 0;
  }
}

/** Calls the phase's method of the entry's hook (as a method: `this` is the hook). */
function callHookMethod<S>(run: PhaseRun<S>, entry: HookEntry<S>, ctx: InvocationContext): unknown {
  const hook = entry.hook;
  switch (run.phase) {
    case 'before_tool':
      return hook.beforeTool?.(run.toolName, run.args, run.state, ctx);
    case 'after_tool':
      return hook.afterTool?.(run.toolName, run.args, run.value, run.state, run.durationMs, ctx);
    case 'on_error':
      return hook.onError?.(run.toolName, run.args, run.value, run.state, ctx);
  }
}

/** Fires the signal of a hook that did not settle in time. */
function abortTimedOut<S>(_run: PhaseRun<S>, entry: HookEntry<S>, ctx: InvocationContext): void {
  ctx.abort(new Error(`hook "${entry.name}" timed out after ${entry.timeoutMs} ms`));
}

function verdictOf<S>(settled: Settled, hookName: string, run: PhaseRun<S>): Verdict {
  if (!settled.ok) return new HookFailed(settled.kind, settled.error);
  return checkDecision(settled.value, hookName, run.toolName, run.opts);
}

/**
 * Runs hooks around tool calls and aggregates their decisions: hooks run in registration order, the
 * first Abort raises {@link HookAbortError} at once, otherwise the first non-Continue decision wins and
 * later ones are recorded as shadowed. A hook that throws, times out or returns junk is recorded and
 * swallowed (or aborts the call when fail-closed). The runner never throws anything but
 * `HookAbortError` — and a TypeError for a caller's misuse.
 *
 * @typeParam S - the agent state passed through to hooks.
 * @example
 * ```ts
 * const runner = new HookRunner({ hooks: [policy, cache], timeoutMs: 5_000 });
 * const decision = await runner.runBefore('shell', { cmd: 'ls' }, state);
 * if (decision.kind === 'skip') return decision.stubResult;
 * ```
 */
export class HookRunner<S = unknown> {
  /** The registered hooks, in order. */
  readonly hooks: readonly ToolHook<S>[];
  readonly #byPhase: Record<Phase, readonly HookEntry<S>[]>;
  /** Per phase: true when no hook of that phase has a `tools` matcher, so matching needs no work. */
  readonly #matchAll: Record<Phase, boolean>;
  /** Per phase: every hook of the phase, matched (used when `#matchAll`). */
  readonly #allMatched: Record<Phase, Matched<S>>;
  readonly #observers: readonly HookEntry<S>[];
  readonly #tracer: Tracer;
  readonly #capture: Capture;

  constructor(hooksOrOptions?: ToolHook<S>[] | HookRunnerOptions<S>) {
    const options = readOptions(hooksOrOptions);
    const timeoutMs =
      options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : checkTimeout(options.timeoutMs, 'HookRunner: timeoutMs');
    const failureMode =
      options.failureMode === undefined ? 'open' : checkFailureMode(options.failureMode, 'HookRunner: failureMode');
    if (options.tracer !== undefined && typeof (options.tracer as { startSpan?: unknown }).startSpan !== 'function') {
      throw new TypeError('HookRunner: tracer must be an OpenTelemetry Tracer (with startSpan)');
    }
    const hooks = options.hooks ?? [];
    if (!Array.isArray(hooks)) throw new TypeError(`HookRunner: hooks must be an array, got ${typeName(hooks)}`);
    const entries = hooks.map((hook, index) => createHookEntry(hook, index, { timeoutMs, failureMode }));
    this.hooks = Object.freeze([...hooks]);
    const byPhase = {} as Record<Phase, readonly HookEntry<S>[]>;
    const matchAll = {} as Record<Phase, boolean>;
    for (const phase of PHASES) {
      const method = PHASE_METHOD[phase];
      byPhase[phase] = entries.filter((entry) => entry.hook[method] !== undefined);
      matchAll[phase] = byPhase[phase].every((entry) => entry.matches === undefined);
    }
    this.#byPhase = byPhase;
    this.#matchAll = matchAll;
    this.#allMatched = {
      before_tool: { entries: byPhase.before_tool, matcherErrors: undefined },
      after_tool: { entries: byPhase.after_tool, matcherErrors: undefined },
      on_error: { entries: byPhase.on_error, matcherErrors: undefined },
    };
    this.#observers = entries.filter((entry) => entry.hook.onEvent !== undefined);
    this.#tracer = options.tracer ?? trace.getTracer(INSTRUMENTATION_NAME, VERSION);
    this.#capture = resolveCapture(options.capture);
    internals.set(this, {
      tracer: this.#tracer,
      capture: this.#capture,
      hasObservers: this.#observers.length > 0,
      notify: (event, span) => this.#notify(event, event.toolName, span),
      hasHooks: (phase) => this.#byPhase[phase].length > 0,
      run: (phase, toolName, args, state, value, durationMs, opts, traced) =>
        this.#run(phase, toolName, args, state as S, value, durationMs, opts, traced),
    });
  }

  /**
   * Runs the `beforeTool` hooks. Returns the winning decision; throws {@link HookAbortError} on Abort.
   *
   * @example
   * ```ts
   * const decision = await runner.runBefore('search', { q: 'otel' }, state, { callId: 'call_1' });
   * ```
   */
  runBefore(toolName: string, args: ToolArgs, state: S, opts?: RunOptions): Promise<HookDecision> {
    return this.#settle('before_tool', toolName, args, state, undefined, 0, opts);
  }

  /**
   * Runs the `afterTool` hooks with the tool's result. A winning Skip has no meaning after the tool
   * ran: it is recorded, warned about and returned as Continue.
   *
   * @example
   * ```ts
   * const decision = await runner.runAfter('search', args, result, state, 12.5);
   * if (decision.kind === 'redirect') rerun({ ...args, ...decision.newArgs });
   * ```
   */
  runAfter(
    toolName: string,
    args: ToolArgs,
    result: unknown,
    state: S,
    durationMs: number,
    opts?: RunOptions,
  ): Promise<HookDecision> {
    return this.#settle('after_tool', toolName, args, state, result, durationMs, opts);
  }

  /**
   * Runs the `onError` hooks with the tool's error: Redirect retries, Skip recovers with a stub,
   * Abort stops, Continue lets the error propagate (the flows act on it).
   *
   * @example
   * ```ts
   * const decision = await runner.runError('search', args, error, state);
   * ```
   */
  runError(toolName: string, args: ToolArgs, error: unknown, state: S, opts?: RunOptions): Promise<HookDecision> {
    return this.#settle('on_error', toolName, args, state, error, 0, opts);
  }

  /** The public run methods: always a promise, whatever the hooks are, and never a synchronous throw. */
  #settle(
    phase: Phase,
    toolName: string,
    args: ToolArgs,
    state: S,
    value: unknown,
    durationMs: number,
    opts: RunOptions | undefined,
  ): Promise<HookDecision> {
    try {
      checkCall(PHASE_API[phase], toolName, args, opts);
      return Promise.resolve(this.#run(phase, toolName, args, state, value, durationMs, opts));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs one phase. Synchronous while the hooks are: a phase of synchronous hooks (or of none) costs no
   * promise, which is most of what a phase costs once async context propagation is on.
   */
  #run(
    phase: Phase,
    toolName: string,
    args: ToolArgs,
    state: S,
    value: unknown,
    durationMs: number,
    opts: RunOptions | undefined,
    traced = true,
  ): HookDecision | Promise<HookDecision> {
    const candidates = this.#byPhase[phase];
    if (candidates.length === 0) return CONTINUE;
    const matched = this.#match(phase, candidates, toolName);
    if (matched.entries.length === 0) return CONTINUE;
    const span = traced ? startPhaseSpan(this.#tracer, phase, toolName) : undefined;
    const run = new PhaseRun(phase, toolName, args, state, value, durationMs, opts, matched, span, this.#observers.length > 0);
    if (span === undefined) return this.#aggregate(run);
    return context.with(trace.setSpan(context.active(), span), this.#aggregate, this, run);
  }

  #match(phase: Phase, candidates: readonly HookEntry<S>[], toolName: string): Matched<S> {
    if (this.#matchAll[phase]) return this.#allMatched[phase];
    const entries: HookEntry<S>[] = [];
    let matcherErrors: Map<HookEntry<S>, unknown> | undefined;
    for (const entry of candidates) {
      const matches = entry.matches;
      if (matches === undefined) {
        entries.push(entry);
        continue;
      }
      const result = callSync(() => matches(toolName));
      if (result.ok && !result.value) continue;
      // A matcher that throws cannot say the hook does not apply: for a fail-closed gate the safe
      // reading is that it does, and fails.
      entries.push(entry);
      if (!result.ok) (matcherErrors ??= new Map()).set(entry, result.error);
    }
    return { entries, matcherErrors };
  }

  /** Invokes the matched hooks in order; goes asynchronous only at the first hook that returns a promise. */
  #aggregate(run: PhaseRun<S>): HookDecision | Promise<HookDecision> {
    const entries = run.matched.entries;
    // Hook durations are recorded on the span and given to observers; with neither, the clock is not read.
    const timed = run.span !== undefined || run.records !== undefined;
    for (let index = 0; index < entries.length; index += 1) {
      const entry = entries[index] as HookEntry<S>;
      const started = timed ? performance.now() : 0;
      const verdict = this.#invoke(run, entry);
      if (verdict instanceof Promise) return this.#aggregateAsync(run, index, started, verdict);
      if (this.#add(run, entry, verdict, timed ? performance.now() - started : 0)) break;
    }
    return this.#end(run);
  }

  async #aggregateAsync(run: PhaseRun<S>, index: number, started: number, pending: Promise<Verdict>): Promise<HookDecision> {
    const entries = run.matched.entries;
    const first = await pending;
    if (!this.#add(run, entries[index] as HookEntry<S>, first, performance.now() - started)) {
      for (let next = index + 1; next < entries.length; next += 1) {
        const entry = entries[next] as HookEntry<S>;
        const began = performance.now();
        let verdict = this.#invoke(run, entry);
        if (verdict instanceof Promise) verdict = await verdict;
        if (this.#add(run, entry, verdict, performance.now() - began)) break;
      }
    }
    return this.#end(run);
  }

  /** Records one hook's verdict and folds it into the phase's decision; true when an Abort ends the phase. */
  #add(run: PhaseRun<S>, entry: HookEntry<S>, verdict: Verdict, durationMs: number): boolean {
    const span = run.span;
    let decision: HookDecision;
    let failed: { cause: unknown } | undefined;
    if (!(verdict instanceof HookFailed)) {
      decision = verdict;
    } else {
      run.errorCount += 1;
      failed = { cause: verdict.error };
      decision = this.#failure(run.phase, run.toolName, entry, verdict.kind, verdict.error, span);
      run.errors?.push({ hook: entry.name, kind: verdict.kind, error: verdict.error });
    }
    if (span !== undefined) recordDecision(span, this.#capture, entry.name, entry.index, decision, durationMs);
    run.records?.push(hookRecord(entry.name, failed === undefined ? decision : undefined, durationMs, this.#capture));

    if (decision.kind === 'continue') return false;
    const winner = run.winner;
    if (winner === undefined || decision.kind === 'abort') {
      // An Abort wins even over an earlier Skip/Redirect, which it shadows.
      if (winner !== undefined && run.winning.kind !== 'continue') {
        run.shadowedCount += 1;
        if (span !== undefined) recordShadowed(span, this.#capture, winner.name, run.winning, entry.name);
        // Nothing is shadowed before the first winner, so the earlier winner goes first: hook order.
        run.shadowed?.unshift(shadowedRecord(winner.name, run.winning, this.#capture));
      }
      run.winner = entry;
      run.winning = decision;
      if (decision.kind === 'abort') {
        run.abortCause = failed;
        return true;
      }
      return false;
    }
    run.shadowedCount += 1;
    if (span !== undefined) recordShadowed(span, this.#capture, entry.name, decision, winner.name);
    run.shadowed?.push(shadowedRecord(entry.name, decision, this.#capture));
    return false;
  }

  /** Ends the phase: observers, span summary, and the decision (or the HookAbortError). */
  #end(run: PhaseRun<S>): HookDecision {
    const { phase, toolName, span } = run;
    let winning = run.winning;
    let winner = run.winner;
    if (phase === 'after_tool' && winning.kind === 'skip' && winner !== undefined) {
      diag.warn(
        diagSafe(
          `toolhooks: hook "${winner.name}" returned Skip in after_tool for tool "${toolName}"; ` +
            'the tool has already run, so the Skip is ignored and treated as Continue',
        ),
      );
      winning = CONTINUE;
      winner = undefined;
    }
    const winnerName = winning.kind === 'continue' ? undefined : winner?.name;
    if (run.records !== undefined && run.shadowed !== undefined && run.errors !== undefined) {
      const callId = run.opts?.callId;
      const event: PhaseEvent = {
        type: 'phase',
        phase,
        toolName,
        decision: winning.kind,
        ...(winnerName === undefined ? {} : { winner: winnerName }),
        hooks: run.records,
        shadowed: run.shadowed,
        errors: run.errors,
        durationMs: performance.now() - run.started,
        ...(callId === undefined ? {} : { callId }),
      };
      // Observers run before the span ends, so what they throw is recorded on it.
      this.#notify(event, toolName, span);
    }
    if (span !== undefined) {
      endPhaseSpan(span, winning.kind, winnerName, run.matched.entries.length, run.shadowedCount, run.errorCount);
    }
    if (winning.kind === 'abort') {
      throw new HookAbortError(winning.reason, winnerName, run.abortCause);
    }
    return winning;
  }

  /** Calls one hook through the guard and checks what it returned; synchronous for a synchronous hook. */
  #invoke(run: PhaseRun<S>, entry: HookEntry<S>): Verdict | Promise<Verdict> {
    const matcherErrors = run.matched.matcherErrors;
    if (matcherErrors?.has(entry) === true) return new HookFailed('threw', matcherErrors.get(entry));
    const opts = run.opts;
    const ctx = new InvocationContext(run.phase, opts?.attempt ?? 1, opts?.callId, opts?.signal);
    const settled = callUser(callHookMethod, run, entry, ctx, entry.timeoutMs, abortTimedOut);
    if (settled instanceof Promise) return settled.then((result) => verdictOf(result, entry.name, run));
    return verdictOf(settled, entry.name, run);
  }

  /** Records and reports a swallowed hook failure; returns Continue, or an Abort for a fail-closed hook. */
  #failure(
    phase: Phase,
    toolName: string,
    entry: HookEntry<S>,
    kind: HookErrorKind,
    error: unknown,
    span: Span | undefined,
  ): HookDecision {
    const message = this.#capture.limit(errorMessage(error));
    const closed = entry.failureMode === 'closed';
    diag.warn(
      diagSafe(
        `toolhooks: hook "${entry.name}" failed in ${phase} for tool "${toolName}" (${kind}: ${message}); ` +
          (closed ? 'failureMode is closed, so the call is aborted' : 'treated as Continue'),
      ),
    );
    if (span !== undefined) recordHookError(span, this.#capture, entry.name, kind, error, entry.failureMode);
    return closed ? abort(`hook ${entry.name} failed: ${message}`) : CONTINUE;
  }

  /** Delivers an event to every observer whose matcher accepts the tool; their errors are swallowed. */
  #notify(event: ToolHookEvent, toolName: string, span: Span | undefined): void {
    for (const entry of this.#observers) {
      const matches = entry.matches;
      if (matches !== undefined) {
        const result = callSync(() => matches(toolName));
        if (!result.ok || !result.value) continue;
      }
      const onEvent = entry.hook.onEvent;
      if (onEvent === undefined) continue;
      const failure = callObserver(() => onEvent.call(entry.hook, event));
      if (failure === undefined) continue;
      diag.warn(
        diagSafe(
          `toolhooks: observer "${entry.name}" threw in onEvent (${event.type} event for tool "${toolName}"): ` +
            this.#capture.limit(errorMessage(failure.error)),
        ),
      );
      if (span !== undefined) recordHookError(span, this.#capture, entry.name, 'threw', failure.error, 'open');
    }
  }
}

function readOptions<S>(value: ToolHook<S>[] | HookRunnerOptions<S> | undefined): HookRunnerOptions<S> {
  if (value === undefined) return {};
  if (Array.isArray(value)) return { hooks: value };
  if (isPlainObject(value)) return value as HookRunnerOptions<S>;
  throw new TypeError(
    `HookRunner takes an array of hooks or an options object ({ hooks, tracer, timeoutMs, failureMode, capture }), got ${typeName(value)}`,
  );
}

function checkCall(method: string, toolName: unknown, args: unknown, opts: RunOptions | undefined): void {
  if (typeof toolName !== 'string' || toolName.length === 0) {
    throw new TypeError(`HookRunner.${method}: toolName must be a non-empty string, got ${describe(toolName)}`);
  }
  if (!isPlainObject(args)) {
    throw new TypeError(`HookRunner.${method}: args must be a plain object of tool arguments, got ${typeName(args)}`);
  }
  if (opts !== undefined && (opts === null || typeof opts !== 'object')) {
    throw new TypeError(`HookRunner.${method}: opts must be an object ({ callId, attempt, signal, knownTools })`);
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? 'an empty string' : typeName(value);
}

/** Checks a hook's return value: nothing → Continue; junk → invalid_decision; unknown target → invalid_redirect_target. */
function checkDecision(value: unknown, hookName: string, toolName: string, opts: RunOptions | undefined): Verdict {
  if (value === undefined || value === null) return CONTINUE;
  let decision: HookDecision;
  try {
    const problem = describeInvalidDecision(value);
    if (problem !== undefined) {
      return new HookFailed('invalid_decision', new InvalidHookDecisionError(`hook "${hookName}" returned ${problem}`));
    }
    decision = normaliseDecision(value as HookDecision);
  } catch (error) {
    return new HookFailed(
      'invalid_decision',
      new InvalidHookDecisionError(`hook "${hookName}" returned an unreadable decision: ${errorMessage(error)}`),
    );
  }
  // Read only here: a flow lists its tools lazily, for the Redirects that name one.
  const knownTools = decision.kind === 'redirect' && decision.newTool !== undefined ? opts?.knownTools : undefined;
  if (decision.kind === 'redirect' && decision.newTool !== undefined && knownTools !== undefined) {
    const known = Array.isArray(knownTools)
      ? (knownTools as readonly string[]).includes(decision.newTool)
      : (knownTools as ReadonlySet<string>).has(decision.newTool);
    if (!known && decision.newTool !== toolName) {
      return new HookFailed('invalid_redirect_target', new InvalidRedirectTargetError(decision.newTool));
    }
  }
  return decision;
}

function hookRecord(hook: string, decision: HookDecision | undefined, durationMs: number, capture: Capture): PhaseHookRecord {
  if (decision === undefined) return { hook, decision: 'error', durationMs };
  if (decision.kind === 'continue') return { hook, decision: 'continue', durationMs };
  const record = { hook, decision: decision.kind, reason: capture.limit(decision.reason), durationMs };
  if (decision.kind !== 'redirect') return record;
  return {
    ...record,
    ...(decision.newTool === undefined ? {} : { newTool: decision.newTool }),
    ...(decision.newArgs !== undefined && capture.args ? { newArgs: capture.serialize(decision.newArgs) } : {}),
  };
}

function shadowedRecord(hook: string, decision: HookDecision, capture: Capture): ShadowedDecision {
  return decision.kind === 'continue'
    ? { hook, decision: 'continue' }
    : { hook, decision: decision.kind, reason: capture.limit(decision.reason) };
}
