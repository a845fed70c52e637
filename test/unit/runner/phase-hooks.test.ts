/** Which hooks a phase runs for a tool: by the methods they have and by their matchers, in order. */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/hook.js';
import { createHookEntry } from '../../../src/runner/hook-entry.js';
import { PhaseHooks } from '../../../src/runner/phase-hooks.js';

function phaseHooks(hooks: ToolHook[]): PhaseHooks<unknown> {
  return new PhaseHooks(hooks.map((hook, index) => createHookEntry(hook, index, { timeoutMs: 0, failureMode: 'open' })));
}
const names = (matched: { entries: readonly { name: string }[] }): string[] => matched.entries.map((entry) => entry.name);

describe('PhaseHooks', () => {
  it('knows which phases have hooks', () => {
    const hooks = phaseHooks([{ name: 'gate', beforeTool: () => undefined }, { name: 'log', onEvent: () => undefined }]);
    expect([hooks.has('before_tool'), hooks.has('after_tool'), hooks.has('on_error')]).toEqual([true, false, false]);
    expect(names(hooks.match('after_tool', 'shell'))).toEqual([]);
  });

  it('matches the hooks whose matcher accepts the tool, in the order they were given', () => {
    const hooks = phaseHooks([
      { name: 'shell-only', tools: ['shell'], beforeTool: () => undefined },
      { name: 'all', beforeTool: () => undefined },
      { name: 'search-only', tools: ['search'], beforeTool: () => undefined },
    ]);
    expect(names(hooks.match('before_tool', 'shell'))).toEqual(['shell-only', 'all']);
    expect(names(hooks.match('before_tool', 'search'))).toEqual(['all', 'search-only']);
  });

  it('counts a matcher that throws as applying, and keeps what it threw', () => {
    const bug = new Error('matcher bug');
    const hooks = phaseHooks([{ name: 'gate', tools: () => { throw bug; }, beforeTool: () => undefined }]);
    const matched = hooks.match('before_tool', 'shell');
    expect(names(matched)).toEqual(['gate']);
    expect([...(matched.matcherErrors?.values() ?? [])]).toEqual([bug]);
  });

  it('tells whether an enforce-mode hook is among the matched ones', () => {
    const hooks = phaseHooks([{ name: 'shadow', mode: 'audit', beforeTool: () => undefined }, { name: 'gate', tools: ['shell'], beforeTool: () => undefined }]);
    expect(hooks.match('before_tool', 'search').enforced).toBe(false);
    expect(hooks.match('before_tool', 'shell').enforced).toBe(true);
    const all = phaseHooks([{ name: 'shadow', mode: 'audit', beforeTool: () => undefined }]);
    expect(all.match('before_tool', 'shell').enforced).toBe(false);
    expect(phaseHooks([{ name: 'gate', beforeTool: () => undefined }]).match('before_tool', 'shell').enforced).toBe(true);
  });
});
