/**
 * The public types of toolhooks/strands: the options of {@link toolhooksHooks} (extending the options
 * every adapter shares), and the Strands Agents shapes this adapter uses, written out structurally:
 * Strands is an optional peer, and toolhooks/strands loads without it in both module formats. The
 * handler they build is what a Strands `Agent` takes in its `interventions` (checked by the adapter's
 * tests against `@strands-agents/sdk` 1.19). Also the reason of the interrupt an Ask raises with
 * `approvals: 'framework'`.
 */
import type { ApprovalRequest } from '../../hook.js';
import type { AdapterOptions } from '../types.js';

/**
 * Options of {@link toolhooksHooks}.
 *
 * @example
 * ```ts
 * const interventions = [toolhooksHooks(runner, { state: { user }, approvals: 'framework' })];
 * ```
 */
export interface ToolhooksHooksOptions<S = unknown> extends AdapterOptions<S> {
  /**
   * Who answers a before_tool Ask. `'runner'` (the default): the runner's `approver`, inside the
   * call. `'framework'`: a Strands interrupt — the agent stops with `stopReason: 'interrupt'`, and
   * the invocation that carries the app's `interruptResponse` (in this process or another, from a
   * snapshot) runs the call with the answer.
   */
  approvals?: 'runner' | 'framework';
  /** The handler's name among the Agent's `interventions` (Strands requires unique names). Default `'toolhooks'`. */
  name?: string;
}


/** A tool call as Strands hands it over (`ToolUse`): the tool's name, the model's call id and the input. */
export interface StrandsToolUse {
  readonly name: string;
  readonly toolUseId: string;
  readonly input: unknown;
}

/** A content block of a tool result (`TextBlock`, `JsonBlock`, or another Strands block). */
export interface StrandsResultContent {
  readonly type: string;
  readonly text?: string;
  readonly json?: unknown;
}

/** A Strands `ToolResultBlock`: what a tool's `stream()` returns and the model reads. */
export interface StrandsToolResultBlock {
  readonly type: 'toolResultBlock';
  readonly toolUseId: string;
  readonly status: 'success' | 'error';
  readonly content: readonly StrandsResultContent[];
  readonly error?: Error;
}

/** The context Strands runs a tool with (`ToolContext`). */
export interface StrandsToolContext {
  readonly toolUse: StrandsToolUse;
  readonly agent: StrandsAgent;
  readonly invocationState?: Record<string, unknown>;
  readonly cancelSignal?: AbortSignal;
  /** Pauses the agent (Strands' `InterruptError`) until the app resumes it with a response; returns the response then. */
  interrupt(params: { name: string; reason?: unknown; response?: unknown }): unknown;
}

/** A Strands tool (`Tool`): its name, its description and the stream that runs it. */
export interface StrandsTool {
  readonly name: string;
  readonly description?: string;
  stream(context: StrandsToolContext): AsyncGenerator<unknown, StrandsToolResultBlock | undefined, unknown>;
}

/** The part of a Strands agent (`LocalAgent`) this adapter reads: its tools, as Redirect targets. */
export interface StrandsAgent {
  readonly name?: string;
  readonly toolRegistry?: { get(name: string): StrandsTool | undefined };
}

/** What Strands hands an intervention's `beforeToolCall` (a `BeforeToolCallEvent`). */
export interface StrandsBeforeToolCallEvent {
  readonly agent: StrandsAgent;
  toolUse: StrandsToolUse;
  readonly tool: StrandsTool | undefined;
  selectedTool: StrandsTool | undefined;
}

/** Strands' `proceed` intervention action: no opinion. */
export interface StrandsProceed {
  readonly type: 'proceed';
}

/** An intervention action as Strands reads it: go on (`proceed`), or change the event (`transform`). */
export type StrandsInterventionAction =
  | StrandsProceed
  | {
      readonly type: 'transform';
      readonly reason?: string;
      /** Strands calls it with the event the action answers (typed as any lifecycle event by Strands). */
      readonly apply: (event: object) => void;
    };

/**
 * The `reason` of the interrupt an Ask raises (`result.interrupts[i].reason`): the call the hooks
 * ask about and why, so the app can show it.
 *
 * @example
 * ```ts
 * const result = await agent.invoke('clean up the build folder');
 * for (const pending of result.interrupts ?? []) {
 *   const { toolhooks: ask } = pending.reason as ToolhooksInterruptReason;
 *   console.log(`${ask.toolName} needs approval (${ask.reason}) from ${ask.hook}`);
 * }
 * ```
 */
export interface ToolhooksInterruptReason {
  /**
   * The runner's {@link ApprovalRequest} as far as it outlives the run: the tool the call would run (a
   * Redirect's target), its arguments, the arguments redacted (what to show a person), and the first
   * asking hook and its reason.
   */
  readonly toolhooks: Pick<ApprovalRequest, 'toolName' | 'args' | 'redactedArgs' | 'reason' | 'hook'> & {
    /** The approval id (`toolhooks.approval.id`): Strands' tool use id. */
    readonly approvalId: string;
  };
}
