/**
 * Flip classes: how the before_tool decision of the replayed calls moved (`abort→continue`), counted per
 * class, and which moves loosen a policy: a call recorded as stopped (abort, skip, ask — a denied call was
 * asked) that would now continue or redirect. What `--fail-on loosened` gates on.
 * @internal
 */
import type { DecisionKind } from '../decisions.js';
import type { ReplayChange } from './types.js';

/**
 * What each before_tool decision does to a call: `stops` it (it does not run as the model asked without a
 * person: abort, skip, ask — a denied call was asked), `runs` it (continue, redirect), or neither (replace
 * belongs to after_tool). A table the type checker holds complete: a new kind fails it until placed.
 */
export const BEFORE_TOOL_MOVES: Readonly<Record<DecisionKind, 'stops' | 'runs' | 'neither'>> = {
  abort: 'stops',
  skip: 'stops',
  ask: 'stops',
  continue: 'runs',
  redirect: 'runs',
  replace: 'neither',
};

/** `abort→continue`: the recorded decision, an arrow, the replayed one. */
function flipClass(recorded: DecisionKind, replayed: DecisionKind): string {
  return `${recorded}→${replayed}`;
}

/** Whether a before_tool move loosens: recorded as stopped, replayed as running. */
function isLoosened(recorded: DecisionKind, replayed: DecisionKind): boolean {
  return BEFORE_TOOL_MOVES[recorded] === 'stops' && BEFORE_TOOL_MOVES[replayed] === 'runs';
}

/**
 * The count of each flip class among the changes whose before_tool decision moved (a change of winning
 * hook alone is no flip), in the order classes first appear; and how many of them loosen.
 */
export function countFlips(changes: readonly ReplayChange[]): { flips: Record<string, number>; loosened: number } {
  const flips: Record<string, number> = {};
  let loosened = 0;
  for (const change of changes) {
    if (change.phase !== 'before_tool' || change.recorded.decision === change.replayed.decision) continue;
    const key = flipClass(change.recorded.decision, change.replayed.decision);
    flips[key] = (flips[key] ?? 0) + 1;
    if (isLoosened(change.recorded.decision, change.replayed.decision)) loosened += 1;
  }
  return { flips, loosened };
}
