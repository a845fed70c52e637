/**
 * Small hooks for the runner's tests.
 */
import type { HookDecision, ToolHook } from '../../src/index.js';

/**
 * A hook named `name` with only a beforeTool, which decides with `decide`.
 *
 * @example
 * ```ts
 * await runner([before('gate', () => abort('no'))]).runBefore('shell', {}, undefined);
 * ```
 */
export const before = (name: string, decide: () => HookDecision | void | Promise<HookDecision | void>): ToolHook => ({
  name,
  beforeTool: decide,
});
