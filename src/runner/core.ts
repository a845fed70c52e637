/**
 * A runner's compiled configuration — its hooks by phase (`phase-hooks.ts`), its observers
 * (`observers.ts`), tracer, capture settings, agent name and approver — and the one entry every phase
 * call goes through, from the public run methods and from the flows alike. A flow finds a runner's
 * core through `registry.ts`.
 * @internal
 */
import type { Span, Tracer } from '@opentelemetry/api';
import type { HookDecision } from '../decisions.js';
import { CONTINUE } from '../decisions.js';
import type { HookEntry } from './hook-entry.js';
import type { Approver, Phase, ToolArgs, ToolHookEvent } from '../hook.js';
import type { Capture } from '../telemetry/capture/options.js';
import type { Recording } from '../telemetry/decision-records.js';
import { DEFAULT_RECORDING } from '../telemetry/decision-records.js';
import { Observers } from './observers.js';
import type { PhaseRequest } from './phase-request.js';
import { runPhase } from './phase.js';
import { hookArgs } from './read-only-args.js';
import { PhaseHooks } from './phase-hooks.js';

export class RunnerCore<S = unknown> {
  readonly #hooks: PhaseHooks<S>;
  readonly #observers: Observers<S>;
  readonly hasObservers: boolean;
  /** How many hooks observe (`onEvent`): a phase keeps room on its span for their failures. */
  readonly observerCount: number;

  constructor(
    entries: readonly HookEntry<S>[],
    readonly tracer: Tracer,
    readonly capture: Capture,
    readonly agentName: string | undefined,
    /** Who decides the calls a hook asks about; undefined: nobody (an Ask is denied as `no_approver`). */
    readonly approver: Approver | undefined = undefined,
    /** How long an approval may take; 0 = no limit. */
    readonly approvalTimeoutMs = 0,
    /** Where decision records go and which conventions they follow. */
    readonly recording: Recording = DEFAULT_RECORDING,
  ) {
    this.#hooks = new PhaseHooks(entries);
    this.#observers = new Observers(entries, capture, recording);
    this.observerCount = this.#observers.count;
    this.hasObservers = this.observerCount > 0;
  }

  /** Whether any hook has a method for the phase (whatever its matcher). */
  hasHooks(phase: Phase): boolean {
    return this.#hooks.has(phase);
  }

  /**
   * Runs one phase: synchronous (a decision, or a thrown HookAbortError) while the hooks are, a
   * promise once one returns a promise. A phase in which no hook is invoked records nothing.
   */
  run(request: PhaseRequest): HookDecision | Promise<HookDecision> {
    const phase = request.phase;
    const matched = this.#hooks.match(phase, request.toolName);
    if (matched.entries.length === 0) return CONTINUE;
    const tally = request.tally;
    if (tally !== undefined && phase === 'before_tool' && !tally.gated) tally.gated = matched.enforced;
    // The hooks' read-only copy is made before the span starts: arguments that cannot be copied refuse
    // the call (ArgumentsNotCopiedError) with no span left open.
    const args = hookArgs(request.args, request.argsCopy);
    return runPhase(this, request, matched, args);
  }

  /**
   * Delivers an event to every observer whose matcher accepts the tool; their errors are swallowed.
   * `args` (what the event is about) reach only the built-in observers that read them (event-facts.ts).
   */
  notify(event: ToolHookEvent, toolName: string, span: Span | undefined, args?: ToolArgs): void {
    this.#observers.notify(event, toolName, span, args);
  }
}
