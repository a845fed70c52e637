/**
 * The keys a limit counts under: the hook's name and the user's key, joined so that no two pairs give
 * the same key, and hashed where a key must be short and plain (a Redis key, a long in-memory key).
 * @internal
 */
import { createHash } from 'node:crypto';

/** Keys up to this many characters are held by the memory store as they are; longer ones are hashed. */
const MAX_PLAIN_KEY = 128;

/** The key a limit hook counts under in its store: its name and the user's key, unambiguous (the name's length leads). */
export function namespacedKey(hookName: string, key: string): string {
  return `${hookName.length}:${hookName}:${key}`;
}

/** The lowercase hex SHA-256 of a string's UTF-8 bytes. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/**
 * What the memory store keeps a key as: short keys as they are (no work on the common path), long ones
 * as their SHA-256, so that a 1 MB key costs 71 characters. A short key equal to `sha256:<hex>` of a long
 * one would need a preimage of SHA-256.
 */
export function memoryKey(key: string): string {
  return key.length <= MAX_PLAIN_KEY ? key : `sha256:${sha256Hex(key)}`;
}
