/**
 * Bounded memory by insertion order: what the adapters remember per call id (asked approvals, resolved
 * ids, the tools an agent offered) stays within a fixed number of entries, the oldest dropped first.
 * @internal
 */

/** Sets `key` as the newest entry of `map`, dropping the oldest entries beyond `capacity`. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > capacity) {
    const oldest = map.keys().next();
    if (oldest.done === true) break;
    map.delete(oldest.value);
  }
}
