/**
 * CompoundTool: an agent step followed by an executor step, with the hooks around the executor.
 */
import { errorMessage } from '../internal/describe.js';
import { callObserver } from '../runner/guard.js';
import type { ToolArgs } from '../hook.js';
import type { HookRunner } from '../runner/hook-runner.js';
import { runnerCore } from '../runner/registry.js';
import { executeTool } from './execute-tool.js';
import { optionalSignal, optionalString, rejectUnknownOptions, requireFunction, requireObject } from '../internal/validate.js';
import { report } from '../telemetry/warn-once.js';

/** The agent of a {@link CompoundTool}: turns a prompt into output the executor acts on. */
export interface CompoundAgent<S> {
  readonly name?: string;
  run(prompt: string, state: S): unknown;
}

/** Options of a {@link CompoundTool}. */
export interface CompoundToolOptions<S> {
  agent: CompoundAgent<S>;
  /** Acts on the agent's output; receives the (possibly redirected) args `{ agentOutput, prompt }`. */
  executor: (agentOutput: unknown, state: S, args: ToolArgs) => unknown;
  hooks: HookRunner<S>;
  /** The tool name hooks and spans see. Default: the agent's name. */
  name?: string;
  /** Called with the state and the call's result when the call returns; what it throws is logged and swallowed. */
  stateUpdater?: (state: S, result: unknown) => void;
}

/** Per-call options of {@link CompoundTool.run}. */
export interface CompoundRunOptions {
  /** The caller's signal, passed to the hooks and the executor (see {@link CompoundTool.run}). */
  signal?: AbortSignal;
}

/**
 * A tool made of an agent step and an executor step. The agent runs first; the executor step runs
 * through {@link executeTool} with args `{ agentOutput, prompt }`, so hooks can skip, redirect (e.g.
 * replace `agentOutput`) or abort it exactly as for any tool call.
 *
 * @example
 * ```ts
 * const writer = new CompoundTool({
 *   agent: { name: 'sql_writer', run: (prompt) => llm.writeSql(prompt) },
 *   executor: (sql) => db.query(String(sql)),
 *   hooks,
 * });
 * const { agentOutput, result } = await writer.run(state, 'monthly revenue by region');
 * ```
 */
export class CompoundTool<S = unknown> {
  /** The tool name hooks and spans see. */
  readonly name: string;
  readonly #options: CompoundToolOptions<S>;

  constructor(options: CompoundToolOptions<S>) {
    requireObject(options, 'CompoundTool(options)');
    rejectUnknownOptions(options, ['agent', 'executor', 'hooks', 'name', 'stateUpdater'], 'CompoundTool');
    runnerCore(options.hooks, 'CompoundTool');
    requireObject(options.agent, 'CompoundTool: agent');
    requireFunction(options.agent.run, 'CompoundTool: agent.run');
    requireFunction(options.executor, 'CompoundTool: executor');
    if (options.stateUpdater !== undefined) requireFunction(options.stateUpdater, 'CompoundTool: stateUpdater');
    const name = optionalString(options.name, 'CompoundTool: name') ?? optionalString(options.agent.name, 'CompoundTool: agent.name');
    if (name === undefined || name.length === 0) {
      throw new TypeError('CompoundTool needs a name: pass { name } or give the agent a name');
    }
    this.name = name;
    this.#options = options;
  }

  /**
   * Runs the agent on `prompt`, then the executor through the hooks. `signal` is passed to the hooks
   * (`ctx.signal`) and the executor; already aborted, neither the agent, the hooks nor the executor run
   * and the call rejects with its reason.
   * @returns the agent's output and the call's result (a stub when a hook skipped the executor).
   * @example
   * ```ts
   * const { result } = await writer.run(state, 'monthly revenue by region', { signal: request.signal });
   * ```
   */
  async run(state: S, prompt: string, options?: CompoundRunOptions): Promise<{ agentOutput: unknown; result: unknown }> {
    let signal: AbortSignal | undefined;
    if (options !== undefined) {
      requireObject(options, 'CompoundTool.run: options');
      rejectUnknownOptions(options, ['signal'], 'CompoundTool.run');
      signal = optionalSignal(options.signal, 'CompoundTool.run: signal');
    }
    signal?.throwIfAborted();
    const { agent, executor, hooks, stateUpdater } = this.#options;
    const agentOutput = await agent.run(prompt, state);
    const result = await executeTool({
      hooks,
      toolName: this.name,
      args: { agentOutput, prompt },
      state,
      execute: (args) => executor(args.agentOutput, state, args),
      ...(signal === undefined ? {} : { signal }),
    });
    if (stateUpdater !== undefined) {
      const failure = callObserver(() => stateUpdater(state, result));
      if (failure !== undefined) {
        report('warn', `toolhooks: CompoundTool "${this.name}" stateUpdater threw: ${errorMessage(failure.error)}`);
      }
    }
    return { agentOutput, result };
  }
}
