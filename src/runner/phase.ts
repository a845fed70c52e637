/**
 * One phase call, folded: the matched hooks run in order (each called as `hook-call.ts` calls it), each verdict is recorded
 * (span event, observer record) and folded into the phase's decision — the first Abort ends the
 * phase, otherwise the first non-Continue wins and later ones are shadowed; audit hooks are recorded
 * and take no part. Synchronous while the hooks are: a phase of synchronous hooks costs no promise.
 * The fold is one piece because each step reads and writes the same running state.
 * @internal
 */
import type { Context, Span } from '@opentelemetry/api';
import { context, trace } from '@opentelemetry/api';
import type { Ask, HookDecision } from '../decisions.js';
import { CONTINUE, abort } from '../decisions.js';
import { HookAbortError } from '../errors.js';
import type { HookEntry } from './hook-entry.js';
import type { HookInput } from './hook-call.js';
import { invoke } from './hook-call.js';
import type { Matched } from './phase-hooks.js';
import type { PhaseRequest } from './phase-request.js';
import type { HookFailure, Phase, PhaseEvent, RecordedError, ShadowedDecision, ToolArgs } from '../hook.js';
import type { ErrorScrubber } from '../telemetry/capture/error-text.js';
import type { DroppedEvents, PhaseEventBuffer, PhaseSpanEvent } from '../telemetry/phase-span.js';
import { endPhaseSpan, logEvent, phaseEventBuffer, writeEvent } from '../telemetry/phase-span.js';
import { isRecording } from '../telemetry/span.js';
import { ApprovalToSettle, settleApproval } from './approvals.js';
import type { RunnerCore } from './core.js';
import type { OpenHookRecord } from './records.js';
import { failureRecord, hookRecord, shadowedRecord } from './records.js';
import { reportHookFailure } from './first-failure.js';
import type { Verdict } from './verdict.js';
import { HookFailed } from './verdict.js';
import { report } from '../telemetry/warn-once.js';

/** A phase's running state: what its hooks are given, and the decision folded so far. */
class PhaseRun<S> implements HookInput<S> {
  shadowedCount = 0;
  errorCount = 0;
  winner: HookEntry<S> | undefined = undefined;
  winning: HookDecision = CONTINUE;
  winnerRecord: OpenHookRecord | undefined = undefined;
  abortCause: { cause: unknown } | undefined = undefined;
  #scrubber: ErrorScrubber | undefined = undefined;
  /**
   * Set once an enforced hook aborted: no later enforced hook runs, but later audit hooks still do (they
   * see all traffic, so their "would abort" counts are not low), and then the Abort is raised.
   */
  aborted = false;
  /** Whether an audit hook would have changed the call (the guardrail conventions' `audit` action). */
  audited = false;
  /** The first enforced Ask (before_tool), which later Asks are shadowed by. */
  asker: HookEntry<S> | undefined = undefined;
  ask: Ask | undefined = undefined;
  askRecord: OpenHookRecord | undefined = undefined;
  /** The context the phase was called in (set when it has a span): where an approval waits. */
  outer: Context | undefined = undefined;
  /** Observer records, kept only when there are observers. */
  readonly records: OpenHookRecord[] | undefined;
  readonly shadowed: ShadowedDecision[] | undefined;
  readonly errors: HookFailure[] | undefined;
  readonly started: number;
  /** The span's events, held until the phase ends, when they might not all fit its event limit. */
  readonly buffer: PhaseEventBuffer | undefined;

  constructor(
    readonly request: PhaseRequest,
    readonly matched: Matched<S>,
    /** The phase span when it records; events and summary go there. */
    readonly span: Span | undefined,
    observe: boolean,
    observers: number,
    /** The arguments as hooks see them: a frozen copy, never the caller's object (made by the core before the phase span starts). */
    readonly args: ToolArgs,
  ) {
    this.records = observe ? [] : undefined;
    this.shadowed = observe ? [] : undefined;
    this.errors = observe ? [] : undefined;
    this.started = observe ? performance.now() : 0;
    this.buffer = span === undefined ? undefined : phaseEventBuffer(span, matched.entries.length, observers);
  }

  /** The scrubber for this phase's error text: the call's, or one for the phase's args, made when first needed. */
  scrubber(core: RunnerCore<S>): ErrorScrubber {
    return (this.#scrubber ??= this.request.scrubber ?? core.capture.scrubber([this.request.args]));
  }
}

/**
 * Runs the matched hooks of a phase inside its span (made active even when it does not record, so
 * that the hooks' own spans follow its sampling decision).
 */
export function runPhase<S>(
  core: RunnerCore<S>,
  request: PhaseRequest,
  matched: Matched<S>,
  span: Span | undefined,
  args: ToolArgs,
): HookDecision | Promise<HookDecision> {
  if (span === undefined && !core.hasObservers) return foldQuietly(core, request, matched, args);
  const recording = span !== undefined && isRecording(span) ? span : undefined;
  const run = new PhaseRun<S>(request, matched, recording, core.hasObservers, core.observerCount, args);
  if (span === undefined) return aggregate(core, run);
  const outer = context.active();
  run.outer = outer;
  return context.with(trace.setSpan(outer, span), aggregate, undefined, core, run);
}

/**
 * The fold of a phase with nothing to record it (no span, no observers) while every hook settles it
 * the simple way: synchronously, with Continue, or with the first Skip / Redirect / Replace and no
 * other decision after it. Nothing is recorded on that path, so it keeps no running state; the first
 * hook that does anything else (returns a promise, fails, asks, aborts, is shadowed) hands the fold,
 * as it stands, to the full one ({@link aggregate}), which goes on from that hook — one fold either way.
 */
function foldQuietly<S>(core: RunnerCore<S>, request: PhaseRequest, matched: Matched<S>, args: ToolArgs): HookDecision | Promise<HookDecision> {
  const input: HookInput<S> = { request, matched, args };
  const entries = matched.entries;
  let winner: HookEntry<S> | undefined;
  let winning: HookDecision = CONTINUE;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as HookEntry<S>;
    const verdict = invoke(input, entry);
    if (!(verdict instanceof Promise) && !(verdict instanceof HookFailed)) {
      if (entry.mode === 'audit' || verdict.kind === 'continue') continue;
      if (winner === undefined && settlesQuietly(verdict, request.phase)) {
        winner = entry;
        winning = verdict;
        continue;
      }
    }
    const run = new PhaseRun<S>(request, matched, undefined, false, 0, input.args);
    run.winner = winner;
    run.winning = winning;
    if (verdict instanceof Promise) return aggregateAsync(core, run, index, 0, verdict);
    if (add(core, run, entry, verdict, 0)) run.aborted = true;
    return aggregate(core, run, index + 1);
  }
  return winning;
}

/** Whether a first non-Continue decision wins with nothing to record: Skip (not after the tool ran), Redirect, Replace. */
function settlesQuietly(decision: HookDecision, phase: Phase): boolean {
  return decision.kind === 'redirect' || decision.kind === 'replace' || (decision.kind === 'skip' && phase !== 'after_tool');
}

/** Invokes the matched hooks in order from `from`; goes asynchronous only at the first hook that returns a promise. */
function aggregate<S>(core: RunnerCore<S>, run: PhaseRun<S>, from = 0): HookDecision | Promise<HookDecision> {
  const entries = run.matched.entries;
  // Hook durations are recorded on the span and given to observers; with neither, the clock is not read.
  const timed = run.span !== undefined || run.records !== undefined;
  for (let index = from; index < entries.length; index += 1) {
    const entry = entries[index] as HookEntry<S>;
    if (run.aborted && entry.mode !== 'audit') continue;
    const started = timed ? performance.now() : 0;
    const verdict = invoke(run, entry);
    if (verdict instanceof Promise) return aggregateAsync(core, run, index, started, verdict);
    if (add(core, run, entry, verdict, timed ? performance.now() - started : 0)) run.aborted = true;
  }
  return end(core, run);
}

async function aggregateAsync<S>(
  core: RunnerCore<S>,
  run: PhaseRun<S>,
  index: number,
  started: number,
  pending: Promise<Verdict>,
): Promise<HookDecision> {
  const entries = run.matched.entries;
  const first = await pending;
  if (add(core, run, entries[index] as HookEntry<S>, first, performance.now() - started)) run.aborted = true;
  for (let next = index + 1; next < entries.length; next += 1) {
    const entry = entries[next] as HookEntry<S>;
    if (run.aborted && entry.mode !== 'audit') continue;
    const began = performance.now();
    let verdict = invoke(run, entry);
    if (verdict instanceof Promise) verdict = await verdict;
    if (add(core, run, entry, verdict, performance.now() - began)) run.aborted = true;
  }
  return end(core, run);
}

/** Records one hook's verdict and folds it into the phase's decision; true when an Abort ends the phase. */
function add<S>(core: RunnerCore<S>, run: PhaseRun<S>, entry: HookEntry<S>, verdict: Verdict, durationMs: number): boolean {
  const span = run.span;
  const audit = entry.mode === 'audit';
  let decision: HookDecision;
  let failed: { cause: unknown } | undefined;
  if (!(verdict instanceof HookFailed)) {
    decision = verdict;
  } else {
    run.errorCount += 1;
    const tally = run.request.tally;
    if (tally !== undefined) tally.hookErrors += 1;
    failed = { cause: verdict.error };
    const exception = run.scrubber(core).describe(verdict.error);
    decision = swallow(core, run, entry, verdict, exception);
    run.errors?.push(failureRecord(entry.name, entry.mode, verdict.kind, verdict.error, exception));
  }
  const decisionEvent = span === undefined ? -1 : note(core, run, span, { type: 'decision', hook: entry, decision, durationMs });
  const record = run.records === undefined ? undefined : hookRecord(entry, failed === undefined ? decision : undefined, durationMs, core.capture);
  if (record !== undefined) run.records?.push(record);

  // An audit hook's decision is recorded above and nothing more: no first-wins, no shadowing, no Abort.
  if (audit) {
    if (decision.kind !== 'continue') run.audited = true;
    return false;
  }
  if (decision.kind === 'continue') return false;
  // An Ask does not compete with Skip and Redirect: it asks for approval of whichever wins (see end).
  if (decision.kind === 'ask') {
    const asker = run.asker;
    if (asker === undefined) {
      run.asker = entry;
      run.ask = decision;
      run.askRecord = record;
    } else {
      shadow(core, run, entry.name, decision, asker.name, record, false);
    }
    return false;
  }
  if (decision.kind === 'skip' && run.request.phase === 'after_tool') {
    // The tool has run: a Skip means nothing here, and takes no part (a later Replace or Redirect wins).
    report(
      'warn',
      `toolhooks: hook "${entry.name}" returned Skip in after_tool for tool "${run.request.toolName}"; ` +
        'the tool has already run, so the Skip is ignored and treated as Continue',
    );
    return false;
  }
  const winner = run.winner;
  if (winner === undefined || decision.kind === 'abort') {
    // An Abort wins even over an earlier Skip/Redirect, which it shadows.
    if (winner !== undefined && run.winning.kind !== 'continue') {
      // Nothing is shadowed before the first winner, so the earlier winner goes first: hook order.
      shadow(core, run, winner.name, run.winning, entry.name, run.winnerRecord, true);
    }
    run.winner = entry;
    run.winning = decision;
    run.winnerRecord = record;
    run.buffer?.markWinner(decisionEvent);
    if (decision.kind === 'abort') {
      run.abortCause = failed;
      return true;
    }
    return false;
  }
  shadow(core, run, entry.name, decision, winner.name, record, false);
  return false;
}

/** Records `hook`'s decision as shadowed by `winner`'s: span event, observer entry (first or last), its record. */
function shadow<S>(
  core: RunnerCore<S>,
  run: PhaseRun<S>,
  hook: string,
  decision: HookDecision,
  winner: string,
  record: OpenHookRecord | undefined,
  first: boolean,
): void {
  run.shadowedCount += 1;
  if (run.span !== undefined) note(core, run, run.span, { type: 'shadowed', hook, decision, winner });
  const entry = shadowedRecord(hook, decision, core.capture);
  if (first) run.shadowed?.unshift(entry);
  else run.shadowed?.push(entry);
  if (record !== undefined) record.shadowedBy = winner;
}

/**
 * Writes one phase event (as the runner's `decisionRecords` say: a span event, a log event or both), or
 * holds its span event when the phase's events might not fit the span; returns its place when held.
 */
function note<S>(core: RunnerCore<S>, run: PhaseRun<S>, span: Span, event: PhaseSpanEvent): number {
  const buffer = run.buffer;
  if (buffer === undefined) {
    writeEvent(span, core.capture, event, core.recording);
    return -1;
  }
  const recording = core.recording;
  if (recording.logEvents && logEvent(span, core.capture, event, recording) && !recording.spanEvents) return -1;
  return buffer.add(event);
}

/**
 * Records and reports a swallowed hook failure. Returns the decision it stands for: Continue, or an
 * Abort for a fail-closed hook (an audit hook's Abort is recorded as what it would have done).
 */
function swallow<S>(core: RunnerCore<S>, run: PhaseRun<S>, entry: HookEntry<S>, failure: HookFailed, exception: RecordedError): HookDecision {
  const { phase, toolName } = run.request;
  const message = exception.message;
  const closed = entry.failureMode === 'closed';
  const consequence =
    entry.mode === 'audit'
      ? 'the hook is in audit mode, so the call goes on'
      : closed
        ? 'failureMode is closed, so the call is aborted'
        : 'treated as Continue';
  const text = `toolhooks: hook "${entry.name}" failed in ${phase} for tool "${toolName}" (${failure.kind}: ${message}); ${consequence}`;
  reportHookFailure(entry, text);
  if (run.span !== undefined) note(core, run, run.span, { type: 'error', hook: entry, kind: failure.kind, exception });
  return closed ? abort(`hook ${entry.name} failed: ${message}`) : CONTINUE;
}

/**
 * Ends the phase: observers, span summary, and the decision (or the HookAbortError). A phase in which
 * a hook asked and nothing skipped or aborted shows as `ask` (its winner the asking hook) and
 * returns the approval still to be settled.
 */
function end<S>(core: RunnerCore<S>, run: PhaseRun<S>): HookDecision | Promise<HookDecision> {
  const { phase, toolName, callId } = run.request;
  const span = run.span;
  const winning = run.winning;
  let shown: HookDecision['kind'] = winning.kind;
  let winnerName = winning.kind === 'continue' ? undefined : run.winner?.name;
  let pending: ApprovalToSettle | undefined;
  const asker = run.asker;
  if (asker !== undefined && run.ask !== undefined) {
    if (winning.kind === 'skip' || winning.kind === 'abort') {
      // Nothing would run, so there is nothing to approve.
      shadow(core, run, asker.name, run.ask, winnerName ?? '', run.askRecord, false);
    } else if (winning.kind === 'continue' || winning.kind === 'redirect') {
      pending = new ApprovalToSettle(run.ask, asker.name, winning);
      shown = 'ask';
      winnerName = asker.name;
    }
  }
  let dropped: DroppedEvents | undefined;
  if (run.records !== undefined && run.shadowed !== undefined && run.errors !== undefined) {
    const event: PhaseEvent = {
      type: 'phase',
      phase,
      toolName,
      decision: shown,
      ...(winnerName === undefined ? {} : { winner: winnerName }),
      hooks: run.records,
      shadowed: run.shadowed,
      errors: run.errors,
      durationMs: performance.now() - run.started,
      ...(callId === undefined ? {} : { callId }),
    };
    // Held events are written first: observers run before the span ends, and what they throw is recorded
    // on it, in the room the buffer kept for them.
    if (span !== undefined) dropped = run.buffer?.flush(span, core.capture, core.recording);
    core.notify(event, toolName, span, run.args);
  } else if (span !== undefined) {
    dropped = run.buffer?.flush(span, core.capture, core.recording);
  }
  if (span !== undefined) {
    const summary = {
      decision: shown,
      winner: winnerName,
      invoked: run.matched.entries.length,
      shadowed: run.shadowedCount,
      errors: run.errorCount,
      dropped,
    };
    if (core.recording.guardrail) {
      const shownDecision = shown === 'ask' ? run.ask : winning;
      const reason = shownDecision === undefined || shownDecision.kind === 'continue' ? undefined : core.capture.limit(shownDecision.reason);
      endPhaseSpan(span, { ...summary, phase, callId, reason, audited: run.audited }, core.recording);
    } else {
      endPhaseSpan(span, summary);
    }
  }
  if (winning.kind === 'abort') throw new HookAbortError(winning.reason, winnerName, run.abortCause);
  if (pending !== undefined) return settleApproval(core, run.request, pending, run.outer);
  return winning;
}
