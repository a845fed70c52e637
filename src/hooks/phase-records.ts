/**
 * Pairs a phase event's hook records with its shadowed decisions, so that the metrics and logging hooks
 * count and log every invoked hook's decision exactly once, flagged as shadowed or not.
 * @internal
 */
import type { PhaseEvent, PhaseHookRecord, ShadowedDecision } from '../hook.js';

/**
 * Calls `visit` once per hook record of `event`, in hook order, with the shadowed entry that describes
 * the same decision (or `undefined`). Shadowed entries are listed in hook order too, so one pass with a
 * cursor pairs them without allocating; an entry that matches no record (a runner inconsistency) is
 * still visited, with a synthetic record, so that nothing the runner reported goes uncounted.
 */
export function forEachHookDecision(
  event: PhaseEvent,
  visit: (record: PhaseHookRecord, shadowed: ShadowedDecision | undefined) => void,
): void {
  const shadowed = event.shadowed;
  let next = 0;
  for (const record of event.hooks) {
    const candidate = shadowed[next];
    if (
      candidate !== undefined &&
      record.decision !== 'continue' &&
      candidate.hook === record.hook &&
      candidate.decision === record.decision
    ) {
      next++;
      visit(record, candidate);
    } else {
      visit(record, undefined);
    }
  }
  for (; next < shadowed.length; next++) {
    const orphan = shadowed[next];
    if (orphan !== undefined) visit({ hook: orphan.hook, decision: orphan.decision, durationMs: Number.NaN }, orphan);
  }
}
