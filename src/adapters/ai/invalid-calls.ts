/**
 * recordInvalidToolCalls: the AI SDK validates a model's tool input before any `execute` runs, so a
 * malformed call never reaches withHooks. The SDK's one hook for such calls is
 * `experimental_repairToolCall`; this builds one that records the call as failed and then lets the
 * SDK's own error reach the model unchanged (or defers to the caller's own repair function).
 */
import { typeName } from '../../internal/describe.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import type { RunnerCore } from '../../runner/core.js';
import { recordRejectedCall } from '../rejected-call.js';
import { requireOptionsObject, requireRunner } from '../settings.js';
import type { RecordInvalidToolCallsOptions, RepairToolCallOptions } from './types.js';

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
export function recordInvalidToolCalls<O extends RepairToolCallOptions = RepairToolCallOptions, R = never, S = unknown>(
  runner: HookRunner<S>,
  options?: RecordInvalidToolCallsOptions<O, R>,
): (options: O) => Promise<Awaited<R> | null> {
  const where = 'recordInvalidToolCalls';
  const core = requireRunner(runner, where);
  const raw = requireOptionsObject(options, where, ['repair']);
  const repair = raw.repair;
  if (repair !== undefined && typeof repair !== 'function') {
    throw new TypeError(`${where}: options.repair must be a function, got ${typeName(repair)}`);
  }
  const userRepair = repair as ((options: O) => R | PromiseLike<R>) | undefined;
  return async (repairOptions) => {
    if (userRepair !== undefined) {
      let repaired: Awaited<R>;
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

/** Records the call the SDK rejected; its `input` is the model's JSON text, not yet parsed. */
function recordFailure(core: RunnerCore, toolCall: RepairToolCallOptions['toolCall'], error: unknown): Promise<void> {
  // Ended as `failed` with the error's type, observers notified; the SDK raises the error itself once we return null.
  return recordRejectedCall(core, { toolName: toolCall.toolName, callId: toolCall.toolCallId, input: toolCall.input }, error);
}
