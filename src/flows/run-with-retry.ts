/**
 * runWithRetry: an operation driven by a note (a prompt), retried with an enriched note when it
 * fails, with the hooks deciding at every step.
 */
import { errorMessage } from '../internal/describe.js';
import { diag } from '@opentelemetry/api';
import type { Skip } from '../decisions.js';
import { HookAbortError } from '../errors.js';
import { callSync } from '../runner/guard.js';
import type { ToolArgs } from '../hook.js';
import type { HookRunner } from '../runner/hook-runner.js';
import { runnerCore } from '../runner/core.js';
import { diagSafe } from '../telemetry/capture.js';
import { optionalCount, optionalString, rejectUnknownOptions, requireArgs, requireFunction, requireObject, requireToolName } from '../internal/validate.js';
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
  /** What the operation does, recorded as `gen_ai.tool.description`. */
  toolDescription?: string;
  /** The agent making the call, recorded as `gen_ai.agent.name`; wins over the runner's. */
  agentName?: string;
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
  rejectUnknownOptions(options, OPTIONS, 'runWithRetry');
  const core = runnerCore<S>(options.hooks, 'runWithRetry');
  const { toolName, args, note, enrichNote, isRetryable } = options;
  requireToolName(toolName, 'runWithRetry: toolName');
  requireArgs(args, 'runWithRetry: args');
  if (typeof note !== 'string') throw new TypeError('runWithRetry: note must be a string');
  if (enrichNote !== undefined) requireFunction(enrichNote, 'runWithRetry: enrichNote');
  if (isRetryable !== undefined) requireFunction(isRetryable, 'runWithRetry: isRetryable');
  const maxAttempts = optionalCount(options.maxAttempts, 2, 'runWithRetry: maxAttempts', 1);
  const call = new ToolCall<S>({
    core,
    toolName,
    args,
    state: options.state as S,
    callId: optionalString(options.callId, 'runWithRetry: callId'),
    toolDescription: optionalString(options.toolDescription, 'runWithRetry: toolDescription'),
    agentName: optionalString(options.agentName, 'runWithRetry: agentName'),
    checkSkip: stubProblem,
  });
  return call.within(retry, { operation, note, maxAttempts, enrichNote, isRetryable });
}

const OPTIONS = [
  'toolName',
  'args',
  'state',
  'hooks',
  'note',
  'maxAttempts',
  'enrichNote',
  'isRetryable',
  'callId',
  'toolDescription',
  'agentName',
] as const;

interface RetryJob {
  readonly operation: (note: string) => string | Promise<string>;
  readonly note: string;
  readonly maxAttempts: number;
  readonly enrichNote: ((note: string, error: unknown) => string) | undefined;
  readonly isRetryable: ((error: unknown) => boolean) | undefined;
}

/** The retry loop, inside the call's span; it ends the call itself. */
async function retry<S>(job: RetryJob, call: ToolCall<S>): Promise<string> {
  const args = call.args;
  const started = performance.now();
  const finish = async (result: string, attempt: number, durationMs: number): Promise<string> => {
    await call.after(args, result, durationMs, attempt);
    return call.returned(result);
  };
  try {
    let baseNote = job.note;
    const before = await call.before(args);
    if (before.kind === 'skip') {
      call.outcome = 'skipped';
      return await finish(serialiseStub(before), 1, 0);
    }
    if (before.kind === 'redirect') {
      call.redirected = true;
      baseNote = noteFrom(before, baseNote);
    }
    let current = baseNote;
    let lastError: unknown;
    let attempt = 1;
    for (; attempt <= job.maxAttempts; attempt += 1) {
      try {
        const result = (await call.execute(call.toolName, attempt, runOperation, job.operation, current)) as string;
        if (attempt > 1) call.outcome = 'recovered';
        return await finish(result, attempt, performance.now() - started);
      } catch (error) {
        if (error instanceof HookAbortError) throw error;
        lastError = error;
        const decision = await call.onError(args, error, attempt);
        if (decision.kind === 'skip') {
          call.outcome = 'recovered';
          return await finish(serialiseStub(decision), attempt, performance.now() - started);
        }
        if (!retryable(job.isRetryable, error, call.toolName)) break;
        if (attempt < job.maxAttempts) {
          call.retries += 1;
          current = decision.kind === 'redirect' ? noteFrom(decision, baseNote) : enrich(job.enrichNote, baseNote, error, call.toolName);
          if (decision.kind === 'redirect') call.redirected = true;
        }
      }
    }
    const attempts = Math.min(attempt, job.maxAttempts);
    call.markFailed(lastError);
    return await finish(JSON.stringify({ success: false, error: errorMessage(lastError), attempts }), attempts, performance.now() - started);
  } catch (error) {
    call.threw(error);
    throw error;
  }
}

function runOperation(operation: (note: string) => string | Promise<string>, note: string): string | Promise<string> {
  return operation(note);
}

function noteFrom(decision: { newArgs?: Readonly<Record<string, unknown>> }, fallback: string): string {
  const next = decision.newArgs?.note;
  return typeof next === 'string' ? next : fallback;
}

/** The text a Skip's stub becomes: a string as is, anything else as JSON. */
function serialiseStub(decision: Skip): string {
  return typeof decision.stubResult === 'string' ? decision.stubResult : (JSON.stringify(decision.stubResult) as string);
}

/**
 * Why a Skip's stub cannot become the operation's text (then the Skip is the hook's invalid decision,
 * recorded like any other); undefined when it can.
 */
function stubProblem(decision: Skip): string | undefined {
  if (typeof decision.stubResult === 'string') return undefined;
  const serialised = callSync(() => JSON.stringify(decision.stubResult));
  if (serialised.ok && typeof serialised.value === 'string') return undefined;
  const why = serialised.ok ? 'it serialises to nothing' : (errorMessage(serialised.error).split('\n')[0] ?? '');
  return `stubResult cannot become runWithRetry's text (${why}); give a string or a JSON-serialisable value`;
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
