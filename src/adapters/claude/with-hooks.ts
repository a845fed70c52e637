/**
 * claudeAgentHooks: the Claude Agent SDK's `hooks` option, running each tool call the agent makes
 * through executeTool from PreToolUse to PostToolUse / PostToolUseFailure.
 */
import { typeName } from '../../internal/describe.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import { optionalCount, duration } from '../../internal/validate.js';
import { requireOptionsObject, requireRunner } from '../settings.js';
import { readClaudeApprovalMode } from './approvals.js';
import { AskedCalls } from './asked.js';
import type { Settings } from './call.js';
import { idOf } from './call.js';
import { PendingCalls } from './pending.js';
import { afterFailure, afterTool, batchEnded } from './post-tool-use.js';
import { beforeTool } from './pre-tool-use.js';
import type { ClaudeAgentHooks, ClaudeAgentHooksOptions, ClaudeHookCallback } from './types.js';

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
 * - An after_tool Replace is PostToolUse's `updatedToolOutput`: the output the model reads.
 * - The SDK cannot re-run a tool from a hook: after_tool and on_error Redirects are recorded and
 *   have no effect.
 * - An Ask goes to the runner's approver, or (`options.approvals`) to the SDK's permission prompt
 *   (`'ask'`) or the app (`defer`, a {@link DeferredApprovals}); the asking call ends as `pending`
 *   with `toolhooks.approval.id` = `tool_use_id`, and its continuation records the outcome.
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
 *
 * @example
 * ```ts
 * // An Ask goes to the SDK's own permission prompt: your canUseTool gets the Ask's reason.
 * const gated = new HookRunner([{ name: 'shell-gate', tools: ['Bash'], beforeTool: () => ask('shell commands need a yes') }]);
 * const options = { hooks: claudeAgentHooks(gated, { approvals: 'ask' }), canUseTool: async (tool, input, { decisionReason }) => ((await confirm(decisionReason)) ? { behavior: 'allow', updatedInput: input } : { behavior: 'deny', message: 'no' }) };
 * ```
 */
export function claudeAgentHooks<S = unknown>(runner: HookRunner<S>, options?: ClaudeAgentHooksOptions<S>): ClaudeAgentHooks {
  const where = 'claudeAgentHooks';
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'tools', 'maxToolDurationMs', 'approvals']);
  const tools = raw.tools ?? [];
  if (!Array.isArray(tools) || !tools.every((name) => typeof name === 'string' && name !== '')) {
    throw new TypeError(`${where}: options.tools must be an array of tool names, got ${typeName(tools)}`);
  }
  const maxMs = raw.maxToolDurationMs === undefined ? 1_800_000 : maxToolDuration(optionalCount(raw.maxToolDurationMs, 0, `${where}: options.maxToolDurationMs`), `${where}: options.maxToolDurationMs`);
  const settings: Settings<S> = {
    core,
    state: raw.state as S | undefined,
    tools: [...(tools as string[])],
    pending: new PendingCalls(maxMs),
    approvals: readClaudeApprovalMode(raw.approvals, where),
    asked: new AskedCalls(),
    misshapen: new Set(),
  };
  const { pending, asked } = settings;
  const preToolUse: ClaudeHookCallback = (input, toolUseID) => beforeTool(input, toolUseID, settings);
  const postToolUse: ClaudeHookCallback = (input, toolUseID) => afterTool(input, toolUseID, settings);
  const postToolUseFailure: ClaudeHookCallback = (input, toolUseID) => afterFailure(input, toolUseID, settings);
  const postToolBatch: ClaudeHookCallback = (input) => batchEnded(input, settings);
  const permissionDenied: ClaudeHookCallback = async (input, toolUseID) => {
    const failure = pending.fail(idOf(input, toolUseID) ?? '', 'permission_denied', `permission denied: ${input.reason ?? ''}`);
    await failure?.catch(() => undefined);
    return {};
  };
  const sessionEnd: ClaudeHookCallback = async (input) => {
    pending.endSession(input.session_id);
    asked.endSession(input.session_id);
    return {};
  };
  return {
    PreToolUse: [{ hooks: [preToolUse] }],
    PostToolUse: [{ hooks: [postToolUse] }],
    PostToolUseFailure: [{ hooks: [postToolUseFailure] }],
    PostToolBatch: [{ hooks: [postToolBatch] }],
    PermissionDenied: [{ hooks: [permissionDenied] }],
    SessionEnd: [{ hooks: [sessionEnd] }],
  };
}

const maxToolDuration = duration(0);
