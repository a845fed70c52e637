/**
 * The first swallowed failure of each hook is seen without any setup: when no OpenTelemetry diag
 * logger is registered (where the runner's warnings go), it is also emitted as a Node process warning
 * with a code, as Node itself does for deprecations. Later failures of the same hook go to diag only.
 * @internal
 */
import type { HookEntry } from '../hook-entry.js';

/** The code of the process warning, for `process.on('warning')` filters and `--disable-warning`. */
export const HOOK_FAILURE_WARNING_CODE = 'TOOLHOOKS_HOOK_FAILED';

const warned = new WeakSet<object>();
const API_KEY = Symbol.for('opentelemetry.js.api.1');

/** Emits `text` as a process warning the first time `entry`'s hook fails, unless diag has a logger. */
export function reportFirstFailure<S>(entry: HookEntry<S>, text: string): void {
  if (warned.has(entry.hook)) return;
  warned.add(entry.hook);
  try {
    if (diagLoggerRegistered()) return;
    const emit = (globalThis as { process?: { emitWarning?: (message: string, options: object) => void } }).process?.emitWarning;
    emit?.call(process, text, { type: 'ToolhooksWarning', code: HOOK_FAILURE_WARNING_CODE });
  } catch {
    // a warning that cannot be emitted must not reach the tool path
  }
}

/** Whether `diag.setLogger` was called (the API keeps the logger in its global registry). */
function diagLoggerRegistered(): boolean {
  const registry = (globalThis as Record<symbol, { diag?: unknown } | undefined>)[API_KEY];
  return registry?.diag !== undefined;
}
