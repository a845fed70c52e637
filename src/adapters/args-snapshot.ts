/**
 * The one snapshot of a call's arguments an adapter takes from its framework, so hooks and the tool
 * see the same values.
 * @internal
 */
import { isPlainObject } from '../decisions.js';
import type { ToolArgs } from '../hook.js';

/**
 * A tool call's arguments read once: a plain copy (each getter or Proxy trap read one time), so hooks and the
 * tool see the same values. Values JSON cannot hold are kept by reference one level down.
 */
export function argsSnapshot(args: unknown): ToolArgs {
  if (args === null || typeof args !== 'object') return {};
  try {
    const copy: unknown = JSON.parse(JSON.stringify(args));
    if (isPlainObject(copy)) return copy;
  } catch {
    // a BigInt, a cycle: a shallow copy below
  }
  try {
    return { ...(args as ToolArgs) };
  } catch {
    return {};
  }
}
