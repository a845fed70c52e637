/**
 * The public types of toolhooks/adk: the options of {@link toolhooksPlugin} (extending the options every
 * adapter shares), and the Google ADK shapes this adapter uses, written out structurally: ADK is an
 * optional peer, and toolhooks/adk loads without it in both module formats. The plugin they build is
 * assignable to ADK's `BasePlugin` (checked by the adapter's tests against `@google/adk` 2.x).
 */
import type { AdapterOptions } from '../types.js';

/**
 * Options of {@link toolhooksPlugin}.
 *
 * @example
 * ```ts
 * const plugin = toolhooksPlugin(runner, { state: { user }, approvals: 'framework' });
 * ```
 */
export interface ToolhooksPluginOptions<S = unknown> extends AdapterOptions<S> {
  /**
   * Who answers a before_tool Ask. `'runner'` (the default): the runner's `approver`, inside the
   * call. `'framework'`: ADK's tool confirmation — the call requests a confirmation pinned to it, the
   * run pauses with an `adk_request_confirmation` call, and the run that carries the user's answer
   * (in this process or another) runs the call with it.
   */
  approvals?: 'runner' | 'framework';
  /** The plugin's name in the Runner (ADK requires unique names). Default `'toolhooks'`. */
  name?: string;
}


/** An ADK tool as callbacks receive it (a `BaseTool`). */
export interface AdkTool {
  readonly name: string;
  readonly description?: string;
  runAsync(request: { args: Record<string, unknown>; toolContext: AdkToolContext }): Promise<unknown>;
}

/** An ADK tool confirmation (`ToolConfirmation`): the user's answer to a `requestConfirmation`. */
export interface AdkToolConfirmation {
  readonly hint?: string;
  readonly confirmed: boolean;
  readonly payload?: unknown;
}

/** The part of an ADK `Context` (the tool context) this adapter reads. */
export interface AdkToolContext {
  readonly functionCallId?: string | undefined;
  toolConfirmation?: AdkToolConfirmation | undefined;
  readonly actions?: { skipSummarization?: boolean | undefined };
  readonly invocationContext?: AdkInvocationContext;
  requestConfirmation(request: { hint?: string; payload?: unknown }): void;
}

/** The part of an ADK `InvocationContext` this adapter reads. */
export interface AdkInvocationContext {
  readonly invocationId?: string;
  /** The run's `abortSignal` (hooks see it as `ctx.signal`). */
  readonly abortSignal?: AbortSignal | undefined;
  readonly agent?: AdkAgent;
  readonly session?: { readonly events?: readonly AdkEvent[] };
  readonly pluginManager?: {
    runOnToolErrorCallback(params: { tool: AdkTool; toolArgs: Record<string, unknown>; toolContext: AdkToolContext; error: Error }): Promise<unknown>;
  };
}

/** The part of an ADK agent (an `LlmAgent`) this adapter reads: its name, its tools and its own tool callbacks. */
export interface AdkAgent {
  readonly name?: string;
  /** Its `tools` list: tools and toolsets (only the tools are Redirect targets). */
  readonly tools?: readonly unknown[];
  readonly canonicalBeforeToolCallbacks?: readonly AdkBeforeToolCallback[];
}

/** An agent's own `beforeToolCallback` (ADK's `SingleBeforeToolCallback`). */
export type AdkBeforeToolCallback = (params: { tool: AdkTool; args: Record<string, unknown>; context: AdkToolContext }) => unknown;

/** A function call or response part of an ADK event, as far as approvals read it. */
export interface AdkEvent {
  readonly author?: string;
  readonly content?: { readonly parts?: readonly AdkPart[] };
}

export interface AdkPart {
  readonly functionCall?: { readonly id?: string; readonly name?: string; readonly args?: Record<string, unknown> };
  readonly functionResponse?: { readonly id?: string; readonly name?: string; readonly response?: Record<string, unknown> };
}

/** What ADK passes to `beforeToolCallback` (and, with `result` / `error`, to the after and error callbacks). */
export interface AdkToolCallbackParams {
  tool: AdkTool;
  toolArgs: Record<string, unknown>;
  toolContext: AdkToolContext;
}
