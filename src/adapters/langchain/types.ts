/**
 * The public options of toolhooks/langchain: those of {@link toolhooksMiddleware} and of
 * {@link withHooks}, each extending the options every adapter shares.
 */
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
