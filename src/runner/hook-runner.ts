/**
 * HookRunner: the public face of the hook protocol. It validates what it is given at construction
 * (a misspelt option or hook member is a TypeError naming the fix) and runs the phases through its
 * core (runner/core.ts), which folds the hooks' decisions (runner/phase.ts).
 * How decisions combine: docs/protocol.md.
 */
import { trace } from '@opentelemetry/api';
import type { HookDecision } from '../decisions.js';
import type { Phase, ToolArgs, ToolHook } from '../hook.js';
import { checkFailureMode, checkTimeout, createHookEntry } from './hook-entry.js';
import { typeName } from '../internal/describe.js';
import { RunnerCore } from './core.js';
import { attachCore } from './registry.js';
import type { HookRunnerOptions, RunOptions } from './options.js';
import { checkRunCall, readRunnerOptions } from './options.js';
import type { PhaseRequest } from './phase-request.js';
import { resolveCapture } from '../telemetry/capture/options.js';
import type { RecordingOptions } from '../telemetry/decision-records.js';
import { DEFAULT_RECORDING, Recording } from '../telemetry/decision-records.js';
import { INSTRUMENTATION_NAME } from '../telemetry/semconv.js';
import { VERSION } from '../version.js';

export type { HookRunnerOptions, RunOptions } from './options.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_APPROVAL_TIMEOUT_MS = 300_000;

/**
 * Runs hooks around tool calls and aggregates their decisions: hooks run in registration order, the
 * first Abort raises {@link HookAbortError} at once, otherwise the first non-Continue decision wins and
 * later ones are recorded as shadowed; audit hooks are recorded and never take effect. A hook that
 * throws, times out or returns junk is recorded and swallowed (or aborts the call when fail-closed).
 *
 * Misuse fails at construction with a TypeError (a RangeError for an out-of-range timeout); the run
 * methods never throw anything but `HookAbortError`, except a TypeError for arguments of the wrong type.
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
  readonly #core: RunnerCore<S>;

  constructor(hooksOrOptions?: ToolHook<S>[] | HookRunnerOptions<S>) {
    const options = readRunnerOptions(hooksOrOptions);
    const timeoutMs =
      options.timeoutMs === undefined ? DEFAULT_TIMEOUT_MS : checkTimeout(options.timeoutMs, 'HookRunner: timeoutMs');
    const failureMode =
      options.failureMode === undefined ? 'open' : checkFailureMode(options.failureMode, 'HookRunner: failureMode');
    if (options.tracer !== undefined && typeof (options.tracer as { startSpan?: unknown }).startSpan !== 'function') {
      throw new TypeError('HookRunner: tracer must be an OpenTelemetry Tracer (with startSpan)');
    }
    // Checked by readRunnerOptions: 0 (no limit) up to the longest timer Node keeps.
    const approvalTimeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
    const hooks = options.hooks ?? [];
    if (!Array.isArray(hooks)) throw new TypeError(`HookRunner: hooks must be an array, got ${typeName(hooks)}`);
    const entries = hooks.map((hook, index) => createHookEntry(hook, index, { timeoutMs, failureMode }));
    this.hooks = Object.freeze([...hooks]);
    this.#core = new RunnerCore<S>(
      entries,
      options.tracer ?? trace.getTracer(INSTRUMENTATION_NAME, VERSION),
      resolveCapture(options.capture),
      options.agentName,
      options.approver,
      approvalTimeoutMs,
      recordingOf(options),
    );
    attachCore(this, this.#core);
  }

  /**
   * Runs the `beforeTool` hooks. Returns the winning decision; throws {@link HookAbortError} on Abort.
   * When a hook asked for approval, it waits for the runner's `approver` and never returns the Ask:
   * approved, the decision the other hooks made (a Redirect carrying the approver's argument edits,
   * when any); denied, a Skip whose stub is the denial result — so a caller that handles only Skip
   * and Redirect never runs a denied call.
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
   * Runs the `afterTool` hooks with the tool's result. The first Replace (return its `result`
   * instead) or Redirect (re-execute) wins. A Skip has no meaning after the tool ran: it is recorded,
   * warned about and takes no part.
   *
   * @example
   * ```ts
   * const decision = await runner.runAfter('search', args, result, state, 12.5);
   * if (decision.kind === 'redirect') rerun({ ...args, ...decision.newArgs });
   * ```
   */
  runAfter(toolName: string, args: ToolArgs, result: unknown, state: S, durationMs: number, opts?: RunOptions): Promise<HookDecision> {
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
      const checked = checkRunCall(phase, toolName, args, opts);
      const request: PhaseRequest = {
        phase,
        toolName,
        args,
        state,
        value,
        durationMs,
        callId: checked.callId,
        agentName: this.#core.agentName,
        attempt: checked.attempt ?? 1,
        signal: checked.signal,
        isRedirectTarget: redirectTargetCheck(checked.knownTools),
      };
      return Promise.resolve(this.#core.run(request));
    } catch (error) {
      return Promise.reject(error);
    }
  }
}

function redirectTargetCheck(known: RunOptions['knownTools']): ((tool: string) => boolean) | undefined {
  if (known === undefined) return undefined;
  if (Array.isArray(known)) return (tool) => (known as readonly string[]).includes(tool);
  return (tool) => (known as ReadonlySet<string>).has(tool);
}

/** The runner's recording settings; the shared default when it sets none of their options. */
function recordingOf(options: RecordingOptions): Recording {
  const { decisionRecords, conventions, abortStatus, vendorHints } = options;
  if (decisionRecords === undefined && conventions === undefined && abortStatus === undefined && vendorHints === undefined) return DEFAULT_RECORDING;
  return new Recording({ decisionRecords, conventions, abortStatus, vendorHints });
}
