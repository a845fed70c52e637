/**
 * Warnings that must print before the process can exit: Node-only (it writes to fd 2 itself), so it
 * lives apart from warn-once.ts, which the core, usable outside Node, imports. Used by `toolhooks/hooks`
 * and `toolhooks/node`.
 * @internal
 */
import { writeSync } from 'node:fs';
import { diag } from '@opentelemetry/api';
import { diagSafe } from './capture.js';
import { diagLoggerRegistered } from './warn-once.js';

/**
 * Like `warnVisibly`, but written before this function returns: for what must be seen even when the
 * process exits right after (an `exit` listener, a `.catch(() => process.exit(1))`), where a process
 * warning would never print. Without a diag logger it writes one line to stderr shaped like a process
 * warning (`(node:PID) [CODE] ToolhooksWarning: …`), synchronously and without blocking: a stderr pipe
 * nobody reads loses the line rather than holding the process. Never throws.
 *
 * @example
 * ```ts
 * process.once('exit', () => warnNow('toolhooks: exited without shutdown(); 12 spans were not exported', 'TOOLHOOKS_NO_SHUTDOWN'));
 * ```
 */
export function warnNow(message: string, code: string, level: 'warn' | 'error' = 'warn'): void {
  const line = diagSafe(message);
  try {
    if (diagLoggerRegistered() || typeof process === 'undefined') {
      diag[level](line);
      return;
    }
    void process.stderr; // opening it makes a stderr pipe non-blocking: the write below cannot hang
    writeSync(2, `(node:${process.pid}) [${code}] ToolhooksWarning: ${line}\n`);
  } catch {
    // nowhere left to say it
  }
}
