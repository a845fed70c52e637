/**
 * recordDeclinedCalls: a Mastra output processor that records the calls Mastra's `declineToolCall`
 * declined after the hooks asked for them. Mastra never runs a declined call's `execute`, so the
 * hooked tool cannot see the decline; Mastra's `tool-output-denied` chunk, which every output
 * processor receives, is the one place that does.
 */
import { typeName } from '../../internal/describe.js';
import { isPlainObject } from '../../decisions.js';
import { report } from '../../telemetry/warn-once.js';
import type { CallPlan } from '../../flows/execute-tool.js';
import type { ToolArgs } from '../../hook.js';
import type { MastraApprovals } from './approvals.js';
import { isRequestContext } from './approvals.js';
import type { MastraOutputProcessor } from './types.js';

/** How a hooked tool's declined call is recorded: its record's approvals and a plan for the record. */
interface HookedTool {
  readonly approvals: MastraApprovals;
  readonly planOf: (args: ToolArgs, callId: string) => CallPlan<unknown>;
}

/** The hooked tools of `withHooks(…, { approvals: 'framework' })` records, by the copy it returned. */
const hookedTools = new WeakMap<object, HookedTool>();

/** Called by withHooks for each tool it copied with Mastra's approval flow. @internal */
export function registerHookedTool(tool: object, entry: HookedTool): void {
  hookedTools.set(tool, entry);
}

/**
 * Builds a Mastra output processor that records each call the hooks asked about and the app then
 * declined (`agent.declineToolCall` / `declineToolCallGenerate`) as the continuation of its asking
 * call: an `execute_tool` span with outcome `denied`, a `toolhooks.approval` span with outcome
 * `denied` and `toolhooks.approval.id` (Mastra's tool call id), and a link to the asking span. The
 * chunk passes on unchanged: the model reads Mastra's decline (the `reason` given to
 * `declineToolCall`, else Mastra's "Tool call was not approved by the user"). Calls declined through
 * Mastra's own `requireApproval` (not asked by the hooks) are left alone.
 *
 * `tools` is the record `withHooks(…, { approvals: 'framework' })` returned (or any record holding
 * its tools, by the names the agent knows them by).
 *
 * @example
 * ```ts
 * const tools = withHooks({ shell }, runner, { approvals: 'framework' });
 * const agent = new Agent({ id: 'ops', name: 'ops', instructions, model, tools, outputProcessors: [recordDeclinedCalls(tools)] });
 * const first = await agent.generate('clean up');
 * if (first.finishReason === 'suspended') await agent.declineToolCallGenerate({ runId: first.runId, toolCallId: first.suspendPayload.toolCallId, reason: 'not today' });
 * ```
 */
export function recordDeclinedCalls(tools: object): MastraOutputProcessor {
  const where = 'recordDeclinedCalls';
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(`${where}: tools must be the record withHooks(tools, runner, { approvals: 'framework' }) returned, got ${typeName(tools)}`);
  }
  const byName = new Map<string, HookedTool>();
  for (const [name, tool] of Object.entries(tools as Record<string, unknown>)) {
    const entry = tool !== null && typeof tool === 'object' ? hookedTools.get(tool) : undefined;
    if (entry !== undefined) byName.set(name, entry);
  }
  if (byName.size === 0) {
    throw new TypeError(`${where}: tools has no tool of withHooks(tools, runner, { approvals: 'framework' }); pass the record it returned`);
  }
  return {
    id: 'toolhooks-declined-calls',
    processOutputStream: async ({ part, requestContext }) => {
      const declined = declinedCallOf(part);
      if (declined !== undefined && isRequestContext(requestContext)) {
        const entry = byName.get(declined.toolName);
        if (entry !== undefined) {
          try {
            await entry.approvals.declined(entry.planOf(declined.args, declined.toolCallId), requestContext, declined.runId, declined.toolCallId, declined.reason);
          } catch (error) {
            // Recording must never disturb Mastra's run; the decline stands either way.
            report('warn', `toolhooks: recordDeclinedCalls could not record the declined call ${declined.toolCallId}`, error);
          }
        }
      }
      return part;
    },
  };
}

interface DeclinedCall {
  readonly runId: string;
  readonly toolName: string;
  readonly toolCallId: string;
  readonly args: ToolArgs;
  readonly reason: string | undefined;
}

/** Mastra's `tool-output-denied` chunk: `{ type, runId, payload: { toolCallId, toolName, args, approval: { reason } } }`. */
function declinedCallOf(part: unknown): DeclinedCall | undefined {
  if (part === null || typeof part !== 'object' || (part as { type?: unknown }).type !== 'tool-output-denied') return undefined;
  const { payload, runId } = part as { payload?: unknown; runId?: unknown };
  if (typeof runId !== 'string') return undefined;
  if (payload === null || typeof payload !== 'object') return undefined;
  const { toolName, toolCallId, args, approval } = payload as { toolName?: unknown; toolCallId?: unknown; args?: unknown; approval?: unknown };
  if (typeof toolName !== 'string' || typeof toolCallId !== 'string') return undefined;
  const reason = approval !== null && typeof approval === 'object' ? (approval as { reason?: unknown }).reason : undefined;
  return { runId, toolName, toolCallId, args: isPlainObject(args) ? args : { input: args }, reason: typeof reason === 'string' ? reason : undefined };
}
