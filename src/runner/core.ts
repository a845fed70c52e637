/**
 * A runner's compiled configuration — its hooks by phase, tracer, capture, observers — and the one
 * entry every phase call goes through, from the public run methods and from the flows alike.
 * @internal
 */
import type { Span, Tracer } from '@opentelemetry/api';
import type { HookDecision } from '../decisions.js';
import { CONTINUE } from '../decisions.js';
import { errorMessage } from '../internal/describe.js';
import { callObserver, callSync } from './guard.js';
import type { HookEntry } from './hook-entry.js';
import type { Approver, Phase, ToolHookEvent } from '../hook.js';
import type { Capture } from '../telemetry/capture/options.js';
import { recordEvent, startPhaseSpan } from '../telemetry/phase-span.js';
import type { Matched, PhaseRequest } from './phase.js';
import { runPhase } from './phase.js';
import { VERSION } from '../version.js';
import { processWide } from '../internal/brand.js';
import { report } from '../telemetry/warn-once.js';

const PHASES: readonly Phase[] = ['before_tool', 'after_tool', 'on_error'];
const PHASE_METHOD = { before_tool: 'beforeTool', after_tool: 'afterTool', on_error: 'onError' } as const;

export class RunnerCore<S = unknown> {
  readonly hasObservers: boolean;
  /** How many hooks observe (`onEvent`): a phase keeps room on its span for their failures. */
  readonly observerCount: number;
  readonly #byPhase: Record<Phase, readonly HookEntry<S>[]>;
  /** Per phase: every hook of the phase, matched — used when no hook of the phase has a matcher. */
  readonly #allMatched: Record<Phase, Matched<S> | undefined>;
  readonly #observers: readonly HookEntry<S>[];

  constructor(
    entries: readonly HookEntry<S>[],
    readonly tracer: Tracer,
    readonly capture: Capture,
    readonly agentName: string | undefined,
    /** Who decides the calls a hook asks about; undefined: nobody (an Ask is denied as `no_approver`). */
    readonly approver: Approver | undefined = undefined,
    /** How long an approval may take; 0 = no limit. */
    readonly approvalTimeoutMs = 0,
  ) {
    const byPhase = {} as Record<Phase, readonly HookEntry<S>[]>;
    const allMatched = {} as Record<Phase, Matched<S> | undefined>;
    for (const phase of PHASES) {
      const method = PHASE_METHOD[phase];
      byPhase[phase] = entries.filter((entry) => entry.hook[method] !== undefined);
      allMatched[phase] = byPhase[phase].every((entry) => entry.matches === undefined)
        ? { entries: byPhase[phase], matcherErrors: undefined }
        : undefined;
    }
    this.#byPhase = byPhase;
    this.#allMatched = allMatched;
    this.#observers = entries.filter((entry) => entry.hook.onEvent !== undefined);
    this.hasObservers = this.#observers.length > 0;
    this.observerCount = this.#observers.length;
  }

  /** Whether any hook has a method for the phase (whatever its matcher). */
  hasHooks(phase: Phase): boolean {
    return this.#byPhase[phase].length > 0;
  }

  /**
   * Runs one phase: synchronous (a decision, or a thrown HookAbortError) while the hooks are, a
   * promise once one returns a promise. A phase in which no hook is invoked records nothing.
   */
  run(request: PhaseRequest): HookDecision | Promise<HookDecision> {
    const phase = request.phase;
    const candidates = this.#byPhase[phase];
    if (candidates.length === 0) return CONTINUE;
    const matched = this.#allMatched[phase] ?? this.#match(candidates, request.toolName);
    if (matched.entries.length === 0) return CONTINUE;
    const tally = request.tally;
    if (tally !== undefined && phase === 'before_tool' && !tally.gated) tally.gated = anyEnforced(matched.entries);
    const span = request.traced === false ? undefined : startPhaseSpan(this.tracer, phase, request.toolName);
    return runPhase(this, request, matched, span);
  }

  #match(candidates: readonly HookEntry<S>[], toolName: string): Matched<S> {
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

  /** Delivers an event to every observer whose matcher accepts the tool; their errors are swallowed. */
  notify(event: ToolHookEvent, toolName: string, span: Span | undefined): void {
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
      report(
        'warn',
        `toolhooks: observer "${entry.name}" threw in onEvent (${event.type} event for tool "${toolName}"): ` +
          this.capture.limit(errorMessage(failure.error)),
      );
      if (span !== undefined) {
        recordEvent(span, this.capture, { type: 'error', hook: { ...entry, failureMode: 'open' }, kind: 'threw', error: failure.error });
      }
    }
  }
}

/** Whether an enforce-mode hook is among the invoked ones: a hook that could have stopped the call. */
function anyEnforced<S>(entries: readonly HookEntry<S>[]): boolean {
  for (const entry of entries) if (entry.mode !== 'audit') return true;
  return false;
}


/**
 * Runner → core, shared by the package's ESM and CommonJS builds (both loaded in one process), so either
 * build's flows accept either build's HookRunner. Named for this version: another version of the package
 * keeps its own (its core may differ).
 */
const cores = processWide(`toolhooks.runner-cores@${VERSION}`, () => new WeakMap<object, RunnerCore<never>>());

/** Links a runner to its core. */
export function attachCore<S>(runner: object, core: RunnerCore<S>): void {
  cores.set(runner, core as RunnerCore<never>);
}

/** The core of a runner; a TypeError naming `hooks` for anything that is not a runner. */
export function runnerCore<S = unknown>(runner: unknown, where: string): RunnerCore<S> {
  const found = typeof runner === 'object' && runner !== null ? cores.get(runner) : undefined;
  if (found === undefined) {
    throw new TypeError(`${where}: hooks must be a HookRunner (new HookRunner([...hooks]) from 'toolhooks'), got ${describeRunner(runner)}`);
  }
  return found as unknown as RunnerCore<S>;
}

function describeRunner(value: unknown): string {
  if (Array.isArray(value)) return 'an array (wrap it: new HookRunner(hooks))';
  return value === null ? 'null' : typeof value;
}
