/**
 * runWithRetry: an operation driven by a note (a prompt), retried with an enriched note when it
 * fails, with the hooks deciding at every step.
 */
import { errorMessage } from '../describe.js';
import { diag } from '@opentelemetry/api';
import type { HookDecision, Skip } from '../decisions.js';
import { HookAbortError } from '../errors.js';
import { callSync } from '../guard.js';
import type { ToolArgs } from '../hook.js';
import type { HookRunner, RunOptions } from '../runner.js';
import { runnerInternals } from '../runner.js';
import { diagSafe } from '../telemetry/capture.js';
import { optionalCount, requireArgs, requireFunction, requireObject, requireToolName } from './options.js';
import { ToolCall } from './tool-call.js';

/** Options of {@link runWithRetry}. */
export interface RunWithRetryOptions<S> {
  toolName: string;
  /** Arguments hooks see (the operation itself is driven by `note`). */
  args: ToolArgs;
  state?: S;
  hooks: HookRunner<S>;
  /** The first note (prompt) given to the operation. */
  note: string;
  /** Attempts in all, including the first. Default 2. */
  maxAttempts?: number;
  /** Builds the next note from the base note and the last error. Default: appends "PREVIOUS ATTEMPT FAILED: …". */
  enrichNote?: (note: string, error: unknown) => string;
  /** Whether an error is worth another attempt. Default: every error is. */
  isRetryable?: (error: unknown) => boolean;
  callId?: string;
}

/** The note the next attempt gets when no hook or `enrichNote` says otherwise. */
export function defaultEnrichNote(note: string, error: unknown): string {
  return `${note}\n\nPREVIOUS ATTEMPT FAILED:\n${errorMessage(error)}\nAdjust your approach to avoid this error.`;
}

/**
 * Runs `operation(note)` up to `maxAttempts` times inside one `execute_tool` span.
 * - before_tool: Skip returns the stub (JSON-serialised unless a string); Redirect's `newArgs.note`
 *   replaces the note; Abort raises.
 * - each failed attempt runs on_error: Abort raises (cause: the error), Skip returns the stub,
 *   Redirect's `newArgs.note` is the next note, Continue enriches the note with the error.
 * - exhaustion returns `{"success":false,"error":"<last message>","attempts":n}` as a string.
 * - after_tool fires once, with the final string.
 *
 * @example
 * ```ts
 * const sql = await runWithRetry((note) => llm.writeSql(note), {
 *   toolName: 'sql_writer', args: { table: 'orders' }, hooks, note: 'monthly revenue', maxAttempts: 3,
 * });
 * ```
 */
export async function runWithRetry<S>(
  operation: (note: string) => string | Promise<string>,
  options: RunWithRetryOptions<S>,
): Promise<string> {
  requireFunction(operation, 'runWithRetry: operation');
  requireObject(options, 'runWithRetry(options)');
  const internals = runnerInternals(options.hooks, 'runWithRetry');
  const { toolName, args, hooks, note, enrichNote, isRetryable, callId } = options;
  requireToolName(toolName, 'runWithRetry: toolName');
  requireArgs(args, 'runWithRetry: args');
  if (typeof note !== 'string') throw new TypeError('runWithRetry: note must be a string');
  if (enrichNote !== undefined) requireFunction(enrichNote, 'runWithRetry: enrichNote');
  if (isRetryable !== undefined) requireFunction(isRetryable, 'runWithRetry: isRetryable');
  if (callId !== undefined && typeof callId !== 'string') throw new TypeError('runWithRetry: callId must be a string');
  const maxAttempts = optionalCount(options.maxAttempts, 2, 'runWithRetry: maxAttempts', 1);
  const state = options.state as S;
  const runOptions = (attempt: number): RunOptions => (callId === undefined ? { attempt } : { attempt, callId });

  const call = new ToolCall(internals, toolName, callId, args);
  return call.run(async () => {
    const finish = async (result: string, attempt: number, durationMs: number): Promise<string> => {
      await hooks.runAfter(toolName, args, result, state, durationMs, runOptions(attempt));
      return result;
    };
    const started = performance.now();
    let baseNote = note;
    const before = await hooks.runBefore(toolName, args, state, runOptions(1));
    if (before.kind === 'skip') {
      call.outcome = 'skipped';
      return finish(serialiseStub(before), 1, 0);
    }
    if (before.kind === 'redirect') {
      call.redirected = true;
      baseNote = noteFrom(before, baseNote);
    }

    let current = baseNote;
    let lastError: unknown;
    let attempt = 1;
    for (; attempt <= maxAttempts; attempt += 1) {
      try {
        const noteForAttempt = current;
        const result = (await call.execute(toolName, attempt, runOperation, operation, noteForAttempt)) as string;
        if (attempt > 1) call.outcome = 'recovered';
        return finish(result, attempt, performance.now() - started);
      } catch (error) {
        if (error instanceof HookAbortError) throw error;
        lastError = error;
        const decision = await onError(hooks, toolName, args, error, state, runOptions(attempt));
        if (decision.kind === 'skip') {
          call.outcome = 'recovered';
          return finish(serialiseStub(decision), attempt, performance.now() - started);
        }
        if (!retryable(isRetryable, error, toolName)) break;
        if (attempt < maxAttempts) {
          call.retries += 1;
          current = decision.kind === 'redirect' ? noteFrom(decision, baseNote) : enrich(enrichNote, baseNote, error, toolName);
          if (decision.kind === 'redirect') call.redirected = true;
        }
      }
    }
    const attempts = Math.min(attempt, maxAttempts);
    call.markFailed(lastError);
    const payload = JSON.stringify({ success: false, error: errorMessage(lastError), attempts });
    return finish(payload, attempts, performance.now() - started);
  });
}

function runOperation(operation: (note: string) => string | Promise<string>, note: string): string | Promise<string> {
  return operation(note);
}

async function onError<S>(
  hooks: HookRunner<S>,
  toolName: string,
  args: ToolArgs,
  error: unknown,
  state: S,
  opts: RunOptions,
): Promise<HookDecision> {
  try {
    return await hooks.runError(toolName, args, error, state, opts);
  } catch (abortError) {
    if (abortError instanceof HookAbortError && abortError.cause === undefined) {
      throw new HookAbortError(abortError.reason, abortError.sourceHook, { cause: error });
    }
    throw abortError;
  }
}

function noteFrom(decision: { newArgs?: Readonly<Record<string, unknown>> }, fallback: string): string {
  const next = decision.newArgs?.note;
  return typeof next === 'string' ? next : fallback;
}

function serialiseStub(decision: Skip): string {
  if (typeof decision.stubResult === 'string') return decision.stubResult;
  const serialised = callSync(() => JSON.stringify(decision.stubResult));
  if (!serialised.ok || typeof serialised.value !== 'string') {
    const why = serialised.ok ? 'it serialises to nothing' : (errorMessage(serialised.error).split('\n')[0] ?? '');
    throw new TypeError(
      `runWithRetry: a Skip's stubResult must be a string or JSON-serialisable (${why}); ` +
        `skip reason: ${JSON.stringify(decision.reason)}`,
    );
  }
  return serialised.value;
}

function enrich(
  enrichNote: ((note: string, error: unknown) => string) | undefined,
  note: string,
  error: unknown,
  toolName: string,
): string {
  if (enrichNote === undefined) return defaultEnrichNote(note, error);
  const result = callSync(() => enrichNote(note, error));
  if (result.ok && typeof result.value === 'string') return result.value;
  diag.warn(
    diagSafe(
      `toolhooks: runWithRetry "${toolName}": enrichNote ${result.ok ? 'did not return a string' : `threw (${errorMessage(result.error)})`}; using the default enrichment`,
    ),
  );
  return defaultEnrichNote(note, error);
}

function retryable(isRetryable: ((error: unknown) => boolean) | undefined, error: unknown, toolName: string): boolean {
  if (isRetryable === undefined) return true;
  const result = callSync(() => isRetryable(error));
  if (result.ok) return Boolean(result.value);
  diag.warn(diagSafe(`toolhooks: runWithRetry "${toolName}": isRetryable threw (${errorMessage(result.error)}); not retrying`));
  return false;
}
