/**
 * recordInvalidToolCalls: the AI SDK validates a model's tool input before any `execute` runs, so a
 * malformed call never reaches withHooks. The SDK's one hook for such calls is
 * `experimental_repairToolCall`; this builds one that records the call as failed and then lets the
 * SDK's own error reach the model unchanged (or defers to the caller's own repair function).
 */
import { typeName } from '../../internal/describe.js';
import type { ToolCallRepairFunction, ToolSet } from 'ai';
import { isPlainObject } from '../../decisions.js';
import type { ToolArgs } from '../../hook.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { RunnerCore } from '../../runner/core.js';
import { ToolCall } from '../../flows/tool-call.js';
import { requireOptionsObject, requireRunner } from '../shared.js';

/**
 * Options of {@link recordInvalidToolCalls}.
 *
 * @example
 * ```ts
 * const repairToolCall = recordInvalidToolCalls(runner, { repair: async ({ toolCall }) => fixJson(toolCall) });
 * ```
 */
export interface RecordInvalidToolCallsOptions<TOOLS extends ToolSet = ToolSet> {
  /**
   * Your own repair function. It runs first; a call it repairs (returns non-null) is not recorded
   * here — the repaired call runs through the hooked tool like any other.
   */
  repair?: ToolCallRepairFunction<TOOLS>;
}

/**
 * Builds an `experimental_repairToolCall` function that records every tool call the AI SDK rejects
 * before execution — input that fails the tool's schema (`InvalidToolInputError`) or a tool the set
 * does not have (`NoSuchToolError`) — as an `execute_tool {toolName}` span with outcome `failed`
 * and `error.type` the SDK error's class, and as a `failed` tool event for observers such as
 * MetricsHook. It repairs nothing: it returns `null`, so the SDK's own validation error reaches the
 * model exactly as without it. No hook method runs for such a call: the tool never ran.
 *
 * @example
 * ```ts
 * const result = await generateText({
 *   model,
 *   tools: withHooks(tools, runner),
 *   experimental_repairToolCall: recordInvalidToolCalls(runner),
 *   prompt,
 * });
 * ```
 */
export function recordInvalidToolCalls<TOOLS extends ToolSet = ToolSet, S = unknown>(
  runner: HookRunner<S>,
  options?: RecordInvalidToolCallsOptions<TOOLS>,
): ToolCallRepairFunction<TOOLS> {
  const where = 'recordInvalidToolCalls';
  const core = requireRunner(runner, where);
  const raw = requireOptionsObject(options, where, ['repair']);
  const repair = raw.repair;
  if (repair !== undefined && typeof repair !== 'function') {
    throw new TypeError(`${where}: options.repair must be a function, got ${typeName(repair)}`);
  }
  const userRepair = repair as ToolCallRepairFunction<TOOLS> | undefined;
  return async (repairOptions) => {
    if (userRepair !== undefined) {
      let repaired: Awaited<ReturnType<ToolCallRepairFunction<TOOLS>>>;
      try {
        repaired = await userRepair(repairOptions);
      } catch (repairError) {
        // The SDK turns this into a ToolCallRepairError for the model; the call still failed.
        await recordFailure(core, repairOptions.toolCall, repairOptions.error);
        throw repairError;
      }
      if (repaired !== null && repaired !== undefined) return repaired;
    }
    await recordFailure(core, repairOptions.toolCall, repairOptions.error);
    return null;
  };
}

/** The model's call as the SDK hands it to a repair function (JSON input text, not yet parsed). */
interface RejectedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

async function recordFailure(core: RunnerCore, toolCall: RejectedCall, error: unknown): Promise<void> {
  // Ended as `failed` with the error's type, observers notified; the SDK raises the error itself once we return null.
  const call = new ToolCall({ core, toolName: toolCall.toolName, callId: toolCall.toolCallId, args: argsOf(toolCall.input), state: undefined });
  await call.recordFailure(error);
}

/** The rejected input as hooks' capture would see it: the parsed object, else `{ input: text }`. */
function argsOf(input: string): ToolArgs {
  try {
    const parsed: unknown = JSON.parse(input);
    return isPlainObject(parsed) ? parsed : { input: parsed };
  } catch {
    return { input };
  }
}
