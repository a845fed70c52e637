/**
 * The hooks and the tool of the fixture apps that make a planned mix of calls (the tail-sampling and
 * pipeline tests): a call's arguments say what it is meant to become, and these make it so.
 *   `action: 'forbidden'` → aborted by the fail-closed `policy` hook;
 *   `buggy: true`         → the `audit` hook throws (swallowed: the call completes with a hook error);
 *   `fail: true`          → the tool throws (the call fails; `notifier` gives it an on_error span).
 * `id` (or `n`) names the call in the messages.
 *
 * @example
 * ```ts
 * const recorder = outcomeRecorder();
 * const hooks = new HookRunner({ hooks: [...PLANNED_CALL_HOOKS, recorder.hook] });
 * await executeTool({ hooks, toolName: 'work', args: { id: 'c1', fail: true }, execute: plannedWork }).catch(() => {});
 * recorder.outcomes.get('c1'); // 'failed'
 * ```
 */
import { HookAbortError, abort } from '../../src/index.js';
import type { Executor, ToolArgs, ToolHook, ToolHookEvent } from '../../src/index.js';

const nameOf = (args: ToolArgs): string => String(args['id'] ?? args['n']);

const policy: ToolHook = {
  name: 'policy',
  failureMode: 'closed',
  beforeTool: (_tool, args) => (args['action'] === 'forbidden' ? abort(`forbidden action in call ${nameOf(args)}`) : undefined),
};

const audit: ToolHook = {
  name: 'audit',
  beforeTool: (_tool, args) => {
    if (args['buggy'] === true) throw new RangeError(`audit store full at call ${nameOf(args)}`);
    return undefined;
  },
};

/** Sees every failure (so failed calls have an on_error span) and decides nothing. */
const notifier: ToolHook = { name: 'notifier', onError: () => undefined };

/** policy, audit and notifier, in that order. */
export const PLANNED_CALL_HOOKS: readonly ToolHook[] = [policy, audit, notifier];

/** The tool: throws `backend refused call …` when `fail` is true, else returns `{ id, ok: true }`. */
export const plannedWork: Executor = async (args) => {
  if (args['fail'] === true) throw new Error(`backend refused call ${nameOf(args)}`);
  return { id: args['id'] ?? args['n'], ok: true };
};

/** True for the two errors a planned call may end with (the abort and the tool's refusal). */
export function isPlannedError(error: unknown): boolean {
  return error instanceof HookAbortError || (error instanceof Error && error.message.startsWith('backend refused'));
}

/**
 * A hook that records each call's outcome by call id.
 *
 * @example
 * ```ts
 * const { hook, outcomes } = outcomeRecorder();
 * ```
 */
export function outcomeRecorder(): { hook: ToolHook; outcomes: Map<string, string> } {
  const outcomes = new Map<string, string>();
  const hook: ToolHook = {
    name: 'recorder',
    onEvent(event: ToolHookEvent) {
      if (event.type === 'tool') outcomes.set(event.callId ?? '', event.outcome);
    },
  };
  return { hook, outcomes };
}
