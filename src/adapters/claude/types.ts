/**
 * The public types of toolhooks/claude: the options of {@link claudeAgentHooks} (extending the options
 * every adapter shares), and the Claude Agent SDK's hook shapes this adapter uses, written out
 * structurally: the SDK is an ES-module-only optional peer, and toolhooks/claude loads without it in
 * both module formats. They are assignable to the SDK's `Options['hooks']` (checked by the adapter's tests).
 * Also what a deferred call asked ({@link DeferredApprovals}' requests) and why a call failed ({@link ClaudeToolError}).
 */
import type { ApprovalRequest } from '../../hook.js';
import type { AdapterOptions } from '../types.js';
import type { DeferredApprovals } from './approvals.js';

/**
 * Options of {@link claudeAgentHooks}.
 *
 * @example
 * ```ts
 * const hooks = claudeAgentHooks(runner, { state: { user }, tools: ['Read', 'mcp__sandbox__run'], maxToolDurationMs: 600_000 });
 * ```
 */
export interface ClaudeAgentHooksOptions<S = unknown> extends Pick<AdapterOptions<S>, 'state'> {
  /**
   * The tools a Redirect's `newTool` may name (the SDK cannot switch tools: the call is denied and
   * the model is told to use that tool). Any other target is an `invalid_redirect_target` hook error.
   */
  tools?: readonly string[];
  /**
   * How long a call may wait for its PostToolUse / PostToolUseFailure before it is ended as failed
   * (`ClaudeToolError`, failure `timeout`). Default 1_800_000 (30 min); 0 = wait for the session's end.
   */
  maxToolDurationMs?: number;
  /**
   * Where a before_tool Ask goes (docs/adapters.md, "Claude Agent SDK"):
   * - `'runner'` (default): the runner's `approver` decides inside PreToolUse, as every adapter does;
   * - `'ask'`: PreToolUse answers `permissionDecision: 'ask'` with the Ask's reason, so the SDK's own
   *   permission flow asks (your `canUseTool`, a `PermissionRequest` hook, the permission prompt tool;
   *   denied where nobody can be asked); the call is continued when the SDK reports the outcome;
   * - a {@link DeferredApprovals}: PreToolUse answers `'defer'`, the query stops with
   *   `deferred_tool_use`, and the resumed query runs the call with the answer the app gave.
   */
  approvals?: 'runner' | 'ask' | DeferredApprovals;
}


/** A hook input as the SDK passes it: `hook_event_name` plus the event's fields. */
export interface ClaudeHookInput {
  readonly hook_event_name: string;
  readonly session_id?: string;
  readonly tool_name?: string;
  readonly tool_input?: unknown;
  readonly tool_use_id?: string;
  readonly tool_response?: unknown;
  readonly error?: string;
  readonly is_interrupt?: boolean;
  readonly reason?: string;
  /** PostToolBatch: every call of the batch, with the text or output the model got for it. */
  readonly tool_calls?: readonly { readonly tool_use_id?: string; readonly tool_name?: string; readonly tool_response?: unknown }[];
}

/** What a hook callback of this adapter answers (a subset of the SDK's `SyncHookJSONOutput`). */
export interface ClaudeHookOutput {
  continue?: boolean;
  stopReason?: string;
  hookSpecificOutput?:
    | {
        hookEventName: 'PreToolUse';
        permissionDecision?: 'allow' | 'deny' | 'ask' | 'defer';
        permissionDecisionReason?: string;
        updatedInput?: Record<string, unknown>;
      }
    | { hookEventName: 'PostToolUse'; updatedToolOutput: unknown }
    | { hookEventName: 'PostToolUseFailure'; additionalContext?: string };
}

/** A hook callback, as the SDK's `HookCallback`. */
export type ClaudeHookCallback = (input: ClaudeHookInput, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<ClaudeHookOutput>;

/** The events this adapter registers, each with one matcher for all tools. */
export type ClaudeHookEvent = 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure' | 'PostToolBatch' | 'PermissionDenied' | 'SessionEnd';

/** The `hooks` option of the SDK's `query()`. */
export type ClaudeAgentHooks = Record<ClaudeHookEvent, { hooks: ClaudeHookCallback[] }[]>;

/**
 * What a deferred call asked, for the app to show the person who decides: the fields of the runner's
 * {@link ApprovalRequest} that outlive the query — the call's `tool_use_id` (the SDK's
 * `deferred_tool_use.id`, and `toolhooks.approval.id`), the tool and arguments it would run (after the
 * hooks' Redirects), and the asking hook's name and reason (the SDK's result message does not carry it).
 *
 * @example
 * ```ts
 * const asked: DeferredApprovalRequest | undefined = approvals.request(result.deferred_tool_use.id);
 * if (asked !== undefined) console.log(`${asked.hook} asks before ${asked.toolName}: ${asked.reason}`);
 * ```
 */
export type DeferredApprovalRequest = Pick<ApprovalRequest, 'id' | 'toolName' | 'args' | 'reason' | 'hook'>;

/**
 * Why a Claude tool call failed, as the SDK (or the adapter) reported it: {@link ClaudeToolError}'s `failure`.
 *
 * @example
 * ```ts
 * const retryable = (failure: ClaudeToolFailure): boolean => failure === 'timeout' || failure === 'interrupted';
 * ```
 */
export type ClaudeToolFailure = 'failed' | 'interrupted' | 'permission_denied' | 'session_ended' | 'timeout';
