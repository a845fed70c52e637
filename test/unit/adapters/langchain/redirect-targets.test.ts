/** LearnedRedirectTargets: which agent's tools a tool call may be redirected to, remembered per tool call id. */
import { AIMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { LearnedRedirectTargets } from '../../../../src/adapters/langchain/redirect-targets.js';

const tool = (name: string) => ({ name, invoke: async () => name });

describe('LearnedRedirectTargets', () => {
  it("gives each tool call the tools of the model call that asked for it, and forgets them when it is over", () => {
    const learned = new LearnedRedirectTargets();
    learned.learn([tool('lookup'), tool('delete_user'), { name: 'no-invoke' }, null], new AIMessage({ content: '', tool_calls: [{ id: 'a1', name: 'lookup', args: {} }] }));
    learned.learn([tool('lookup')], new AIMessage({ content: '', tool_calls: [{ id: 'p1', name: 'lookup', args: {} }] }));
    expect([...learned.of('a1', {}).keys()]).toEqual(['lookup', 'delete_user']);
    expect([...learned.of('p1', {}).keys()]).toEqual(['lookup']);
    expect(learned.of('unknown', {}).size).toBe(0);
    expect(learned.of(undefined, {}).size).toBe(0);
    learned.forget('a1', {});
    learned.forget(undefined, {});
    expect(learned.of('a1', {}).size).toBe(0);
  });

  it('two agents whose models number their calls alike: told apart by the arguments, and with those alike too, only the tools both offered', () => {
    const learned = new LearnedRedirectTargets();
    const lookup = tool('lookup');
    const admin = [lookup, tool('delete_user')];
    const publicTools = [lookup, tool('search')];
    learned.learn(admin, new AIMessage({ content: '', tool_calls: [{ id: 'call_0', name: 'lookup', args: { user: 'ann' } }] }));
    learned.learn(publicTools, new AIMessage({ content: '', tool_calls: [{ id: 'call_0', name: 'lookup', args: { user: 'bob' } }] }));
    expect([...learned.of('call_0', { user: 'bob' }).keys()]).toEqual(['lookup', 'search']);
    expect([...learned.of('call_0', { user: 'ann' }).keys()]).toEqual(['lookup', 'delete_user']);
    // The same id and the same arguments from both agents: never one agent's own tools.
    learned.learn(publicTools, new AIMessage({ content: '', tool_calls: [{ id: 'call_0', name: 'lookup', args: { user: 'ann' } }] }));
    expect([...learned.of('call_0', { user: 'ann' }).keys()]).toEqual(['lookup']);
    // Each call over forgets its own entry.
    learned.forget('call_0', { user: 'bob' });
    learned.forget('call_0', { user: 'ann' });
    expect([...learned.of('call_0', { user: 'ann' }).keys()]).toEqual(['lookup', 'search']);
    learned.forget('call_0', { user: 'ann' });
    expect(learned.of('call_0', { user: 'ann' }).size).toBe(0);
  });

  it('learns nothing from a response that is not an AIMessage, has no tool calls, or calls without ids', () => {
    const learned = new LearnedRedirectTargets();
    learned.learn([tool('x')], { lg_name: 'Command' });
    learned.learn([tool('x')], new AIMessage('just text'));
    learned.learn([tool('x')], new AIMessage({ content: '', tool_calls: [{ name: 'x', args: {} }] }));
    expect(learned.of('x', {}).size).toBe(0);
  });

  it('remembers at most 10,000 calls: the oldest (calls that never ran) are forgotten first', () => {
    const learned = new LearnedRedirectTargets();
    for (let i = 0; i <= 10_000; i += 1) learned.learn([tool('t')], new AIMessage({ content: '', tool_calls: [{ id: `c${i}`, name: 't', args: {} }] }));
    expect(learned.of('c0', {}).size).toBe(0);
    expect(learned.of('c1', {}).size).toBe(1);
    expect(learned.of('c10000', {}).size).toBe(1);
  });
});
