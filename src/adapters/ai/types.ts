/**
 * The public types of toolhooks/ai: {@link WithHooksOptions} (each extends the options every adapter
 * shares), what `withHooks` returns with framework approvals and the `toolApproval` shapes it answers
 * with, and what `recordInvalidToolCalls` reads.
 */
import type { AdapterOptions } from '../types.js';

/**
 * Options of {@link withHooks}.
 *
 * @example
 * ```ts
 * const abortRun = new AbortController();
 * const hooked = withHooks(tools, runner, { state: { userId }, abortRun, maxRetries: 2 });
 * await generateText({ model, tools: hooked, abortSignal: abortRun.signal, prompt });
 * ```
 */
export interface WithHooksOptions<S = unknown> extends AdapterOptions<S> {
  /**
   * Stops the whole run when a hook aborts a call: the adapter calls `abortRun.abort(error)` with the
   * {@link HookAbortError}. Pass `abortRun.signal` as the `abortSignal` of `generateText` /
   * `streamText`: `generateText` then rejects with the HookAbortError before its next step,
   * `streamText` ends its stream with an `abort` part and its promises (`text`, `steps`…) reject.
   * Without it an Abort only fails that one call and the model sees the reason as the tool's error.
   */
  abortRun?: AbortController;
  /**
   * Who answers a hook's Ask: `'runner'` (the default), the runner's `approver`, inside the call. For
   * the AI SDK's own approval flow, `'framework'` ({@link FrameworkApprovalOptions}).
   */
  approvals?: 'runner';
}

/**
 * Options of {@link withHooks} that hand a hook's Ask to the AI SDK's own approval flow: `withHooks`
 * then returns {@link HookedTools} (`{ tools, toolApproval, onStart }`, pass all three to
 * `generateText` / `streamText` / `ToolLoopAgent`); the app gets the SDK's `tool-approval-request`,
 * answers with a `tool-approval-response`, and the approved call runs in the next call.
 *
 * @example
 * ```ts
 * const { tools, toolApproval, onStart } = withHooks(mailTools, runner, { approvals: 'framework', state: { userId } });
 * ```
 */
export interface FrameworkApprovalOptions<S = unknown> extends Omit<WithHooksOptions<S>, 'approvals'> {
  approvals: 'framework';
}

/**
 * What {@link withHooks} returns with `approvals: 'framework'`: the hooked tools, and the two pieces
 * that hand a hook's Ask to the AI SDK's own approval flow. Spread it into the call.
 *
 * @example
 * ```ts
 * const hooked = withHooks(tools, runner, { approvals: 'framework' });
 * const first = await generateText({ model, ...hooked, messages });                  // tool-approval-request parts in first.content
 * messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId, approved: true }] });
 * const second = await generateText({ model, ...hooked, messages });                 // the approved call runs here
 * ```
 */
export interface HookedTools<T> {
  /** The hooked tool set (as `withHooks` returns it without the option; each tool also has a `needsApproval`, for `ai` 6). */
  readonly tools: T;
  /**
   * The `toolApproval` function (`ai` 7): runs the hooks' before_tool phase for each call and answers
   * `'user-approval'` (with the asking hook's reason) when they ask. For a tool it did not hook, it
   * answers as the tool's own `needsApproval` would (the SDK ignores those once a function is given).
   */
  readonly toolApproval: (options: ToolApprovalOptions) => Promise<ToolApprovalStatus>;
  /**
   * The `onStart` callback (`experimental_onStart` on `ai` 6): records the calls the app denied as
   * `denied` — the SDK answers those with `execution-denied` without calling anything else of ours.
   * With an `onStart` of your own, call this one from it.
   */
  readonly onStart: (event: { readonly messages?: readonly unknown[] }) => Promise<void>;
}

/**
 * What the AI SDK (6 and 7) hands an `experimental_repairToolCall` function, as far as this reads
 * it; the SDK passes more (`system`, `messages`, `tools`, `inputSchema`), which reach your `repair`
 * unchanged. Typed here rather than imported so the one function fits whichever `ai` line you run.
 *
 * @example
 * ```ts
 * const repair = async ({ toolCall }: RepairToolCallOptions) => ({ ...toolCall, input: fixJson(toolCall.input) });
 * ```
 */
export interface RepairToolCallOptions {
  readonly toolCall: { readonly type: 'tool-call'; readonly toolCallId: string; readonly toolName: string; readonly input: string };
  readonly error: unknown;
}

/**
 * Options of {@link recordInvalidToolCalls}.
 *
 * @example
 * ```ts
 * const repairToolCall = recordInvalidToolCalls(runner, { repair: async ({ toolCall }) => fixJson(toolCall) });
 * ```
 */
export interface RecordInvalidToolCallsOptions<O extends RepairToolCallOptions = RepairToolCallOptions, R = never> {
  /**
   * Your own repair function. It runs first; a call it repairs (returns non-null) is not recorded
   * here — the repaired call runs through the hooked tool like any other.
   */
  repair?: (options: O) => R | PromiseLike<R>;
}

/**
 * What the SDK's `toolApproval` function may answer (`ai` 7): the string forms, or an object with a
 * reason the SDK passes on (`user-approval`: in the request; `denied`: in the `execution-denied` output).
 *
 * @example
 * ```ts
 * const status: ToolApprovalStatus = { type: 'user-approval', reason: 'outgoing mail' };
 * ```
 */
export type ToolApprovalStatus =
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | { type: 'not-applicable'; reason?: never }
  | { type: 'approved' | 'denied' | 'user-approval'; reason?: string };

/**
 * What the SDK hands a `toolApproval` function (`ai` 7), as far as toolhooks reads it; typed here
 * rather than imported so the entry fits either `ai` line.
 *
 * @example
 * ```ts
 * const mine = (options: ToolApprovalOptions) => (options.toolCall.toolName === 'deploy' ? 'user-approval' : hooked.toolApproval(options));
 * ```
 */
export interface ToolApprovalOptions {
  readonly toolCall: { readonly toolCallId: string; readonly toolName: string; readonly input: unknown };
  readonly tools?: unknown;
  readonly toolsContext?: unknown;
  readonly messages?: readonly unknown[];
}
