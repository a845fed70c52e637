/**
 * Polling a real program until it shows what a test waits for: the probe runs every 250 ms until it
 * returns something other than undefined/false, or the deadline passes. Failed probes (the program busy,
 * a transient fetch error) are retried; the timeout names what was awaited, the last error, and the
 * program's own output.
 */
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves with the probe's first answer; rejects after `timeoutMs` with `what`, the last error and
 * `output()` (the program's log, read only on failure).
 *
 * @example
 * ```ts
 * await pollUntil('the alert to fire', () => prometheus.alerts().then((a) => a.length > 0), { output: () => log.text, label: 'prometheus log' });
 * ```
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  options: { timeoutMs?: number; label: string; output: () => string },
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const result = await probe();
      if (result !== undefined && result !== false) return result;
    } catch (error) {
      lastError = error; // a transient failure: try again until the deadline
    }
    await delay(250);
  }
  const cause = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}\n--- ${options.label} ---\n${options.output()}`);
}
