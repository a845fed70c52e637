/**
 * One phase call: the matched hooks run in order (each called as `hook-call.ts` calls it), and each
 * verdict is folded into the phase's decision by the one fold step (`fold.ts`) and recorded, when the
 * phase records anything (`phase-record.ts`: span events, observer records). Synchronous while the
 * hooks are: a phase of synchronous hooks costs no promise, and one that records nothing allocates
 * nothing of its own (it reuses the last such phase's running state). The loop goes asynchronous at the first hook that returns a promise and goes
 * on from there with the same state; the quiet, synchronous and asynchronous paths differ only in what
 * they record.
 * @internal
 */
import { context, trace } from '@opentelemetry/api';
import type { Ask, DecisionKind, HookDecision } from '../decisions.js';
import { CONTINUE, abort } from '../decisions.js';
import { HookAbortError } from '../errors.js';
import { exhaustive } from '../internal/exhaustive.js';
import type { HookEntry } from './hook-entry.js';
import type { HookInput } from './hook-call.js';
import { invoke } from './hook-call.js';
import type { Matched } from './phase-hooks.js';
import type { PhaseRequest } from './phase-request.js';
import type { RecordedError, ToolArgs } from '../hook.js';
import type { ErrorScrubber } from '../telemetry/capture/error-text.js';
import { ApprovalToSettle, settleApproval } from './approvals.js';
import type { RunnerCore } from './core.js';
import type { FoldState } from './fold.js';
import { askOutcome, clearFold, foldStep, takesTurn } from './fold.js';
import type { PhaseRecord } from './phase-record.js';
import { openPhaseRecord } from './phase-record.js';
import { reportHookFailure } from './first-failure.js';
import type { Verdict } from './verdict.js';
import { HookFailed } from './verdict.js';
import { report } from '../telemetry/warn-once.js';

/** A phase's running state: what its hooks are given, the fold so far, and its record when it has one. */
class PhaseRun<S> implements HookInput<S>, FoldState<HookEntry<S>> {
  // The fold's state, as clearFold leaves it (declared here, written there: one place says what "before
  // the first hook" is).
  declare winner: HookEntry<S> | undefined;
  declare winning: HookDecision;
  declare asker: HookEntry<S> | undefined;
  declare ask: Ask | undefined;
  declare aborted: boolean;
  declare audited: boolean;

  constructor(
    public request: PhaseRequest,
    public matched: Matched<S>,
    /** The arguments as hooks see them: a frozen copy, never the caller's object (made by the core before the phase span starts). */
    public args: ToolArgs,
    /** What the phase records; undefined when nothing does (no span, no observers). */
    readonly record: PhaseRecord<S> | undefined,
  ) {
    clearFold(this);
  }

  /** Makes a quiet phase's finished state the state of the next one, as if new. */
  reuse(request: PhaseRequest, matched: Matched<S>, args: ToolArgs): void {
    this.request = request;
    this.matched = matched;
    this.args = args;
    clearFold(this);
  }
}

/**
 * The running state of the last phase that recorded nothing and ended synchronously, kept for the next
 * such phase (the commonest: a call the sampler dropped, no observers), with nothing of its call left in
 * it. Taken while a phase runs, so a phase started from inside a hook makes its own; a phase that goes
 * asynchronous, asks for approval or aborts does not give it back.
 */
let spare: PhaseRun<unknown> | undefined;
const NO_ARGS: ToolArgs = Object.freeze({});
const NO_MATCH: Matched<never> = Object.freeze({ entries: [], matcherErrors: undefined, enforced: false });
const NO_REQUEST: PhaseRequest = Object.freeze({ phase: 'before_tool', toolName: '', args: NO_ARGS, state: undefined });

/**
 * The Aborts that stand for a fail-closed hook's failure, with the failure: the HookAbortError's cause.
 * Written only when a hook fails closed; weak, so an Abort no longer referenced is not kept.
 */
const failureOf = new WeakMap<HookDecision, { cause: unknown }>();

/** The scrubber for a phase's error text: the call's, or one for the phase's args (a failure is rare: not kept per phase). */
function scrubberOf<S>(core: RunnerCore<S>, request: PhaseRequest): ErrorScrubber {
  return request.scrubber ?? core.capture.scrubber([request.args]);
}

/**
 * Runs the matched hooks of a phase, inside its span when it has one (made active even when it does not
 * record, so that the hooks' own spans follow its sampling decision).
 */
export function runPhase<S>(core: RunnerCore<S>, request: PhaseRequest, matched: Matched<S>, args: ToolArgs): HookDecision | Promise<HookDecision> {
  const record = openPhaseRecord(core, request, matched);
  if (record === undefined) return quietly(core, request, matched, args);
  const run = new PhaseRun<S>(request, matched, args, record);
  const active = record.active;
  if (active === undefined) return fold(core, run, 0);
  const outer = context.active();
  record.outer = outer;
  return context.with(trace.setSpan(outer, active), fold, undefined, core, run, 0);
}

/** A phase with nothing to record: folded in the spare state when there is one, which it gives back when it ends synchronously. */
function quietly<S>(core: RunnerCore<S>, request: PhaseRequest, matched: Matched<S>, args: ToolArgs): HookDecision | Promise<HookDecision> {
  let run = spare as PhaseRun<S> | undefined;
  if (run === undefined) run = new PhaseRun<S>(request, matched, args, undefined);
  else {
    spare = undefined;
    run.reuse(request, matched, args);
  }
  const decision = fold(core, run, 0);
  if (decision instanceof Promise) return decision;
  run.request = NO_REQUEST;
  run.matched = NO_MATCH;
  run.args = NO_ARGS;
  spare = run as PhaseRun<unknown>;
  return decision;
}

/** Folds the matched hooks from `from` on; goes asynchronous only at the first hook that returns a promise. */
function fold<S>(core: RunnerCore<S>, run: PhaseRun<S>, from: number): HookDecision | Promise<HookDecision> {
  const entries = run.matched.entries;
  // Hook durations are recorded on the span and given to observers; with neither, the clock is not read.
  const timed = run.record?.timed === true;
  for (let index = from; index < entries.length; index += 1) {
    const entry = entries[index] as HookEntry<S>;
    if (!takesTurn(run, entry)) continue;
    const started = timed ? performance.now() : 0;
    const verdict = invoke(run, entry);
    if (verdict instanceof Promise) return foldAsync(core, run, index, started, verdict);
    add(core, run, entry, verdict, timed ? performance.now() - started : 0);
  }
  return end(core, run);
}

/** The same fold once a hook returned a promise: `pending` is the verdict of hook `index`. */
async function foldAsync<S>(core: RunnerCore<S>, run: PhaseRun<S>, index: number, started: number, pending: Promise<Verdict>): Promise<HookDecision> {
  const entries = run.matched.entries;
  const timed = run.record?.timed === true;
  const first = await pending;
  add(core, run, entries[index] as HookEntry<S>, first, timed ? performance.now() - started : 0);
  for (let next = index + 1; next < entries.length; next += 1) {
    const entry = entries[next] as HookEntry<S>;
    if (!takesTurn(run, entry)) continue;
    const began = timed ? performance.now() : 0;
    let verdict = invoke(run, entry);
    if (verdict instanceof Promise) verdict = await verdict;
    add(core, run, entry, verdict, timed ? performance.now() - began : 0);
  }
  return end(core, run);
}

/** Folds one hook's verdict into the phase (a failure stands for Continue, or an Abort when fail-closed) and records what the step did. */
function add<S>(core: RunnerCore<S>, run: PhaseRun<S>, entry: HookEntry<S>, verdict: Verdict, durationMs: number): void {
  const record = run.record;
  // Continue is the fold's identity (its step is `none` and changes nothing): with nothing to record,
  // the commonest verdict costs no step.
  if (verdict === CONTINUE && record === undefined) return;
  let decision: HookDecision;
  const failed = verdict instanceof HookFailed;
  if (!failed) {
    decision = verdict;
  } else {
    const tally = run.request.tally;
    if (tally !== undefined) tally.hookErrors += 1;
    const exception = scrubberOf(core, run.request).describe(verdict.error);
    decision = swallow(core, run, entry, verdict, exception);
  }
  const hookRecord = record?.decided(core, entry, decision, failed, durationMs);
  const previous = run.winner;
  const previousDecision = run.winning;
  const step = foldStep(run, entry, decision, run.request.phase);
  switch (step) {
    case 'none':
      return;
    case 'late-skip':
      report(
        'warn',
        `toolhooks: hook "${entry.name}" returned Skip in after_tool for tool "${run.request.toolName}"; ` +
          'the tool has already run, so the Skip is ignored and treated as Continue',
      );
      return;
    case 'won':
      record?.won(hookRecord);
      return;
    case 'overtook':
      // Nothing is shadowed before the first winner, so the earlier winner goes first: hook order.
      record?.shadow(core, (previous as HookEntry<S>).name, previousDecision, entry.name, record.winnerRecord, true);
      record?.won(hookRecord);
      return;
    case 'aborted':
      record?.won(hookRecord);
      return;
    case 'asked':
      if (record !== undefined) record.askRecord = hookRecord;
      return;
    case 'shadowed':
      record?.shadow(core, entry.name, decision, (run.winner as HookEntry<S>).name, hookRecord, false);
      return;
    case 'ask-shadowed':
      record?.shadow(core, entry.name, decision, (run.asker as HookEntry<S>).name, hookRecord, false);
      return;
    default:
      exhaustive(step, 'fold step');
  }
}

/**
 * Reports (and records, when the phase records) a swallowed hook failure. Returns the decision it stands
 * for: Continue, or an Abort for a fail-closed hook (an audit hook's Abort is recorded as what it would
 * have done).
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
  run.record?.failed(core, entry, failure.kind, failure.error, exception);
  if (!closed) return CONTINUE;
  const decision = abort(`hook ${entry.name} failed: ${message}`);
  failureOf.set(decision, { cause: failure.error });
  return decision;
}

/**
 * Ends the phase: its record (observers, span summary), then the decision (or the HookAbortError). A
 * phase in which a hook asked and nothing skipped or aborted shows as `ask` (its winner the asking hook)
 * and returns the approval still to be settled.
 */
function end<S>(core: RunnerCore<S>, run: PhaseRun<S>): HookDecision | Promise<HookDecision> {
  const winning = run.winning;
  let shown: DecisionKind = winning.kind;
  let winnerName = winning.kind === 'continue' ? undefined : run.winner?.name;
  let pending: ApprovalToSettle | undefined;
  const record = run.record;
  const asker = run.asker;
  const ask = run.ask;
  if (asker !== undefined && ask !== undefined) {
    const outcome = askOutcome(run);
    if (outcome === 'shadowed') {
      record?.shadow(core, asker.name, ask, winnerName ?? '', record.askRecord, false);
    } else if (outcome === 'pending' && (winning.kind === 'continue' || winning.kind === 'redirect')) {
      pending = new ApprovalToSettle(ask, asker.name, winning);
      shown = 'ask';
      winnerName = asker.name;
    }
  }
  record?.end(core, run.request, run, run.args, run.matched.entries.length, shown, winnerName);
  if (winning.kind === 'abort') throw new HookAbortError(winning.reason, winnerName, failureOf.get(winning));
  if (pending !== undefined) return settleApproval(core, run.request, pending, record?.outer);
  return winning;
}
