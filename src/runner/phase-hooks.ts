/**
 * A runner's hooks by phase: which hooks have a method for each phase, and which of them apply to a
 * tool (their matchers, called through the guard). Compiled once, when the runner is made.
 * @internal
 */
import { callSync } from './guard.js';
import type { HookEntry } from './hook-entry.js';
import type { Phase } from '../hook.js';

/** The hooks of one phase that apply to a tool, with the failures of matchers that threw. */
export interface Matched<S> {
  readonly entries: readonly HookEntry<S>[];
  readonly matcherErrors: Map<HookEntry<S>, unknown> | undefined;
  /** Whether an enforce-mode hook is among them: one that could stop the call (`toolhooks.gated`). Known when matched, not per call. */
  readonly enforced: boolean;
}

const PHASES: readonly Phase[] = ['before_tool', 'after_tool', 'on_error'];
const PHASE_METHOD = { before_tool: 'beforeTool', after_tool: 'afterTool', on_error: 'onError' } as const;
const NONE: Matched<never> = { entries: [], matcherErrors: undefined, enforced: false };

export class PhaseHooks<S> {
  readonly #byPhase: Record<Phase, readonly HookEntry<S>[]>;
  /** Per phase: every hook of the phase, matched — used when no hook of the phase has a matcher. */
  readonly #allMatched: Record<Phase, Matched<S> | undefined>;

  constructor(entries: readonly HookEntry<S>[]) {
    const byPhase = {} as Record<Phase, readonly HookEntry<S>[]>;
    const allMatched = {} as Record<Phase, Matched<S> | undefined>;
    for (const phase of PHASES) {
      const method = PHASE_METHOD[phase];
      byPhase[phase] = entries.filter((entry) => entry.hook[method] !== undefined);
      allMatched[phase] = byPhase[phase].every((entry) => entry.matches === undefined)
        ? { entries: byPhase[phase], matcherErrors: undefined, enforced: anyEnforced(byPhase[phase]) }
        : undefined;
    }
    this.#byPhase = byPhase;
    this.#allMatched = allMatched;
  }

  /** Whether any hook has a method for the phase (whatever its matcher). */
  has(phase: Phase): boolean {
    return this.#byPhase[phase].length > 0;
  }

  /** The hooks of the phase that apply to the tool, in order; no entries when none does. */
  match(phase: Phase, toolName: string): Matched<S> {
    const candidates = this.#byPhase[phase];
    if (candidates.length === 0) return NONE;
    return this.#allMatched[phase] ?? matchTool(candidates, toolName);
  }
}

function matchTool<S>(candidates: readonly HookEntry<S>[], toolName: string): Matched<S> {
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
  return { entries, matcherErrors, enforced: anyEnforced(entries) };
}

/** Whether an enforce-mode hook is among the invoked ones: a hook that could have stopped the call. */
function anyEnforced<S>(entries: readonly HookEntry<S>[]): boolean {
  for (const entry of entries) if (entry.mode !== 'audit') return true;
  return false;
}
