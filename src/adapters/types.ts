/**
 * The options every adapter shares. Each adapter's public options (`types.ts` in its folder) extend
 * {@link AdapterOptions}, so the shared fields are written, documented and checked in one place.
 */

/**
 * The options every adapter takes: the state its hooks see, and how often a Redirect may run the tool
 * again. An adapter's own options extend this one (the Claude Agent SDK's picks `state` only: that SDK
 * runs each tool once).
 *
 * @example
 * ```ts
 * // a new adapter's options: the shared ones, and its own
 * interface WithHooksOptions<S = unknown> extends AdapterOptions<S> {
 *   approvals?: 'runner' | 'framework';
 * }
 * ```
 */
export interface AdapterOptions<S = unknown> {
  /** State passed to every hook. */
  state?: S;
  /** How many times an on_error Redirect may retry a tool. Default 1. */
  maxRetries?: number;
  /** How many times an after_tool Redirect may re-execute a tool. Default 1. */
  maxReexecutions?: number;
}
