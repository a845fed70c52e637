/**
 * Finding the marks capture leaves in recorded values: `[REDACTED]` for values under secret keys, and
 * the truncation markers (`…[truncated N]`, `…[N more items]`, `"…": "[N more keys]"`, `[Object]`,
 * `[Array(n)]`). A call whose values hold them replays with those placeholders, not the real values.
 * @internal
 */
import { REDACTED } from '../telemetry/capture/redaction.js';
import { isCaptureMarker } from '../telemetry/capture/bounded-json.js';
import { isTruncated } from '../telemetry/capture/truncate.js';
import type { ReplayFlag } from './types.js';


/** The flags for the parsed values; at most one of each, in the order `redacted`, `truncated`. */
export function markerFlags(...values: unknown[]): ReplayFlag[] {
  const found = { redacted: false, truncated: false };
  // Depth-first over parsed JSON (no cycles possible); an explicit stack, as recorded values may nest deeply.
  const stack: unknown[] = [...values];
  while (stack.length > 0 && !(found.redacted && found.truncated)) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value === REDACTED) found.redacted = true;
      else if (isCaptureMarker(value)) {
        found.truncated = true;
      }
    } else if (Array.isArray(value)) {
      for (const item of value as unknown[]) stack.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        if (isTruncated(key)) found.truncated = true;
        stack.push(member);
      }
    }
  }
  const flags: ReplayFlag[] = [];
  if (found.redacted) flags.push('redacted');
  if (found.truncated) flags.push('truncated');
  return flags;
}
