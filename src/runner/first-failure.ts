/**
 * Where a swallowed hook failure is reported. Every failure goes to OpenTelemetry's `diag`; the first
 * failure of each hook is also seen without any setup: when no diag logger is registered it becomes a
 * Node process warning with a code, as Node itself does for deprecations.
 * @internal
 */
import type { HookEntry } from './hook-entry.js';
import { report, warnVisibly } from '../telemetry/warn-once.js';

/** The code of the process warning, for `process.on('warning')` filters and `--disable-warning`. */
const HOOK_FAILURE_WARNING_CODE = 'TOOLHOOKS_HOOK_FAILED';

const warned = new WeakSet<object>();

/** Reports one failure of `entry`'s hook: visibly the first time, through diag after that. Never throws. */
export function reportHookFailure<S>(entry: HookEntry<S>, text: string): void {
  if (!warned.has(entry.hook)) {
    warned.add(entry.hook);
    warnVisibly(text, HOOK_FAILURE_WARNING_CODE);
    return;
  }
  report('warn', text);
}
