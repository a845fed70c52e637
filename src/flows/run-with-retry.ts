/**
 * runWithRetry: an operation driven by a note (a prompt), retried with an enriched note when it
 * fails, with the hooks deciding at every step.
 */
import { errorMessage } from '../internal/describe.js';
import type { HookDecision, Redirect, Skip } from '../decisions.js';
import { callSync } from '../runner/guard.js';
import type { ToolArgs } from '../hook.js';
import type { HookRunner } from '../runner/hook-runner.js';
import { runnerCore } from '../runner/registry.js';
import { optionalCount, optionalSignal, optionalString, rejectUnknownOptions, requireArgs, requireFunction, requireObject, requireToolName } from '../internal/validate.js';
import type { CallPlan } from './execute-tool.js';
import { runToolCall } from './execute-tool.js';
import type { RetryPolicy } from './retry-policy.js';
import { report } from '../telemetry/warn-once.js';

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
  /** Passed to hooks (`ctx.signal`); already aborted, no hook and no attempt runs and the call rejects with its reason. */
  signal?: AbortSignal;
}

/** The note the next attempt gets when no hook or `enrichNote` says otherwise. */
export function defaultEnrichNote(note: string, error: unknown): string {
  return `${note}\n\nPREVIOUS ATTEMPT FAILED:\n${errorMessage(error)}\nAdjust your approach to avoid this error.`;
}

/**
 * Runs `operation(note)` up to `maxAttempts` times inside one `execute_tool` span.
 * - before_tool: Skip returns the stub (JSON-serialised unless a string); Redirect's `newArgs.note`
 *   replaces the note; Abort raises; a denied approval returns the denial result like a Skip's stub.
 * - each failed attempt runs on_error: Abort raises (cause: the error), Skip returns the stub,
 *   Redirect's `newArgs.note` is the next note, Continue enriches the note with the error.
 * - exhaustion returns `{"success":false,"error":"<last message>","attempts":n}` as a string.
 * - after_tool fires once, with the final string; a Replace's result (as text) is returned instead.
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
  const policy = new NotePolicy(note, maxAttempts, enrichNote, isRetryable, toolName);
  const plan: CallPlan<S> = {
    core,
    toolName,
    args,
    state: options.state as S,
    callId: optionalString(options.callId, 'runWithRetry: callId'),
    toolDescription: optionalString(options.toolDescription, 'runWithRetry: toolDescription'),
    agentName: optionalString(options.agentName, 'runWithRetry: agentName'),
    signal: optionalSignal(options.signal, 'runWithRetry: signal'),
    checkSkip: stubProblem,
    execute: () => operation(policy.current),
    redirectExecutor: noRedirectExecutor,
    maxReexecutions: 0,
    maxRetries: 0,
    retry: policy,
  };
  return runToolCall(plan) as Promise<string>;
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
  'signal',
] as const;

/**
 * runWithRetry's retry policy over the one decision loop: each attempt runs the operation with the
 * current note; a Redirect's `newArgs.note` replaces it, else the next note is the base note enriched
 * with the error.
 */
class NotePolicy implements RetryPolicy {
  /** The note the next attempt runs with. */
  current: string;
  #base: string;

  constructor(
    note: string,
    readonly maxAttempts: number,
    readonly enrichNote: ((note: string, error: unknown) => string) | undefined,
    readonly isRetryable: ((error: unknown) => boolean) | undefined,
    readonly toolName: string,
  ) {
    this.current = note;
    this.#base = note;
  }

  stub(decision: Skip): string {
    return serialiseStub(decision.stubResult);
  }

  replaced(result: unknown): string {
    return serialiseStub(result);
  }

  redirect(decision: Redirect): void {
    this.#base = noteFrom(decision, this.#base);
    this.current = this.#base;
  }

  again(decision: HookDecision, error: unknown, attempt: number): boolean {
    if (!retryable(this.isRetryable, error, this.toolName) || attempt >= this.maxAttempts) return false;
    this.current = decision.kind === 'redirect' ? noteFrom(decision, this.#base) : enrich(this.enrichNote, this.#base, error, this.toolName);
    return true;
  }

  exhausted(error: unknown, attempts: number): string {
    return JSON.stringify({ success: false, error: errorMessage(error), attempts });
  }
}

function noRedirectExecutor(): undefined {
  return undefined;
}

function noteFrom(decision: { newArgs?: Readonly<Record<string, unknown>> }, fallback: string): string {
  const next = decision.newArgs?.note;
  return typeof next === 'string' ? next : fallback;
}

/**
 * The text a stub (a Skip's, a denial's) or a replaced result becomes: a string as is, anything else as
 * JSON — or its string form when it has none (a hook's own Skip stub is checked before it gets here);
 * never throws: what has neither (a null-prototype object holding a BigInt) reads as its tag.
 */
function serialiseStub(value: unknown): string {
  if (typeof value === 'string') return value;
  const serialised = callSync(() => JSON.stringify(value));
  if (serialised.ok && typeof serialised.value === 'string') return serialised.value;
  const text = callSync(() => String(value));
  if (text.ok && typeof text.value === 'string') return text.value;
  const tag = callSync(() => Object.prototype.toString.call(value));
  return tag.ok && typeof tag.value === 'string' ? tag.value : '[object]';
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
  report(
    'warn',
    `toolhooks: runWithRetry "${toolName}": enrichNote ${result.ok ? 'did not return a string' : `threw (${errorMessage(result.error)})`}; using the default enrichment`,
  );
  return defaultEnrichNote(note, error);
}

function retryable(isRetryable: ((error: unknown) => boolean) | undefined, error: unknown, toolName: string): boolean {
  if (isRetryable === undefined) return true;
  const result = callSync(() => isRetryable(error));
  if (result.ok) return Boolean(result.value);
  report('warn', `toolhooks: runWithRetry "${toolName}": isRetryable threw (${errorMessage(result.error)}); not retrying`);
  return false;
}
