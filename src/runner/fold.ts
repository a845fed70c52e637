/**
 * The phase fold, one hook at a time: how one hook's decision combines with the decisions before it.
 * The first Abort ends the phase (later enforced hooks do not run, audit hooks still do) and wins even
 * over an earlier winner, which it shadows; otherwise the first non-Continue decision wins and later
 * ones are shadowed; the first Ask (before_tool) waits for whichever decision wins and shadows later
 * Asks; a Skip in after_tool takes no part (the tool has run); an audit hook's decision is noted and
 * takes no part.
 *
 * Pure: a step reads and writes only the fold's state and says what happened ({@link Step}); what is
 * recorded of it (span events, observer records, the after_tool Skip warning) is the caller's. The
 * quiet, synchronous and asynchronous paths of a phase (`phase.ts`) all fold through {@link foldStep}
 * and differ only in what they record.
 * @internal
 */
import type { Ask, HookDecision } from '../decisions.js';
import { CONTINUE } from '../decisions.js';
import type { HookMode, Phase } from '../hook.js';
import { exhaustive } from '../internal/exhaustive.js';

/** A hook as the fold sees it (a `HookEntry`). */
export interface Folded {
  readonly name: string;
  readonly mode: HookMode;
}

/** The fold's running state: the decision so far, its hook, the first Ask, and whether the phase ended. */
export interface FoldState<H extends Folded = Folded> {
  /** The hook whose decision wins so far; undefined while every decision was Continue. */
  winner: H | undefined;
  /** The decision that wins so far (Continue until a hook decides otherwise). */
  winning: HookDecision;
  /** The first enforced Ask (before_tool), which later Asks are shadowed by. */
  asker: H | undefined;
  ask: Ask | undefined;
  /** Set once an enforced hook aborted: no later enforced hook runs (audit hooks still do). */
  aborted: boolean;
  /** Whether an audit hook would have changed the call (the guardrail conventions' `audit` action). */
  audited: boolean;
}

/**
 * What one step did, for the caller to record:
 * - `none`: takes no part (Continue, or an audit hook's decision);
 * - `late-skip`: a Skip in after_tool, ignored (the hook is told);
 * - `won`: the first non-Continue decision, now the winner;
 * - `asked`: the first Ask, waiting for the winner;
 * - `shadowed`: lost to the winner so far;
 * - `ask-shadowed`: an Ask after the first, lost to it;
 * - `aborted`: an Abort with no winner before it — the phase ends;
 * - `overtook`: an Abort after a winner, which it shadows — the phase ends.
 */
export type Step = 'none' | 'late-skip' | 'won' | 'asked' | 'shadowed' | 'ask-shadowed' | 'aborted' | 'overtook';

/** Puts `state` back to before the first hook: no winner (Continue), no Ask, not aborted, nothing audited. */
export function clearFold<H extends Folded>(state: FoldState<H>): FoldState<H> {
  state.winner = undefined;
  state.winning = CONTINUE;
  state.asker = undefined;
  state.ask = undefined;
  state.aborted = false;
  state.audited = false;
  return state;
}

/** Whether `hook` still runs: every hook until an Abort, then audit hooks only. */
export function takesTurn(state: FoldState<Folded>, hook: Folded): boolean {
  return !state.aborted || hook.mode === 'audit';
}

/** Folds `hook`'s decision into `state` (in `phase`); says what happened. */
export function foldStep<H extends Folded>(state: FoldState<H>, hook: H, decision: HookDecision, phase: Phase): Step {
  if (hook.mode === 'audit') {
    // Noted and nothing more: no first-wins, no shadowing, no Abort.
    if (decision.kind !== 'continue') state.audited = true;
    return 'none';
  }
  switch (decision.kind) {
    case 'continue':
      return 'none';
    case 'ask':
      // An Ask does not compete with Skip and Redirect: it asks for approval of whichever wins.
      if (state.asker !== undefined) return 'ask-shadowed';
      state.asker = hook;
      state.ask = decision;
      return 'asked';
    case 'skip':
      // The tool has run: a Skip means nothing in after_tool (a later Replace or Redirect wins).
      if (phase === 'after_tool') return 'late-skip';
      return win(state, hook, decision);
    case 'redirect':
    case 'replace':
      return win(state, hook, decision);
    case 'abort': {
      // An Abort wins even over an earlier Skip / Redirect / Replace, which it shadows.
      const overtook = state.winner !== undefined && state.winning.kind !== 'continue';
      state.winner = hook;
      state.winning = decision;
      state.aborted = true;
      return overtook ? 'overtook' : 'aborted';
    }
    default:
      return exhaustive(decision, 'decision kind');
  }
}

function win<H extends Folded>(state: FoldState<H>, hook: H, decision: HookDecision): Step {
  if (state.winner !== undefined) return 'shadowed';
  state.winner = hook;
  state.winning = decision;
  return 'won';
}

/**
 * What becomes of the phase's Ask once every hook has run: `pending` (nothing skipped or aborted: the
 * winner — Continue or a Redirect — waits for approval, and the phase shows as `ask`), `shadowed` (a
 * Skip or an Abort won: nothing would run, so there is nothing to approve), or `none` (no hook asked).
 */
export function askOutcome(state: FoldState<Folded>): 'none' | 'pending' | 'shadowed' {
  if (state.asker === undefined || state.ask === undefined) return 'none';
  const winning = state.winning;
  switch (winning.kind) {
    case 'skip':
    case 'abort':
      return 'shadowed';
    case 'continue':
    case 'redirect':
      return 'pending';
    case 'replace':
    case 'ask':
      // Neither wins beside an Ask: Replace belongs to after_tool, Ask to before_tool, and Asks never win.
      return 'none';
    default:
      return exhaustive(winning, 'decision kind');
  }
}
