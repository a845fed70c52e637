/**
 * The public types of toolhooks/openai-agents: the options of {@link withHooks} (extending the options
 * every adapter shares), where an Ask is answered, and the `toolErrorFormatter` shapes of
 * {@link approvalRejections}.
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

/**
 * What the SDK passes a `toolErrorFormatter` (the fields read here; `@openai/agents`' `ToolErrorFormatterArgs`).
 *
 * @example
 * ```ts
 * const formatter = ({ kind, toolName, defaultMessage }: ToolErrorFormatterArgs) => (kind === 'approval_rejected' ? `${toolName} was not approved` : defaultMessage);
 * ```
 */
export interface ToolErrorFormatterArgs {
  readonly kind: string;
  readonly toolType: string;
  readonly toolName: string;
  readonly callId: string;
  readonly defaultMessage: string;
  readonly runContext?: unknown;
}

/**
 * A `toolErrorFormatter` of the Agents SDK's Runner (its `RunConfig.toolErrorFormatter`): what
 * {@link approvalRejections} returns and what its `formatter` option takes.
 *
 * @example
 * ```ts
 * const toolErrorFormatter: ToolErrorFormatter = approvalRejections(tools);
 * const sdk = new Runner({ toolErrorFormatter });
 * ```
 */
export type ToolErrorFormatter = (args: ToolErrorFormatterArgs) => string | undefined | Promise<string | undefined>;

/**
 * Options of {@link approvalRejections}.
 *
 * @example
 * ```ts
 * const toolErrorFormatter = approvalRejections(tools, { formatter: ({ toolName }) => `${toolName} was rejected by the reviewer` });
 * ```
 */
export interface ApprovalRejectionsOptions {
  /** Your own formatter: what it returns is what the model reads (for every kind of error it formats). */
  formatter?: ToolErrorFormatter;
}
