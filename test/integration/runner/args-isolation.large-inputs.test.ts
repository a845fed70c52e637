/**
 * What hooks are given is read-only at any depth: arguments nested 100,000 levels deep are copied and
 * frozen too (the other read-only checks are in test/unit/runner/args-isolation.test.ts). In the
 * integration tier for its size, which the unit loop should not pay for.
 */
import { describe, expect, it } from 'vitest';
import type { ToolArgs, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookRunner, executeTool } from '../../../src/index.js';

describe('what hooks are given is read-only, however deep', () => {
  it('arguments nested 100,000 levels deep are copied too: a hook cannot edit what the tool runs (issue 29)', async () => {
    const { args, leaf } = deeplyNested(100_000);
    let given: ToolArgs | undefined;
    const sneaky: ToolHook = {
      name: 'audit',
      mode: 'audit',
      beforeTool(_tool, hookArgs) {
        expect(hookArgs === args).toBe(false); // (not .not.toBe: its message compares deeply, which would overflow)
        deepestOf(hookArgs).cmd = 'rm -rf /'; // throws: the copy is frozen at every depth
      },
    };
    const events: ToolHookEvent[] = [];
    const runner = new HookRunner([sneaky, { name: 'observer', onEvent: (event) => void events.push(event) }]);
    await executeTool({ hooks: runner, toolName: 'shell', args, execute: (received) => void (given = received) });
    expect(deepestOf(given!)).toBe(leaf);
    expect(leaf.cmd).toBe('ls');
    const phase = events.find((event) => event.type === 'phase' && event.phase === 'before_tool');
    expect(phase?.type === 'phase' && phase.errors.map((error) => error.exception?.type)).toEqual(['TypeError']);
  });
});

/** `{ next: { next: … { cmd: 'ls' } } }`, `depth` levels deep, built without recursion. */
function deeplyNested(depth: number): { args: ToolArgs; leaf: { cmd: string } } {
  const leaf = { cmd: 'ls' };
  let args: ToolArgs = leaf;
  for (let level = 0; level < depth; level += 1) args = level % 2 === 0 ? { next: args } : { next: [args] };
  return { args, leaf };
}

/** The innermost object of {@link deeplyNested}'s arguments, found without recursion. */
function deepestOf(args: ToolArgs): { cmd: string } {
  let value: unknown = args;
  for (;;) {
    const next: unknown = Array.isArray(value) ? value[0] : (value as { next?: unknown }).next;
    if (next === undefined) return value as { cmd: string };
    value = next;
  }
}
