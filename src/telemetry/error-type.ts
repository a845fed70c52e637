/**
 * The `error.type` of a failed call or executor run: what an error says it is (an MCP result with
 * `isError` is a `tool_error`), else its class name, else `_OTHER` — the semantic conventions' rule.
 * @internal
 */
import { errorClassName } from '../internal/describe.js';
import { ERROR_TYPE_OTHER } from './semconv.js';

/**
 * An error that names its own `error.type` (an MCP result with `isError` is `tool_error`), read
 * before the class name.
 */
export const ERROR_TYPE = Symbol('toolhooks.errorType');

/** `error.type` of anything thrown: its own ERROR_TYPE, `HookAbortError` or the error's class name, else `_OTHER`. */
export function errorTypeOf(error: unknown): string {
  try {
    const own = error !== null && typeof error === 'object' ? (error as { [ERROR_TYPE]?: unknown })[ERROR_TYPE] : undefined;
    if (typeof own === 'string') return own;
  } catch {
    // a hostile error object: fall back to its class
  }
  return errorClassName(error) ?? ERROR_TYPE_OTHER;
}
