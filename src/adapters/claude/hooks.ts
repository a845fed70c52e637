/**
 * claudeAgentHooks: the Claude Agent SDK's `hooks` option, running each tool call the agent makes
 * through executeTool from PreToolUse to PostToolUse / PostToolUseFailure.
 */
import { typeName } from '../../internal/describe.js';
import { isPlainObject } from '../../decisions.js';
import { HookAbortError } from '../../index.js';
import type { Executor, HookRunner, ToolArgs } from '../../index.js';
import { runToolCall } from '../../flows/execute-tool.js';
import { runnerCore } from '../../runner/registry.js';
import { optionalCount, duration } from '../../internal/validate.js';
import { redirectTargetsSharing, requireOptionsObject, requireRunner, toText } from '../shared.js';
import { PendingCalls } from './pending.js';
import type { ClaudeAgentHooks, ClaudeHookCallback, ClaudeHookInput, ClaudeHookOutput } from './types.js';

/**
 * Options of {@link claudeAgentHooks}.
 *
 * @example
 * ```ts
 * const hooks = claudeAgentHooks(runner, { state: { user }, tools: ['Read', 'mcp__sandbox__run'], maxToolDurationMs: 600_000 });
 * ```
 */
export interface ClaudeAgentHooksOptions<S = unknown> {
  /** State passed to every hook. */
  state?: S;
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
}

interface Settings<S> {
  readonly runner: HookRunner<S>;
  readonly state: { readonly value: S } | undefined;
  readonly tools: readonly string[];
  readonly pending: PendingCalls;
}

/**
 * Builds the `hooks` option of the Claude Agent SDK's `query()` so that every tool call of the agent
 * runs through the hooks as one `execute_tool` call (one span per `tool_use_id`, from PreToolUse to
 * PostToolUse):
 * - PreToolUse runs before_tool. Continue: no opinion (the SDK's permission rules apply as usual);
 *   Redirect `newArgs`: `updatedInput`; Skip: the call is denied and the stub (a string as it is,
 *   anything else as JSON) is the text the model reads; Abort: denied with the reason and the agent
 *   stops (`continue: false`); Redirect `newTool`: denied with a reason naming the tool to use.
 * - PostToolUse runs after_tool (an Abort stops the agent); PostToolUseFailure runs on_error: a Skip
 *   adds the stub as context for the model, an Abort stops the agent.
 * - The SDK cannot re-run a tool from a hook: after_tool and on_error Redirects are recorded and
 *   have no effect.
 *
 * Hooks see `tool_input` as args (`{ input: value }` when it is not an object), the SDK's tool name
 * (`Bash`, `mcp__<server>__<tool>`…) and `tool_use_id` as `ctx.callId` / `gen_ai.tool.call.id`.
 *
 * @example
 * ```ts
 * import { query } from '@anthropic-ai/claude-agent-sdk';
 * import { HookRunner, abort } from 'toolhooks';
 * import { claudeAgentHooks } from 'toolhooks/claude';
 *
 * const runner = new HookRunner([{ name: 'no-rm', tools: ['Bash'], beforeTool: (tool, args) => (String(args.command).includes('rm -rf') ? abort('destructive command') : undefined) }]);
 * for await (const message of query({ prompt: 'Tidy the repo', options: { hooks: claudeAgentHooks(runner) } })) console.log(message.type);
 * ```
 */
export function claudeAgentHooks<S = unknown>(runner: HookRunner<S>, options?: ClaudeAgentHooksOptions<S>): ClaudeAgentHooks {
  const where = 'claudeAgentHooks';
  requireRunner(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'tools', 'maxToolDurationMs']);
  const tools = raw.tools ?? [];
  if (!Array.isArray(tools) || !tools.every((name) => typeof name === 'string' && name !== '')) {
    throw new TypeError(`${where}: options.tools must be an array of tool names, got ${typeName(tools)}`);
  }
  const maxMs = raw.maxToolDurationMs === undefined ? 1_800_000 : maxToolDuration(optionalCount(raw.maxToolDurationMs, 0, `${where}: options.maxToolDurationMs`), `${where}: options.maxToolDurationMs`);
  const settings: Settings<S> = {
    runner,
    state: 'state' in raw ? { value: raw.state as S } : undefined,
    tools: [...(tools as string[])],
    pending: new PendingCalls(maxMs),
  };
  const { pending } = settings;
  const preToolUse: ClaudeHookCallback = (input, toolUseID) => beforeTool(input, toolUseID, settings);
  const postToolUse: ClaudeHookCallback = (input, toolUseID) => settle(pending.succeed(idOf(input, toolUseID) ?? '', input.tool_response), false);
  const postToolUseFailure: ClaudeHookCallback = (input, toolUseID) =>
    settle(pending.fail(idOf(input, toolUseID) ?? '', input.is_interrupt === true ? 'interrupted' : 'failed', input.error ?? 'the tool failed'), true);
  const permissionDenied: ClaudeHookCallback = async (input, toolUseID) => {
    const failure = pending.fail(idOf(input, toolUseID) ?? '', 'permission_denied', `permission denied: ${input.reason ?? ''}`);
    await failure?.catch(() => undefined);
    return {};
  };
  const sessionEnd: ClaudeHookCallback = async (input) => {
    pending.endSession(input.session_id);
    return {};
  };
  return {
    PreToolUse: [{ hooks: [preToolUse] }],
    PostToolUse: [{ hooks: [postToolUse] }],
    PostToolUseFailure: [{ hooks: [postToolUseFailure] }],
    PermissionDenied: [{ hooks: [permissionDenied] }],
    SessionEnd: [{ hooks: [sessionEnd] }],
  };
}

function idOf(input: ClaudeHookInput, toolUseID: string | undefined): string | undefined {
  const id = (input as { tool_use_id?: unknown }).tool_use_id ?? toolUseID;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** What PreToolUse answers, once the before_tool phase has decided. */
function beforeTool<S>(input: ClaudeHookInput, toolUseID: string | undefined, settings: Settings<S>): Promise<ClaudeHookOutput> {
  const toolName = typeof input.tool_name === 'string' && input.tool_name !== '' ? input.tool_name : 'unknown';
  const id = idOf(input, toolUseID);
  const wrapped = !isPlainObject(input.tool_input);
  const args: ToolArgs = wrapped ? { input: input.tool_input } : (input.tool_input as ToolArgs);
  return new Promise<ClaudeHookOutput>((answer) => {
    // The executor may run before executeTool returns (synchronous before phase): read it lazily.
    const running: { done?: Promise<unknown> } = {};
    const execute: Executor = (callArgs, ctx) => {
      if (ctx.toolName !== toolName) {
        const reason = `Do not use ${toolName} for this; use the tool ${ctx.toolName} instead${callArgs === args ? '' : ` with input ${toText(wrapped ? callArgs.input : callArgs)}`}.`;
        answer(deny(reason));
        return reason;
      }
      if (id === undefined) {
        answer({});
        throw new TypeError(`${toolName}: the PreToolUse input has no tool_use_id, so its PostToolUse cannot be matched; recorded as failed`);
      }
      // Continue passes the SDK's input object through untouched; a Redirect made a new one.
      answer(callArgs === args ? {} : updatedInput(wrapped ? callArgs.input : callArgs));
      return settings.pending.wait(id, toolName, input.session_id, () => running.done);
    };
    running.done = callTool(settings, toolName, args, id, execute);
    running.done.then(
      // Settled before the tool ran: a before_tool Skip (an answer already given is kept).
      (stub) => answer(deny(toText(stub))),
      (error: unknown) => answer(error instanceof HookAbortError ? stop(error, deny(error.reason)) : {}),
    );
  });
}

/**
 * Runs a call through the tool-call path executeTool takes; the only place this adapter does. The SDK runs each
 * tool once: retries and re-executions are off, so their Redirects are recorded and ignored.
 */
function callTool<S>(settings: Settings<S>, toolName: string, args: ToolArgs, id: string | undefined, execute: Executor): Promise<unknown> {
  return runToolCall<S>({
    core: runnerCore<S>(settings.runner, 'claudeAgentHooks'),
    toolName,
    args,
    execute,
    ...redirectTargetsSharing(toolName, () => settings.tools, execute),
    state: settings.state?.value as S,
    callId: id,
    maxRetries: 0,
    maxReexecutions: 0,
  });
}

/**
 * What a Post hook answers once the call's last phase has run: an Abort stops the agent; after a
 * failure, a result means an onError Skip recovered it, and its stub reaches the model as context.
 */
async function settle(done: Promise<unknown> | undefined, failed: boolean): Promise<ClaudeHookOutput> {
  if (done === undefined) return {}; // a call this adapter did not see start: nothing to record
  try {
    const result = await done;
    return failed ? { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: toText(result) } } : {};
  } catch (error) {
    return error instanceof HookAbortError ? stop(error, {}) : {};
  }
}

function deny(reason: string): ClaudeHookOutput {
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
}

function updatedInput(input: unknown): ClaudeHookOutput {
  const value = isPlainObject(input) ? input : { input };
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: value } };
}

function stop(error: HookAbortError, output: ClaudeHookOutput): ClaudeHookOutput {
  return { ...output, continue: false, stopReason: error.reason };
}

const maxToolDuration = duration(0);
