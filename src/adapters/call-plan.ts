/**
 * The plan of one call through a hooked tool set: what the set shares (its settings, its tools as
 * Redirect targets) joined with what the call brings of its own.
 * @internal
 */
import type { CallPlan, Executor } from '../flows/execute-tool.js';
import type { CallSpec } from '../flows/call-spec.js';
import type { ToolsByName } from './redirect-targets.js';
import { redirectTargetsAmong } from './redirect-targets.js';
import type { AdapterSettings } from './settings.js';

/** What a call through a hooked tool set brings of its own: the tool, its input and the framework's call details. */
type SetCall = Pick<CallSpec<unknown>, 'toolName' | 'args' | 'callId' | 'toolDescription' | 'signal' | 'handoff' | 'before' | 'span'>;

/**
 * The plan of one call through a hooked tool set: the set's runner, hooks' state and limits, `tool`
 * run through `executorOf`, and the set's other tools as Redirect targets (run the same way).
 */
export function setCallPlan<S, T>(
  settings: Pick<AdapterSettings<S, unknown>, 'core' | 'state' | 'limits'>,
  tools: ToolsByName<T>,
  tool: T,
  executorOf: (target: T) => Executor,
  call: SetCall,
): CallPlan<S> {
  return {
    ...call,
    core: settings.core,
    state: settings.state as S,
    execute: executorOf(tool),
    ...redirectTargetsAmong(tools, executorOf),
    ...settings.limits,
  };
}
