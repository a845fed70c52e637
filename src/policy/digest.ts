/**
 * The digest recorded as `toolhooks.policy.digest`: the lowercase hex SHA-256 of what was loaded.
 * @internal
 */
import { createHash } from 'node:crypto';

export function sha256Hex(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
