/**
 * `replay()`: runs hooks against recorded tool calls and reports which effective decisions changed.
 */
import type { HookFailure, ToolArgs } from '../index.js';
import { errorMessage } from '../internal/describe.js';
import { anything, count, duration, readOptions } from '../internal/validate.js';
import { markerFlags } from './markers.js';
import { recordedCalls, type RecordedCall } from './recorded-calls.js';
import { countFlips } from './flips.js';
import { ReplayRunner, type PhaseReplay } from './replay-runner.js';
import { DEFAULT_MAX_SOURCE_BYTES, readSourceSpans } from './source.js';
import type { RecordedDecision, ReplayChange, ReplayFlag, ReplayHookError, ReplayOptions, ReplayReport } from './types.js';

/**
 * Replays recorded tool calls through `hooks`, never running a tool. For every `execute_tool` span of
 * `source` whose arguments were captured (`gen_ai.tool.call.arguments`), it runs the before_tool phase
 * with the recorded tool name, arguments and call id, and compares the effective decision and winning
 * hook with the recorded ones. When the result was captured too (and before_tool did not change), it
 * replays after_tool with that result the same way. Rejects with {@link ReplayInputError} when the
 * source or the hooks cannot be used; a hook that fails during replay is reported in `hookErrors`.
 *
 * @example
 * ```ts
 * import { replay } from 'toolhooks/replay';
 * import policy from './policy.mjs';
 *
 * const report = await replay({ hooks: policy, source: 'traces.jsonl' });
 * for (const change of report.changed) {
 *   console.log(`${change.tool} ${change.callId}: ${change.recorded.decision} -> ${change.replayed.decision}`);
 * }
 * ```
 */
export async function replay<S = unknown>(options: ReplayOptions<S>): Promise<ReplayReport> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('replay(options) takes an object: replay({ hooks, source })');
  }
  const given = readOptions(options, 'replay(options)', 'replay', {
    hooks: anything,
    source: anything,
    state: anything,
    fetchTimeoutMs: duration(1),
    maxSourceBytes: count(1),
  }) as ReplayOptions<S>;
  const { maxSourceBytes = DEFAULT_MAX_SOURCE_BYTES } = given;
  // Hooks first: a bad policy is reported before anything is fetched.
  const runner = new ReplayRunner<S>(given.hooks);
  const spans = await readSourceSpans(given.source, { fetchTimeoutMs: given.fetchTimeoutMs, maxSourceBytes });
  const calls = recordedCalls(spans);
  return replayCalls(runner, calls, given.state as S);
}

/** Replays parsed calls one at a time (hooks may keep state, so order matters as it did live). */
export async function replayCalls<S>(runner: ReplayRunner<S>, calls: readonly RecordedCall[], state: S): Promise<ReplayReport> {
  let replayed = 0;
  let unchanged = 0;
  const changed: ReplayChange[] = [];
  const hookErrors: ReplayHookError[] = [];
  for (const call of calls) {
    const args = parseArguments(call.arguments);
    if (args === undefined) continue;
    runner.clockAt(call.startNs);
    const before = await replayPhase(() => runner.before(call.tool, args, state, call.callId));
    if (before === undefined) continue;
    replayed += 1;
    let callChanged = false;
    hookErrors.push(...before.errors.map((failure) => hookError(call, 'before_tool', failure)));
    if (differs(call.before, before)) {
      callChanged = true;
      changed.push(change(call, 'before_tool', call.before, before, markerFlags(args)));
    } else if (shouldReplayAfter(call, before)) {
      const result = parseJson(call.result as string);
      const afterArgs = argsAfter(args, before);
      const after = await replayPhase(() =>
        runner.after(call.effectiveTool, afterArgs, result.value, state, call.executeMs, call.callId, call.attempt),
      );
      if (after !== undefined) {
        hookErrors.push(...after.errors.map((failure) => hookError(call, 'after_tool', failure)));
        const recorded = call.after ?? { decision: 'continue', hook: null };
        if (differs(recorded, after)) {
          callChanged = true;
          changed.push(change(call, 'after_tool', recorded, after, markerFlags(args, result.value)));
        }
      }
    }
    if (!callChanged) unchanged += 1;
  }
  return { calls: calls.length, replayed, notReplayable: calls.length - replayed, unchanged, changed, ...countFlips(changed), hookErrors };
}

/** A runner error other than an Abort (e.g. a recorded tool name the runner rejects) makes the call not replayable. */
async function replayPhase(run: () => Promise<PhaseReplay>): Promise<PhaseReplay | undefined> {
  try {
    return await run();
  } catch {
    return undefined;
  }
}

function parseJson(text: string): { ok: boolean; value: unknown } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, value: undefined };
  }
}

/** The recorded arguments as an object; undefined when not captured or not an object. */
function parseArguments(text: string | undefined): ToolArgs | undefined {
  if (text === undefined) return undefined;
  const parsed = parseJson(text);
  const value = parsed.value;
  if (!parsed.ok || typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return value as ToolArgs;
}

function differs(recorded: RecordedDecision, replayed: PhaseReplay): boolean {
  return recorded.decision !== replayed.replayed.decision || recorded.hook !== replayed.replayed.hook;
}

/**
 * after_tool is replayed only where the recorded result is what it would see: a result was captured,
 * before_tool let the same thing happen (unchanged, and not an Abort), and after_tool ran on that result
 * live (an after_tool span, or a call that completed or was skipped; a call recovered by an onError Skip
 * returned without after_tool).
 */
function shouldReplayAfter(call: RecordedCall, before: PhaseReplay): boolean {
  if (call.result === undefined || before.replayed.decision === 'abort') return false;
  if (!parseJson(call.result).ok) return false;
  return call.after !== undefined || call.outcome === 'completed' || call.outcome === 'skipped';
}

/** The arguments the tool ran with: a before_tool Redirect's `newArgs` merged over the recorded ones. */
function argsAfter(args: ToolArgs, before: PhaseReplay): ToolArgs {
  const decision = before.decision;
  if (decision?.kind !== 'redirect' || decision.newArgs === undefined) return args;
  const merged: ToolArgs = {};
  // defineProperty, not assignment: a recorded "__proto__" key stays data.
  for (const source of [args, decision.newArgs]) {
    for (const [key, value] of Object.entries(source)) {
      Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return merged;
}

function change(
  call: RecordedCall,
  phase: 'before_tool' | 'after_tool',
  recorded: RecordedDecision,
  replayed: PhaseReplay,
  flags: ReplayFlag[],
): ReplayChange {
  return {
    traceId: call.traceId,
    spanId: call.spanId,
    tool: call.tool,
    callId: call.callId,
    recorded: { decision: recorded.decision, hook: recorded.hook },
    replayed: replayed.replayed,
    phase,
    flags,
  };
}

function hookError(call: RecordedCall, phase: 'before_tool' | 'after_tool', failure: HookFailure): ReplayHookError {
  return {
    traceId: call.traceId,
    spanId: call.spanId,
    tool: call.tool,
    callId: call.callId,
    phase,
    hook: failure.hook,
    kind: failure.kind,
    message: failure.exception?.message ?? errorMessage(failure.error),
  };
}
