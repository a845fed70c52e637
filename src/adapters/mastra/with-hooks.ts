/**
 * withHooks: a Mastra Agent's tools record whose `execute` functions run through the hooks, so
 * decisions take effect inside `agent.generate()` / `agent.stream()` and every call gets its
 * `execute_tool` span.
 */
import { typeName } from '../../internal/describe.js';
import { isPlainObject } from '../../decisions.js';
import type { ToolArgs } from '../../hook.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { CallPlan, Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { AdapterSettings } from '../settings.js';
import { copyWith, mapToolRecord } from '../tool-copy.js';
import { adapterSettings, readApprovalsMode, requireOptionsObject, requireRunner } from '../settings.js';
import { setCallPlan } from '../call-plan.js';
import { MastraApprovals } from './approvals.js';
import { registerHookedTool } from './declined-calls.js';
import type { WithHooksOptions } from './types.js';

/** The Mastra line whose tools this adapter knows. */
const SUPPORTED_MASTRA_RANGE = '@mastra/core >=1.58.0 <2';

/** Mastra's mark on its `Tool` instances (`createTool`), a global symbol. */
const MASTRA_TOOL_MARKER = Symbol.for('mastra.core.tool.Tool');

type Execute = (inputData: unknown, context?: unknown) => unknown;

interface Runnable {
  readonly tool: object;
  readonly execute: Execute;
  readonly description: string | undefined;
  /** The tool has Mastra's own `requireApproval: true` (an AI SDK tool's `needsApproval: true`): Mastra asks before every call. */
  readonly gated: boolean;
}

interface Settings<S> extends AdapterSettings<S, MastraApprovals> {
  readonly runnables: ReadonlyMap<string, Runnable>;
}

/**
 * Wraps a Mastra Agent's tools record (the `tools` of `new Agent({ … })`: `createTool` tools, or AI
 * SDK tools) so that every tool's `execute` runs through the hooks, with the record's key as the tool
 * name, the validated input as the args and the model's `toolCallId` as `gen_ai.tool.call.id`:
 * - before_tool Skip: the tool does not run; the stub is the tool result the model reads;
 * - Redirect: `newArgs` are merged into the input; `newTool` runs another tool of the same record;
 * - Abort: `execute` rejects with the {@link HookAbortError}; Mastra reports it to the model as the
 *   tool's error (its message is the reason) and the run goes on;
 * - onError and afterTool act as in executeTool (retry, recover with a stub, re-execute).
 * - Ask: the runner's `approver` decides inside the call; with `approvals: 'framework'`, the run
 *   suspends as Mastra's own tool-call approval and `agent.approveToolCall` / `declineToolCall`
 *   resume it (see {@link WithHooksOptions.approvals}).
 * Every other property of a tool (schemas, `requireApproval`, `toModelOutput`, …) is kept; tools
 * without `execute` are returned as they are. Mastra validates the model's input against the tool's
 * `inputSchema` before `execute` runs, so hooks see validated input, and a call Mastra rejects never
 * reaches them.
 *
 * @example
 * ```ts
 * import { Agent } from '@mastra/core/agent';
 * import { HookRunner, skip } from 'toolhooks';
 * import { withHooks } from 'toolhooks/mastra';
 *
 * const runner = new HookRunner([{ name: 'cache', tools: ['weather'], beforeTool: (_t, args) => (cache.has(args.city) ? skip('cached', cache.get(args.city)) : undefined) }]);
 * const agent = new Agent({ id: 'weather', name: 'weather', instructions, model, tools: withHooks({ weather }, runner) });
 * const result = await agent.generate('Weather in Paris?');
 * ```
 *
 * @example Asking through Mastra's own approval
 * ```ts
 * import { Mastra } from '@mastra/core/mastra';
 * import { recordDeclinedCalls, withHooks } from 'toolhooks/mastra';
 *
 * const tools = withHooks({ shell }, new HookRunner([{ name: 'gate', tools: ['shell'], beforeTool: () => ask('shell needs a person') }]), { approvals: 'framework' });
 * const ops = new Agent({ id: 'ops', name: 'ops', instructions, model, tools, outputProcessors: [recordDeclinedCalls(tools)] });
 * const agent = new Mastra({ agents: { ops }, storage }).getAgent('ops');
 * const first = await agent.generate('clean up');
 * if (first.finishReason === 'suspended') await agent.approveToolCallGenerate({ runId: first.runId, toolCallId: first.suspendPayload.toolCallId });
 * ```
 */
export function withHooks<T extends object, S = unknown>(tools: T, runner: HookRunner<S>, options?: WithHooksOptions<S>): T {
  const where = 'withHooks';
  if (tools === null || typeof tools !== 'object' || Array.isArray(tools)) {
    throw new TypeError(`${where}: tools must be a Mastra Agent's tools record (tools by name, ${SUPPORTED_MASTRA_RANGE}), got ${typeName(tools)}`);
  }
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'maxRetries', 'maxReexecutions', 'approvals']);
  const approvals = readApprovalsMode(raw.approvals, where) === 'framework' ? new MastraApprovals(where) : undefined;
  const runnables = new Map<string, Runnable>();
  for (const [name, tool] of Object.entries(tools as Record<string, unknown>)) {
    const runnable = runnableOf(name, tool, where);
    if (runnable !== undefined) runnables.set(name, runnable);
  }
  const settings: Settings<S> = { ...adapterSettings(core, raw, where, approvals), runnables };
  const hooked = mapToolRecord(tools, (name, tool) => {
    const runnable = runnables.get(name);
    if (runnable === undefined) return undefined;
    const copy = copyWith(tool, 'execute', hookedExecute(name, runnable, settings));
    if (approvals !== undefined) registerHookedTool(copy, { approvals, planOf: (args, callId) => planOf(name, runnable, settings, args, false, undefined, callId) as CallPlan<unknown> });
    return copy;
  });
  return hooked as T;
}

function runnableOf(name: string, tool: unknown, where: string): Runnable | undefined {
  const label = `${where}: tools[${JSON.stringify(name)}]`;
  if (tool === null || typeof tool !== 'object') throw new TypeError(`${label} must be a tool object, got ${typeName(tool)}`);
  const { execute, id, description, requireApproval, needsApproval } = tool as { execute?: unknown; id?: unknown; description?: unknown; requireApproval?: unknown; needsApproval?: unknown };
  if (execute === undefined || execute === null) return undefined;
  if (typeof execute !== 'function') throw new TypeError(`${label}.execute must be a function, got ${typeName(execute)}`);
  // A Mastra 1.x Tool carries the global mark and an execute(inputData, context) that validates its input;
  // a tool with an id but neither is one of Mastra 0.x, whose execute takes one `{ context }` argument.
  if (typeof id === 'string' && !(MASTRA_TOOL_MARKER in tool) && execute.length < 2) {
    throw new TypeError(`${label} looks like a tool of an older Mastra (execute({ context })); toolhooks/mastra supports ${SUPPORTED_MASTRA_RANGE}, whose tools run execute(inputData, context)`);
  }
  return { tool, execute: execute as Execute, description: typeof description === 'string' ? description : undefined, gated: requireApproval === true || needsApproval === true };
}

function hookedExecute<S>(name: string, runnable: Runnable, settings: Settings<S>): Execute {
  return (inputData, context) => {
    const wrapped = !isPlainObject(inputData);
    const args: ToolArgs = isPlainObject(inputData) ? inputData : { input: inputData };
    const plan = planOf(name, runnable, settings, args, wrapped, context, toolCallIdOf(context));
    return settings.approvals === undefined ? runToolCall<S>(plan) : settings.approvals.run(plan, context, runnable.gated);
  };
}

/** The call of tool `name` with `args`; its executors run the tools' own `execute` with Mastra's `context`. */
function planOf<S>(name: string, runnable: Runnable, settings: Settings<S>, args: ToolArgs, wrapped: boolean, context: unknown, callId: string | undefined): CallPlan<S> {
  const executorOf =
    (target: Runnable): Executor =>
    (callArgs) =>
      target.execute.call(target.tool, wrapped ? callArgs.input : callArgs, context);
  return setCallPlan(settings, settings.runnables, runnable, executorOf, { toolName: name, args, callId, toolDescription: runnable.description, signal: signalOf(context) });
}

/** The model's call id: `context.agent.toolCallId` inside an agent, `context.toolCallId` for an AI SDK tool. */
function toolCallIdOf(context: unknown): string | undefined {
  if (context === null || typeof context !== 'object') return undefined;
  const agent = (context as { agent?: unknown }).agent;
  const nested = agent !== null && typeof agent === 'object' ? (agent as { toolCallId?: unknown }).toolCallId : undefined;
  const direct = (context as { toolCallId?: unknown }).toolCallId;
  return typeof nested === 'string' ? nested : typeof direct === 'string' ? direct : undefined;
}

function signalOf(context: unknown): AbortSignal | undefined {
  const signal = context !== null && typeof context === 'object' ? (context as { abortSignal?: unknown }).abortSignal : undefined;
  return signal instanceof AbortSignal ? signal : undefined;
}
