/**
 * The public options of toolhooks/openai-agents: those of {@link withHooks} (extending the options
 * every adapter shares) and where an Ask is answered.
 */
import type { AdapterOptions } from '../types.js';

/**
 * Options of {@link withHooks}.
 *
 * @example
 * ```ts
 * const agent = new Agent({ name: 'ops', tools: withHooks([shell, search], runner, { state: { userId }, maxRetries: 2 }) });
 * ```
 */
export interface WithHooksOptions<S = unknown> extends AdapterOptions<S> {
  /**
   * Where an Ask is answered. `'runner'` (default): the runner's `approver` decides inside the call.
   * `'framework'`: the SDK's own approvals — each tool's `needsApproval` runs the before_tool phase
   * and answers true for an Ask, so the run returns with `interruptions`; the app answers with
   * `state.approve(item)` / `state.reject(item)` and resumes with `run(agent, state)` (also from a
   * state saved with `RunState.toString()`). Pass {@link approvalRejections} as the Runner's
   * `toolErrorFormatter` to record rejected calls as `denied`.
   *
   * @example
   * ```ts
   * const tools = withHooks([sendEmail], runner, { approvals: 'framework' });
   * ```
   */
  approvals?: ApprovalsMode;
}

/**
 * Where an Ask is answered: the runner's `approver` inside the call, or the SDK's interruptions.
 *
 * @example
 * ```ts
 * const mode: ApprovalsMode = process.env.HITL === '1' ? 'framework' : 'runner';
 * ```
 */
export type ApprovalsMode = 'runner' | 'framework';
