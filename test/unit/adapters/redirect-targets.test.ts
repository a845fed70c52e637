/** An adapter's Redirect targets: looked up by name when a hook names one, never listed per call. */
import { describe, expect, it, vi } from 'vitest';
import { redirectTargetsAmong, redirectTargetsSharing } from '../../../src/adapters/redirect-targets.js';

describe('redirectTargetsAmong', () => {
  it('knows the wrapped tools by name, and runs the named one through its own executor', () => {
    const tools = new Map([['search', { run: async (): Promise<string> => 'found' }]]);
    const executorOf = vi.fn((tool: { run: () => Promise<string> }) => tool.run);
    const targets = redirectTargetsAmong(tools, executorOf);
    expect([targets.isRedirectTarget('search'), targets.isRedirectTarget('rm')]).toEqual([true, false]);
    expect(executorOf).not.toHaveBeenCalled();
    expect(targets.redirectExecutor('search')).toBe(tools.get('search')?.run);
    expect(targets.redirectExecutor('rm')).toBeUndefined();
  });
});

describe('redirectTargetsSharing', () => {
  it("knows the agent's other tools, not the tool itself, and lists the names once", () => {
    const names = vi.fn(() => ['search', 'fetch', 'shell']);
    const executor = async (): Promise<string> => 'ran';
    const targets = redirectTargetsSharing('shell', names, executor);
    expect(names).not.toHaveBeenCalled();
    expect([targets.isRedirectTarget('search'), targets.isRedirectTarget('shell'), targets.isRedirectTarget('rm')]).toEqual([true, false, false]);
    expect(targets.redirectExecutor('fetch')).toBe(executor);
    expect(targets.redirectExecutor('rm')).toBeUndefined();
    expect(names).toHaveBeenCalledOnce();
  });
});
