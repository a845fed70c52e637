/**
 * recordInvalidToolCalls for Mastra: Mastra validates a model's tool input against the tool's
 * `inputSchema` before `execute` runs, so a call it refuses never reaches withHooks. Mastra's own
 * agent tool hooks (`hooks.afterToolCall`) run around that validation; this builds them so that each
 * refused call is recorded as a failed `execute_tool` call, while the model still reads Mastra's
 * validation error unchanged.
 */
import { typeName } from '../../internal/describe.js';
import type { HookRunner } from '../../runner/hook-runner.js';
import { ERROR_TYPE } from '../../telemetry/error-type.js';
import { recordRejectedCall } from '../rejected-call.js';
import { requireOptionsObject, requireRunner } from '../settings.js';
import { toText } from '../json-text.js';
import type { MastraToolHooks, RecordInvalidToolCallsOptions } from './types.js';

/**
 * Builds Mastra agent tool hooks (`new Agent({ hooks })`) that record every call Mastra refused
 * before execution — input that fails the tool's `inputSchema` — as an `execute_tool {toolName}` span
 * with outcome `failed` and `error.type` `ValidationError`, and as a `failed` tool event for
 * observers. No hook method runs for such a call, and no argument value is recorded unless args
 * capture is on. What the model reads is unchanged.
 *
 * @example
 * ```ts
 * const agent = new Agent({ id: 'ops', name: 'ops', instructions, model, tools: withHooks(tools, runner), hooks: recordInvalidToolCalls(runner) });
 * ```
 */
export function recordInvalidToolCalls<S = unknown>(runner: HookRunner<S>, options?: RecordInvalidToolCallsOptions): MastraToolHooks {
  const where = 'recordInvalidToolCalls';
  const core = requireRunner(runner, where);
  const raw = requireOptionsObject(options, where, ['hooks']);
  const own = raw.hooks;
  if (own !== undefined && (own === null || typeof own !== 'object')) {
    throw new TypeError(`${where}: options.hooks must be Mastra tool hooks ({ beforeToolCall?, afterToolCall? }), got ${typeName(own)}`);
  }
  const userHooks = (own ?? {}) as MastraToolHooks;
  const hooks: MastraToolHooks = {
    afterToolCall: async (call) => {
      if (isValidationError(call.output)) {
        const callId = toolCallIdOf(call.context);
        await recordRejectedCall(core, { toolName: call.toolName, callId, input: toText(call.input) }, new MastraValidationError(call.output));
      }
      await userHooks.afterToolCall?.(call);
    },
  };
  if (userHooks.beforeToolCall !== undefined) hooks.beforeToolCall = userHooks.beforeToolCall;
  return hooks;
}

/** Mastra's answer for refused input: `{ error: true, message, validationErrors }`, returned (not thrown). */
function isValidationError(output: unknown): output is { message?: unknown } {
  return output !== null && typeof output === 'object' && (output as { error?: unknown }).error === true && 'validationErrors' in output;
}

function toolCallIdOf(context: unknown): string | undefined {
  const id = context !== null && typeof context === 'object' ? (context as { toolCallId?: unknown }).toolCallId : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Mastra's validation answer as an error, for the recorded call's `error.type`. */
class MastraValidationError extends Error {
  readonly [ERROR_TYPE] = 'ValidationError';

  constructor(output: { message?: unknown }) {
    super(typeof output.message === 'string' ? output.message : 'Tool input validation failed');
    this.name = 'MastraValidationError';
  }
}
