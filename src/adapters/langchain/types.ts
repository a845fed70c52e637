/**
 * The public types of toolhooks/langchain: the options of {@link toolhooksMiddleware} and of
 * {@link withHooks}, each extending the options every adapter shares, and with `approvals: 'framework'`
 * the interrupt an Ask raises and what may resume it.
 */
import type { HITLRequest, HITLResponse } from 'langchain';
import type { ApprovalRequest, ApprovalResponse } from '../../hook.js';
import type { AdapterOptions } from '../types.js';

/**
 * Options of {@link toolhooksMiddleware}.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(runner, { tools, maxRetries: 2 })] });
 * ```
 */
export interface ToolhooksMiddlewareOptions<S = unknown> extends AdapterOptions<S> {
  /** State passed to hooks. Default: the agent's state at the time of the call (`request.state`). */
  state?: S;
  /**
   * The tools a Redirect's `newTool` may name (usually the same array as `createAgent`'s `tools`), for
   * every agent this middleware is given to. Default: the tools the calling agent offered its model in
   * the model call that asked for the tool call — so a middleware shared by several agents only ever
   * runs a tool of the agent the call came from.
   */
  tools?: readonly object[];
  /** Middleware name, unique among the agent's middleware. Default `'toolhooks'`. */
  name?: string;
  /**
   * Who answers an Ask. `'runner'` (default): the runner's `approver`, inside the call.
   * `'framework'`: LangGraph — the call raises an `interrupt()` whose value is a
   * `ToolhooksApprovalInterrupt` (LangChain's human-in-the-loop request), the agent stops with
   * it in `result.__interrupt__`, and the app resumes with `new Command({ resume })`
   * (`ToolhooksApprovalResume`). The agent needs a checkpointer.
   */
  approvals?: 'runner' | 'framework';
}

/**
 * Options of {@link withHooks}.
 *
 * @example
 * ```ts
 * const [search] = withHooks([searchTool], runner, { state: { userId }, maxRetries: 2 });
 * ```
 */
export type LangChainWithHooksOptions<S = unknown> = AdapterOptions<S>;

/**
 * The value of the interrupt an Ask raises (`result.__interrupt__[i].value`): LangChain's own
 * human-in-the-loop request (one action, the call E would run; its `description` shows the
 * arguments redacted, its `args` are the arguments themselves, as LangChain's are), so a UI built for
 * `humanInTheLoopMiddleware` shows it as it is, plus the call's approval details under `toolhooks`.
 *
 * @example
 * ```ts
 * const result = await agent.invoke(input, config);
 * for (const pending of result.__interrupt__ ?? []) {
 *   const { toolhooks: ask } = pending.value as ToolhooksApprovalInterrupt;
 *   console.log(`${ask.toolName} needs approval (${ask.reason}), call ${ask.toolCallId}`);
 * }
 * ```
 */
export interface ToolhooksApprovalInterrupt extends HITLRequest {
  /**
   * The runner's {@link ApprovalRequest} as far as it outlives the run: the tool the call would run (a
   * Redirect's target), its arguments, the arguments redacted (what to show a person), and the first
   * asking hook and its reason.
   */
  readonly toolhooks: Pick<ApprovalRequest, 'toolName' | 'args' | 'redactedArgs' | 'reason' | 'hook'> & {
    /** The approval id (`toolhooks.approval.id`): LangChain's tool call id. */
    readonly approvalId: string;
    /** LangChain's tool call id (the approval id's source). */
    readonly toolCallId: string;
  };
}

/**
 * What `new Command({ resume })` may carry to answer a {@link ToolhooksApprovalInterrupt}: toolhooks'
 * own {@link ApprovalResponse}, or LangChain's human-in-the-loop response with one decision
 * (`approve`; `edit` with the same tool name and the arguments to run with; `reject` with a message).
 *
 * @example
 * ```ts
 * import { Command } from '@langchain/langgraph';
 *
 * await agent.invoke(new Command({ resume: { approved: true } }), config);
 * await agent.invoke(new Command({ resume: { decisions: [{ type: 'reject', message: 'not today' }] } }), config);
 * ```
 */
export type ToolhooksApprovalResume = ApprovalResponse | HITLResponse;
