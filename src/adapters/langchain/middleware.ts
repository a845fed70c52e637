/**
 * toolhooksMiddleware: a LangChain `createAgent` middleware whose `wrapToolCall` runs every tool
 * call of the agent through executeTool.
 */
import type { ToolMessage } from '@langchain/core/messages';
import type { AgentMiddleware, ToolCallRequest } from 'langchain';
import { createMiddleware } from 'langchain';
import { typeName } from '../../internal/describe.js';
import { HookAbortError } from '../../errors.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { ToolArgs } from '../../hook.js';
import { ApprovalLedger } from '../approval-ledger.js';
import type { AdapterSettings, CallLimits } from '../settings.js';
import { readApprovalsMode, readLimits, requireOptionsObject, requireRunner } from '../settings.js';
import type { CallApproval } from './approvals.js';
import { interruptApproval, isGraphInterrupt } from './approvals.js';
import { LANGGRAPH_SUSPENDS, runHookedCall, toToolMessage } from './call.js';
import { LearnedRedirectTargets } from './redirect-targets.js';
import { describeTool, nameOf } from './tools.js';
import type { ToolhooksMiddlewareOptions } from './types.js';

type Handler = (request: ToolCallRequest) => Promise<ToolMessage | CommandLike> | ToolMessage | CommandLike;
type CommandLike = Awaited<ReturnType<NonNullable<AgentMiddleware['wrapToolCall']>>>;

/**
 * An agent middleware for LangChain's `createAgent` that runs every tool call through the hooks,
 * with the tool's name, the model's tool call id (`gen_ai.tool.call.id`) and the tool's
 * description (`gen_ai.tool.description`):
 * - before_tool Skip: the tool does not run; the model gets a ToolMessage with the stub (a string as
 *   it is, anything else as JSON) and the call's `tool_call_id`;
 * - Redirect: `newArgs` replace the args the tool runs with; `newTool` runs that tool of the agent;
 * - Abort (any phase): `agent.invoke()` rejects with the {@link HookAbortError};
 * - onError Skip: the stub goes to the model; onError / afterTool Redirect retry / re-execute;
 * - after_tool Replace: the model reads the replacement as the ToolMessage content;
 * - Ask: decided by the runner's `approver` inside the call, or, with `approvals: 'framework'`, a
 *   LangGraph interrupt the app resumes with `new Command({ resume })` (second example).
 *
 * Hooks see the call's args before LangChain validates them against the tool's schema; args that
 * fail it make the tool fail (`ToolInvocationError`), which LangChain turns into an error message
 * for the model: the call is recorded as `failed`, the agent goes on.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { HookRunner, skip } from 'toolhooks';
 * import { toolhooksMiddleware } from 'toolhooks/langchain';
 *
 * const runner = new HookRunner([{ name: 'cache', tools: ['search'], beforeTool: (tool, args) => (cache.has(args.q) ? skip('cached', cache.get(args.q)) : undefined) }]);
 * const agent = createAgent({ model, tools: [search, readFile], middleware: [toolhooksMiddleware(runner)] });
 * await agent.invoke({ messages: [{ role: 'user', content: 'find the docs' }] });
 * ```
 *
 * @example
 * ```ts
 * import { Command, MemorySaver } from '@langchain/langgraph';
 * import { ask } from 'toolhooks';
 *
 * const gate = new HookRunner([{ name: 'four-eyes', tools: ['transfer'], beforeTool: () => ask('needs a second person') }]);
 * const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(gate, { approvals: 'framework' })], checkpointer: new MemorySaver() });
 * const config = { configurable: { thread_id: 't1' } };
 * const result = await agent.invoke({ messages }, config); // result.__interrupt__[0].value.toolhooks: the call waiting
 * await agent.invoke(new Command({ resume: { approved: true } }), config); // or LangChain's { decisions: [{ type: 'approve' }] }
 * ```
 */
export function toolhooksMiddleware<S = unknown>(runner: HookRunner<S>, options?: ToolhooksMiddlewareOptions<S>): AgentMiddleware {
  const where = 'toolhooksMiddleware';
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'tools', 'name', 'maxRetries', 'maxReexecutions', 'approvals']);
  const name = raw.name ?? 'toolhooks';
  if (typeof name !== 'string' || name === '') throw new TypeError(`${where}: options.name must be a non-empty string, got ${typeName(name)}`);
  const limits: CallLimits = readLimits(raw, where);
  const approvals = readApprovalsMode(raw.approvals, where);
  const ledger = approvals === 'framework' ? new ApprovalLedger(where) : undefined;
  const agentState = !('state' in raw);
  const learned = new LearnedRedirectTargets();
  let fixed: Map<string, object> | undefined;
  if (raw.tools !== undefined) {
    if (!Array.isArray(raw.tools)) throw new TypeError(`${where}: options.tools must be an array of LangChain tools, got ${typeName(raw.tools)}`);
    const given = new Map<string, object>();
    (raw.tools as unknown[]).forEach((tool, index) => given.set(nameOf(tool, `${where}: options.tools[${index}]`), tool as object));
    fixed = given;
  }
  const targets = fixed === undefined ? (call: ToolCallRequest['toolCall']) => learned.of(call.id, call.args) : () => fixed;

  return createMiddleware({
    name,
    // Only to learn each agent's tools (redirect targets) when they were not given.
    ...(fixed !== undefined
      ? {}
      : {
          wrapModelCall: async (request, handler) => {
            const response = await handler(request);
            learned.learn(request.tools, response);
            return response;
          },
        }),
    wrapToolCall: async (request, handler) => {
      const approval: CallApproval = {};
      try {
        return await wrapCall(request, handler as Handler, { core, state: raw.state as S | undefined, agentState, limits, known: targets(request.toolCall), ledger, approval });
      } finally {
        // An interrupted call runs again when resumed (the model is not asked again): keep its targets.
        if (approval.suspended !== true) learned.forget(request.toolCall.id, request.toolCall.args);
      }
    },
  });
}

/** What one call through the middleware uses: the middleware's shared settings and this call's parts. */
interface MiddlewareSettings<S> extends Pick<AdapterSettings<S, never>, 'core' | 'state' | 'limits'> {
  /** No `state` option: hooks get the agent's state at the time of the call. */
  readonly agentState: boolean;
  readonly known: ReadonlyMap<string, object>;
  /** Set with `approvals: 'framework'`: the middleware's approvals, and what this call's approver learns. */
  readonly ledger: ApprovalLedger | undefined;
  readonly approval: CallApproval;
}

async function wrapCall<S>(request: ToolCallRequest, handler: Handler, settings: MiddlewareSettings<S>): Promise<ToolMessage | CommandLike> {
  const { toolCall } = request;
  const args: ToolArgs = toolCall.args as ToolArgs;
  const callId = toolCall.id ?? '';
  const runTool = async (toolName: string, callArgs: ToolArgs): Promise<unknown> => {
    const tool = toolName === toolCall.name ? request.tool : (settings.known.get(toolName) as ToolCallRequest['tool']);
    return handler({ ...request, tool, toolCall: { ...toolCall, name: toolName, args: callArgs } });
  };
  try {
    const result = await runHookedCall<S>({
      core: settings.core,
      toolName: toolCall.name,
      args,
      state: settings.agentState ? (request.state as S) : settings.state,
      callId: toolCall.id,
      description: describeTool(request.tool),
      signal: request.runtime?.signal,
      limits: settings.limits,
      redirectTargetNames: () => settings.known.keys(),
      run: runTool,
      approval: settings.ledger === undefined ? LANGGRAPH_SUSPENDS : interruptApproval(request, settings.ledger, settings.approval),
    });
    const { alreadyResolved, denied } = settings.approval;
    if (alreadyResolved !== undefined) return toToolMessage(alreadyResolved, callId, toolCall.name, 'error') as ToolMessage;
    return toToolMessage(result, callId, toolCall.name, denied === true ? 'error' : undefined) as ToolMessage | CommandLike;
  } catch (error) {
    // LangGraph's interrupt (ours, or the tool's): the call waits for the app's `Command({ resume })`.
    if (isGraphInterrupt(error)) {
      settings.approval.suspended = true;
      settings.approval.rearm?.();
      throw error;
    }
    if (error instanceof HookAbortError) {
      // LangChain wraps what a middleware throws in a MiddlewareError but passes on, untouched, what
      // its handler throws: raising the abort from below makes agent.invoke() reject with it as is.
      return handler({ ...request, tool: raiser(toolCall.name, error) });
    }
    throw error;
  }
}

/** A stand-in tool whose invocation throws `error`. */
function raiser(name: string, error: HookAbortError): ToolCallRequest['tool'] {
  const fail = (): Promise<never> => Promise.reject(error);
  return { name, invoke: fail } as unknown as ToolCallRequest['tool'];
}
