/**
 * The error onError hooks receive for a Claude Agent SDK tool call that did not succeed.
 */
import { brandAcrossBuilds } from '../../internal/brand.js';
import type { ClaudeToolFailure } from './types.js';

/**
 * A Claude tool call that failed: the SDK's PostToolUseFailure (`failed`, or `interrupted` when the
 * user interrupted it), a PermissionDenied after PreToolUse let it through, the session ending, or
 * no PostToolUse within `maxToolDurationMs` (`timeout`). `message` is the SDK's error text.
 *
 * @example
 * ```ts
 * const runner = new HookRunner([{ onError: (tool, args, error) => (error instanceof ClaudeToolError && error.failure === 'timeout' ? abort('tool hung') : undefined) }]);
 * ```
 */
export class ClaudeToolError extends Error {
  static {
    brandAcrossBuilds(this, 'ClaudeToolError');
  }

  override readonly name = 'ClaudeToolError';
  /** Why the call failed. */
  readonly failure: ClaudeToolFailure;
  /** The tool, as the SDK names it (`Bash`, `mcp__server__tool`…). */
  readonly toolName: string;

  constructor(message: string, failure: ClaudeToolFailure, toolName: string) {
    super(message);
    this.failure = failure;
    this.toolName = toolName;
  }
}
