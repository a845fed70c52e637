/**
 * Where a swallowed hook failure is reported. Every failure goes to OpenTelemetry's `diag`; the first
 * failure of each hook name in the process is also seen without any setup: when no diag logger is
 * registered it becomes a Node process warning with a code, as Node itself does for deprecations.
 * @internal
 */
import { processWide } from '../internal/brand.js';
import type { HookEntry } from './hook-entry.js';
import { report, warnVisibly } from '../telemetry/warn-once.js';

/** The code of the process warning, for `process.on('warning')` filters and `--disable-warning`. */
const HOOK_FAILURE_WARNING_CODE = 'TOOLHOOKS_HOOK_FAILED';

/**
 * How many hook names are remembered. An app that names hooks per request (a request id in the name) must
 * not grow this set without bound; past it, failures of new names go to diag only.
 */
const MAX_REMEMBERED_NAMES = 10_000;

/**
 * The names already warned about, once per process: shared by the package's ESM and CommonJS builds, both
 * loaded in one process. An app that builds a runner (and its hook objects) per request gets one warning
 * per failing hook name, not one per request.
 */
const warned = processWide('toolhooks.hook-failure-warned', () => new Set<string>());

/** Reports one failure of `entry`'s hook: visibly the first time for its name, through diag after that. Never throws. */
export function reportHookFailure<S>(entry: HookEntry<S>, text: string): void {
  if (!warned.has(entry.name) && warned.size < MAX_REMEMBERED_NAMES) {
    warned.add(entry.name);
    warnVisibly(text, HOOK_FAILURE_WARNING_CODE);
    return;
  }
  report('warn', text);
}
