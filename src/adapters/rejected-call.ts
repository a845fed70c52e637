/**
 * A tool call the framework rejects before it could run (input that is not JSON, or fails the tool's
 * schema), recorded as an `execute_tool` span with outcome `failed` and a `failed` tool event. No hook
 * method runs for it: the tool never ran.
 * @internal
 */
import { isPlainObject } from '../decisions.js';
import type { ToolArgs } from '../hook.js';
import type { RunnerCore } from '../runner/core.js';
import { ToolCall } from '../flows/tool-call.js';
import { ERROR_TYPE, errorTypeOf } from '../telemetry/error-type.js';
import { redactQuotedValues } from '../telemetry/capture/quoted-keys.js';

/** The model's rejected call: its tool, its id, and its input as the model sent it (JSON text). */
interface RejectedCall {
  readonly toolName: string;
  readonly callId: string | undefined;
  readonly input: string;
}

/**
 * Records a rejected call as failed with the framework error's `error.type`. Frameworks quote the
 * rejected input in their messages; unless args capture is on, the recorded message names only the
 * error's type and the tool, so no argument value reaches any signal.
 */
export async function recordRejectedCall(core: RunnerCore, rejected: RejectedCall, error: unknown): Promise<void> {
  // No phase ran: no `gated` either, so a malformed call never counts as ungated.
  const call = new ToolCall({ core, toolName: rejected.toolName, callId: rejected.callId, args: argsOf(rejected.input, core.capture.isRedactedKey), state: undefined, tallied: { gated: undefined } });
  await call.recordFailure(core.capture.args ? error : new RejectedCallError(rejected.toolName, error));
}

/** The rejection as recorded without argument capture: its `error.type`, none of the input. */
class RejectedCallError extends Error {
  readonly [ERROR_TYPE]: string;

  constructor(toolName: string, error: unknown) {
    const type = errorTypeOf(error);
    super(`${type}: the model's call to "${toolName}" was rejected before it ran (its input is recorded only with capture.args)`);
    this.name = 'RejectedCallError';
    this[ERROR_TYPE] = type;
  }
}

/**
 * The input as hooks' capture would see it: the parsed object, else `{ input: value or text }` — text
 * that does not parse with the values of redacted keys (`"password":"…"`) already replaced, as capture
 * would have redacted them had it parsed.
 */
function argsOf(input: string, isRedactedKey: (key: string) => boolean): ToolArgs {
  try {
    const parsed: unknown = JSON.parse(input);
    return isPlainObject(parsed) ? parsed : { input: parsed };
  } catch {
    return { input: redactQuotedValues(input, isRedactedKey) };
  }
}
