/**
 * runPlan: a plan of subtasks, each run through the hooks as tool `meta:<name>`.
 */
import { errorMessage } from '../internal/describe.js';
import { HookAbortError } from '../errors.js';
import type { ToolArgs } from '../hook.js';
import type { HookRunner } from '../runner/hook-runner.js';
import { runnerCore } from '../runner/registry.js';
import { executeTool } from './execute-tool.js';
import { optionalSignal, rejectUnknownOptions, requireFunction, requireObject } from '../internal/validate.js';

/** One step of a plan. */
export interface Subtask {
  readonly name: string;
  readonly prompt: string;
}

/** How one subtask ended. */
export interface SubtaskResult {
  readonly name: string;
  readonly success: boolean;
  readonly output?: unknown;
  /** `aborted: <reason>` when a hook aborted it, else the error's message. */
  readonly error?: string;
  readonly durationMs: number;
}

/** Options of {@link runPlan}. */
export interface RunPlanOptions<S> {
  hooks: HookRunner<S>;
  state?: S;
  /** Runs one subtask; `args` are the (possibly redirected) `{ subtask, prompt }`. */
  runSubtask: (subtask: Subtask, args: ToolArgs) => unknown;
  /**
   * Passed to the hooks (`ctx.signal`) of every subtask. Aborted before a subtask starts, no further
   * subtask runs and the plan rejects with its reason.
   */
  signal?: AbortSignal;
}

/**
 * Runs each subtask in order through {@link executeTool} as tool `meta:<name>` with args
 * `{ subtask: name, prompt }`. A Redirect's `newArgs.prompt` replaces the prompt the subtask gets;
 * an Abort (or an error) marks that subtask failed and the plan goes on.
 *
 * @example
 * ```ts
 * const results = await runPlan(
 *   [{ name: 'research', prompt: 'find sources' }, { name: 'write', prompt: 'draft the report' }],
 *   { hooks, runSubtask: (subtask) => agent.run(subtask.prompt) },
 * );
 * ```
 */
export async function runPlan<S>(subtasks: readonly Subtask[], options: RunPlanOptions<S>): Promise<SubtaskResult[]> {
  if (!Array.isArray(subtasks)) throw new TypeError('runPlan: subtasks must be an array of { name, prompt }');
  requireObject(options, 'runPlan(options)');
  rejectUnknownOptions(options, ['hooks', 'state', 'runSubtask', 'signal'], 'runPlan');
  const signal = optionalSignal(options.signal, 'runPlan: signal');
  runnerCore(options.hooks, 'runPlan');
  requireFunction(options.runSubtask, 'runPlan: runSubtask');
  subtasks.forEach((subtask: unknown, index) => {
    const s = subtask as Partial<Subtask> | null;
    if (s === null || typeof s !== 'object' || typeof s.name !== 'string' || s.name === '' || typeof s.prompt !== 'string') {
      throw new TypeError(`runPlan: subtasks[${index}] must be { name: non-empty string, prompt: string }`);
    }
  });

  const results: SubtaskResult[] = [];
  for (const subtask of subtasks) {
    signal?.throwIfAborted();
    const started = performance.now();
    try {
      const output = await executeTool({
        hooks: options.hooks,
        toolName: `meta:${subtask.name}`,
        args: { subtask: subtask.name, prompt: subtask.prompt },
        state: options.state as S,
        execute: (args) =>
          options.runSubtask({ name: subtask.name, prompt: typeof args.prompt === 'string' ? args.prompt : subtask.prompt }, args),
        ...(signal === undefined ? {} : { signal }),
      });
      results.push({ name: subtask.name, success: true, output, durationMs: performance.now() - started });
    } catch (error) {
      const message = error instanceof HookAbortError ? `aborted: ${error.reason}` : errorMessage(error);
      results.push({ name: subtask.name, success: false, error: message, durationMs: performance.now() - started });
    }
  }
  return results;
}
