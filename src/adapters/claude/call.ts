/**
 * What the Claude adapter's callbacks share: the adapter's settings, the one place it runs a call
 * through the tool-call path, how it reads a hook input as a call, and the outputs it answers the SDK.
 * @internal
 */
import { isPlainObject } from '../../decisions.js';
import type { Executor } from '../../flows/execute-tool.js';
import type { HookAbortError } from '../../errors.js';
import type { ToolArgs } from '../../hook.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { ApprovalHandoff } from '../../runner/handoff.js';
import { redirectTargetsSharing } from '../redirect-targets.js';
import type { AdapterSettings } from '../settings.js';
import type { ClaudeApprovalMode } from './approvals.js';
import type { AskedCalls } from './asked.js';
import type { PendingCalls } from './pending.js';
import type { ClaudeHookInput, ClaudeHookOutput } from './types.js';

/**
 * What every call through one `claudeAgentHooks` shares: the runner's core and the hooks' state (the SDK
 * runs each tool once, so no limits), and the adapter's own parts.
 */
export interface Settings<S> extends Pick<AdapterSettings<S, never>, 'core' | 'state'> {
  readonly tools: readonly string[];
  readonly pending: PendingCalls;
  readonly approvals: ClaudeApprovalMode;
  readonly asked: AskedCalls;
  /** Tools whose Replace was not shaped like their output (warned once each). */
  readonly misshapen: Set<string>;
}

/** A hook input read as a call: the SDK's tool name, its tool_use_id, and the args hooks see. */
export interface ClaudeCall {
  readonly toolName: string;
  readonly id: string | undefined;
  /** Whether `args` is `{ input }` around a tool_input that is not an object. */
  readonly wrapped: boolean;
  readonly args: ToolArgs;
  readonly sessionId: string | undefined;
}

export function readCall(input: ClaudeHookInput, toolUseID: string | undefined): ClaudeCall {
  const toolName = typeof input.tool_name === 'string' && input.tool_name !== '' ? input.tool_name : 'unknown';
  const wrapped = !isPlainObject(input.tool_input);
  const args: ToolArgs = wrapped ? { input: input.tool_input } : (input.tool_input as ToolArgs);
  return { toolName, id: idOf(input, toolUseID), wrapped, args, sessionId: input.session_id };
}

export function idOf(input: { readonly tool_use_id?: unknown }, toolUseID: string | undefined): string | undefined {
  const id = input.tool_use_id ?? toolUseID;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Runs a call through the tool-call path executeTool takes; the only place this adapter does. The SDK runs each
 * tool once: retries and re-executions are off, so their Redirects are recorded and ignored.
 */
export function callTool<S>(settings: Settings<S>, call: ClaudeCall, execute: Executor, handoff?: ApprovalHandoff): Promise<unknown> {
  return runToolCall<S>({
    core: settings.core,
    toolName: call.toolName,
    args: call.args,
    execute,
    ...redirectTargetsSharing(call.toolName, () => settings.tools, execute),
    state: settings.state as S,
    callId: call.id,
    maxRetries: 0,
    maxReexecutions: 0,
    handoff,
  });
}

/** PreToolUse's answer: a permission decision (with its reason) and/or the input the tool runs with. */
export function preToolUse(decision: 'allow' | 'deny' | 'ask' | 'defer' | undefined, reason: string | undefined, input?: unknown): ClaudeHookOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      ...(decision === undefined ? {} : { permissionDecision: decision }),
      ...(reason === undefined ? {} : { permissionDecisionReason: reason }),
      ...(input === undefined ? {} : { updatedInput: isPlainObject(input) ? input : { input } }),
    },
  };
}

export function deny(reason: string): ClaudeHookOutput {
  return preToolUse('deny', reason);
}

/** The tool_input a call's args stand for. */
export function toolInput(call: Pick<ClaudeCall, 'wrapped'>, args: ToolArgs): unknown {
  return call.wrapped ? args.input : args;
}

export function stop(error: HookAbortError, output: ClaudeHookOutput): ClaudeHookOutput {
  return { ...output, continue: false, stopReason: error.reason };
}

/** Whether two JSON values (tool inputs) are equal; false for values JSON cannot write. */
export function sameJson(a: unknown, b: unknown): boolean {
  try {
    return a === b || JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}
