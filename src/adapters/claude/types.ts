/**
 * The Claude Agent SDK's hook shapes this adapter uses, written out structurally: the SDK is an
 * ES-module-only optional peer, and toolhooks/claude loads without it in both module formats.
 * They are assignable to the SDK's `Options['hooks']` (checked by the adapter's tests).
 */

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
