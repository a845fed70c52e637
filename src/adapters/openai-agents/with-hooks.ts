/**
 * withHooks: an OpenAI Agents SDK agent's function tools whose `invoke` runs through the hooks, so
 * decisions take effect inside `run()` / `Runner.run()` and every call gets its `execute_tool` span.
 */
import { typeName } from '../../internal/describe.js';
import { isPlainObject } from '../../decisions.js';
import type { ToolArgs } from '../../hook.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { AdapterSettings } from '../settings.js';
import { copyWith } from '../tool-copy.js';
import { adapterSettings, readApprovalsMode, requireOptionsObject, requireRunner } from '../settings.js';
import { setCallPlan } from '../call-plan.js';
import { recordRejectedCall } from '../rejected-call.js';
import { ERROR_TYPE } from '../../telemetry/error-type.js';
import type { ApprovalHandoff } from '../../runner/handoff.js';
import { callDigest } from '../approval-ledger.js';
import type { Invocation, Perform } from './held-calls.js';
import { GuardrailRejectedError, heldKey } from './held-calls.js';
import type { AgentsSdkApprovals } from './approvals.js';
import { agentsSdkApprovals } from './approvals.js';
import type { WithHooksOptions } from './types.js';

/** The versions whose function tools this adapter knows (their shape is checked when wrapping). */
const SUPPORTED_AGENTS_RANGE = '@openai/agents >=0.14.0 <0.21';

type Invoke = (runContext: unknown, input: string, details?: unknown) => Promise<unknown>;
type NeedsApproval = (runContext: unknown, input: unknown, callId?: string) => Promise<boolean>;

/** A function tool of the array, with the object it belongs to. */
interface FunctionToolParts {
  readonly tool: object;
  readonly name: string;
  readonly invoke: Invoke;
  readonly needsApproval: NeedsApproval;
  readonly description: string | undefined;
}

interface Settings<S> extends AdapterSettings<S, AgentsSdkApprovals> {
  readonly tools: ReadonlyMap<string, FunctionToolParts>;
}

/**
 * Wraps an Agent's tools (the `tools` array of `new Agent({ … })`) so that each function tool's
 * `invoke` runs through the hooks, with the tool's `name` as the tool name, the model's arguments
 * (parsed from their JSON) as the args and the call's `callId` as `gen_ai.tool.call.id`:
 * - before_tool Skip: the tool does not run; the stub is the tool output the model reads;
 * - Redirect: `newArgs` are merged into the arguments (sent to the tool as JSON, validated by the
 *   tool's own schema); `newTool` runs another function tool of the same array;
 * - Abort: `invoke` rejects with the {@link HookAbortError}; the SDK ends the run: `run()` rejects
 *   with its `ToolCallError`, whose `error` is the HookAbortError;
 * - afterTool Redirect re-executes; onError sees what `invoke` throws — with the SDK's default error
 *   function a failing tool already answers the model with the SDK's error text, so onError hooks see
 *   only tools built with `errorFunction: null`.
 * Arguments that are not JSON are recorded as a `failed` call (no hook runs) and handed to the
 * tool's own `invoke`, so the model reads the SDK's own error. Hosted and other non-function tools,
 * and every other property of a function tool (schema, `needsApproval`, guardrails, `isEnabled`…),
 * are kept as they are — except `needsApproval` with `approvals: 'framework'`, which then also runs
 * the before_tool phase (after the tool's own): an Ask interrupts the run, and the approved call runs
 * in the resumed run (see {@link WithHooksOptions.approvals}).
 *
 * @example
 * ```ts
 * import { Agent, run, tool } from '@openai/agents';
 * import { HookRunner, abort } from 'toolhooks';
 * import { withHooks } from 'toolhooks/openai-agents';
 *
 * const runner = new HookRunner([{ name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (/rm -rf/.test(String(args.cmd)) ? abort('destructive') : undefined) }]);
 * const agent = new Agent({ name: 'ops', instructions: '…', tools: withHooks([shell], runner) });
 * const result = await run(agent, 'clean up /tmp');
 * ```
 * @example An Ask through the SDK's interruptions
 * ```ts
 * const tools = withHooks([sendEmail], new HookRunner([{ name: 'gate', beforeTool: () => ask('outgoing mail') }]), { approvals: 'framework' });
 * const agent = new Agent({ name: 'mailer', tools });
 * const sdk = new Runner({ toolErrorFormatter: approvalRejections(tools) });
 * let result = await sdk.run(agent, 'Email the team');
 * for (const item of result.interruptions) result.state.approve(item);
 * result = await sdk.run(agent, result.state); // the approved call runs here, once
 * ```
 */
export function withHooks<T extends readonly unknown[], S = unknown>(tools: T, runner: HookRunner<S>, options?: WithHooksOptions<S>): T {
  const where = 'withHooks';
  if (!Array.isArray(tools)) {
    throw new TypeError(`${where}: tools must be an Agent's array of tools (${SUPPORTED_AGENTS_RANGE}), got ${typeName(tools)}`);
  }
  const core = requireRunner<S>(runner, where);
  const raw = requireOptionsObject(options, where, ['state', 'maxRetries', 'maxReexecutions', 'approvals']);
  const mode = readApprovalsMode(raw.approvals, where);
  const parts = (tools as readonly unknown[]).map((tool, index) => functionToolParts(tool, index, where));
  const byName = new Map<string, FunctionToolParts>();
  for (const part of parts) if (part !== undefined) byName.set(part.name, part);
  const approvals = mode === 'framework' ? agentsSdkApprovals(core, where) : undefined;
  const settings: Settings<S> = { ...adapterSettings(core, raw, where, approvals), tools: byName };
  return (tools as readonly unknown[]).map((tool, index) => {
    const part = parts[index];
    if (part === undefined) return tool;
    const copy = copyWith(part.tool, 'invoke', hookedInvoke(part, settings));
    if (approvals === undefined) return copy;
    Object.defineProperty(copy, 'needsApproval', { value: hookedNeedsApproval(part, settings, approvals), enumerable: true, writable: true, configurable: true });
    const guardrails = (part.tool as { inputGuardrails?: unknown }).inputGuardrails;
    if (Array.isArray(guardrails) && guardrails.length > 0) {
      Object.defineProperty(copy, 'inputGuardrails', { value: guardrails.map((guardrail: unknown) => releasing(guardrail, part.name, approvals)), enumerable: true, writable: true, configurable: true });
    }
    approvals.register(copy, part.name);
    return copy;
  }) as unknown as T;
}

/** A function tool's parts; undefined for other tools; a TypeError for a shape this SDK line does not have. */
function functionToolParts(tool: unknown, index: number, where: string): FunctionToolParts | undefined {
  if (tool === null || typeof tool !== 'object') {
    throw new TypeError(`${where}: tools[${index}] must be a tool object, got ${typeName(tool)}`);
  }
  const { type, name, invoke, needsApproval, description } = tool as Record<string, unknown>;
  if (type !== 'function') {
    if (typeof type === 'string') return undefined; // hosted, computer, shell…: the SDK runs them itself
    throw new TypeError(`${where}: tools[${index}] is not a tool of ${SUPPORTED_AGENTS_RANGE} (no type), got ${typeName(tool)}`);
  }
  if (typeof name !== 'string' || typeof invoke !== 'function' || typeof needsApproval !== 'function') {
    throw new TypeError(
      `${where}: tools[${index}] is a function tool of another version of the Agents SDK (toolhooks/openai-agents needs name, invoke(runContext, input, details) and needsApproval, as in ${SUPPORTED_AGENTS_RANGE})`,
    );
  }
  return { tool, name, invoke: invoke as Invoke, needsApproval: needsApproval as NeedsApproval, description: typeof description === 'string' ? description : undefined };
}

function hookedInvoke<S>(parts: FunctionToolParts, settings: Settings<S>): Invoke {
  return async (runContext, input, details) => {
    const callId = callIdOf(details);
    const invocation: Invocation = { runContext, input, details };
    const approvals = settings.approvals;
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      // Not JSON: needsApproval held nothing for it either.
      await recordRejectedCall(settings.core, { toolName: parts.name, callId, input }, error);
      return parts.invoke.call(parts.tool, runContext, input, details);
    }
    // The call's before_tool phase already ran in needsApproval: its flow goes on with this invocation.
    const key = approvals === undefined || callId === undefined ? undefined : heldKey(runContext, callId, parsed);
    const held = key === undefined ? undefined : approvals?.held.take(key, invocation);
    if (held !== undefined) return outputOf(held);
    const call = argsOf(parsed);
    let handoff: ApprovalHandoff | undefined;
    if (approvals !== undefined && callId !== undefined) {
      // A continuation: the app approved this call through the SDK (its state says so).
      const continuation = await approvals.continuation(runContext, parts.name, callId, call.args);
      if (typeof continuation === 'string') return continuation;
      handoff = continuation;
    }
    return outputOf(runCall(parts, settings, call, callId, signalOf(details), handoff, (work) => work(invocation)));
  };
}

/**
 * The tool's `needsApproval` for `approvals: 'framework'`: the tool's own first (true: the SDK asks,
 * and the hooks run when the approved call is invoked), then the call's before_tool phase, held for
 * the invoke that follows; true when the hooks asked.
 */
function hookedNeedsApproval<S>(parts: FunctionToolParts, settings: Settings<S>, approvals: AgentsSdkApprovals): NeedsApproval {
  return async (runContext, input, callId) => {
    if ((await parts.needsApproval.call(parts.tool, runContext, input, callId)) === true) return true;
    if (typeof callId !== 'string') return false;
    let parsed: unknown;
    try {
      parsed = typeof input === 'string' ? JSON.parse(input) : input;
    } catch {
      return false; // invoke records it as failed and hands it to the tool, as without approvals
    }
    const key = heldKey(runContext, callId, parsed);
    if (key === undefined) return false;
    // A copy: the hooks never see (or change) the object the SDK keeps.
    const args = argsOf(JSON.parse(JSON.stringify(parsed ?? null)) as unknown);
    const about = callDigest(parts.name, args.args);
    return approvals.held.hold(parts.name, callId, key, (handoff, perform) => runCall(parts, settings, args, callId, undefined, handoff, perform), about);
  };
}

/**
 * A tool input guardrail that, when it rejects a call (`rejectContent`, `throwException`, or by
 * throwing), ends the call's held flow at once: the SDK will not invoke the tool after it. What the
 * guardrail returns or throws reaches the SDK as it is.
 */
function releasing(guardrail: unknown, toolName: string, approvals: AgentsSdkApprovals): unknown {
  if (guardrail === null || typeof guardrail !== 'object') return guardrail;
  const { run, name } = guardrail as { run?: unknown; name?: unknown };
  if (typeof run !== 'function') return guardrail;
  const label = typeof name === 'string' ? name : 'guardrail';
  const release = (args: unknown, how: string): void => {
    const { toolCall: call, context: runContext } = (args as { toolCall?: { callId?: unknown; arguments?: unknown }; context?: unknown } | undefined) ?? {};
    const callId = call?.callId;
    const key = typeof callId === 'string' ? heldKey(runContext, callId, call?.arguments) : undefined;
    if (key !== undefined) approvals.held.release(key, new GuardrailRejectedError(toolName, callId as string, label, how));
  };
  return copyWith(guardrail, 'run', async function (this: unknown, args: unknown): Promise<unknown> {
    let output: unknown;
    try {
      output = await (run as (args: unknown) => unknown).call(this, args);
    } catch (error) {
      release(args, 'it threw');
      throw error;
    }
    const type = (output as { behavior?: { type?: unknown } } | undefined)?.behavior?.type;
    if (type === 'rejectContent' || type === 'throwException') release(args, type);
    return output;
  });
}

/** What `invoke` returns for a call's flow: its result, or the SDK's error text for input the schema refused. */
async function outputOf(flow: Promise<unknown>): Promise<unknown> {
  try {
    return await flow;
  } catch (error) {
    if (error instanceof RejectedInputError) return error.output;
    throw error;
  }
}

function argsOf(parsed: unknown): { args: ToolArgs; wrapped: boolean } {
  return isPlainObject(parsed) ? { args: parsed, wrapped: false } : { args: { input: parsed }, wrapped: true };
}

/**
 * Runs one call through the hooks; its executors invoke a tool of the array with the call's
 * arguments, in the SDK's invocation (`perform`) — which, for a held call, comes after the
 * before_tool phase.
 */
function runCall<S>(
  parts: FunctionToolParts,
  settings: Settings<S>,
  parsed: { args: ToolArgs; wrapped: boolean },
  callId: string | undefined,
  signal: AbortSignal | undefined,
  handoff: ApprovalHandoff | undefined,
  perform: Perform,
): Promise<unknown> {
  const { args, wrapped } = parsed;
  let watched: { known: boolean; parsed: boolean } | undefined;
  const executorOf =
    (target: FunctionToolParts): Executor =>
    (callArgs) =>
      perform(async ({ runContext, input, details }) => {
        watched ??= watchParsing(details);
        watched.parsed = false;
        // Unchanged arguments go as the model sent them: the SDK reuses the input it already parsed.
        const sent = callArgs === args ? input : JSON.stringify(wrapped ? callArgs.input : callArgs);
        const output = await target.invoke.call(target.tool, runContext, sent, details);
        // The tool's schema refused the input: the output is the SDK's error text for the model.
        if (watched.known && !watched.parsed) throw new RejectedInputError(target.name, output);
        return output;
      });
  return runToolCall<S>(setCallPlan(settings, settings.tools, parts, executorOf, { toolName: parts.name, args, callId, toolDescription: parts.description, signal, handoff }));
}

/**
 * The tool's schema refused the (possibly redirected) input: the call is `failed` with this type, and
 * the model reads the SDK's own error text (`output`) as it would without hooks. Its message names
 * the tool only: the SDK's text may quote the input.
 */
class RejectedInputError extends Error {
  /** The SDK's own name for the failure (its `InvalidToolInputError`). @internal */
  readonly [ERROR_TYPE] = 'InvalidToolInputError';

  constructor(
    toolName: string,
    readonly output: unknown,
  ) {
    super(`the input of "${toolName}" does not match its parameters schema`);
    this.name = 'RejectedInputError';
  }
}

/** The SDK's callback, called with the parsed input just before the tool's `execute` runs. */
const PARSED_INPUT_CALLBACK = 'openai.agents.functionToolParsedInputCallback';

/**
 * The invocation details with the SDK's parsed-input callback observed, so the adapter can tell a
 * tool that ran from input its schema refused. `known` is false when the details carry no such
 * callback (another runner, another SDK version): then nothing is told apart.
 */
function watchParsing(details: unknown): { known: boolean; parsed: boolean } {
  const watched = { known: false, parsed: false };
  if (details === null || typeof details !== 'object') return watched;
  const key = Object.getOwnPropertySymbols(details).find((symbol) => symbol.description === PARSED_INPUT_CALLBACK);
  const callback: unknown = key === undefined ? undefined : (details as Record<symbol, unknown>)[key];
  if (key === undefined || typeof callback !== 'function') return watched;
  // The details are the SDK's per-invocation object (its WeakMaps key on it, so it is not copied).
  (details as Record<symbol, unknown>)[key] = (value: unknown) => {
    watched.parsed = true;
    return (callback as (value: unknown) => unknown)(value);
  };
  watched.known = true;
  return watched;
}

function callIdOf(details: unknown): string | undefined {
  const toolCall = details !== null && typeof details === 'object' ? (details as { toolCall?: unknown }).toolCall : undefined;
  const callId = toolCall !== null && typeof toolCall === 'object' ? (toolCall as { callId?: unknown }).callId : undefined;
  return typeof callId === 'string' ? callId : undefined;
}

function signalOf(details: unknown): AbortSignal | undefined {
  const signal = details !== null && typeof details === 'object' ? (details as { signal?: unknown }).signal : undefined;
  return signal instanceof AbortSignal ? signal : undefined;
}
