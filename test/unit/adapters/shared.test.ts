/** What every framework adapter checks and converts the same way: the runner, its options, values as text. */
import { describe, expect, it, vi } from 'vitest';
import { HookRunner } from '../../../src/index.js';
import { isAsyncIterable, readLimits, redirectTargetsAmong, redirectTargetsSharing, requireOptionsObject, requireRunner, toText } from '../../../src/adapters/shared.js';

describe('requireRunner', () => {
  it('accepts a HookRunner and names runner in what it rejects', () => {
    expect(requireRunner(new HookRunner([]), 'withHooks')).toBeDefined();
    expect(() => requireRunner([], 'withHooks')).toThrow("withHooks: runner must be a HookRunner (new HookRunner([...hooks]) from 'toolhooks'), got an array");
    expect(() => requireRunner(undefined, 'withMcpHooks')).toThrow(/withMcpHooks: runner must be a HookRunner .* got undefined/);
  });
});

describe('readLimits and requireOptionsObject', () => {
  it('defaults maxRetries and maxReexecutions to 1 and names a bad one', () => {
    expect(readLimits({}, 'withHooks')).toEqual({ maxRetries: 1, maxReexecutions: 1 });
    expect(readLimits({ maxRetries: 3, maxReexecutions: 0 }, 'withHooks')).toEqual({ maxRetries: 3, maxReexecutions: 0 });
    expect(() => readLimits({ maxRetries: -1 }, 'withHooks')).toThrow(/withHooks: options\.maxRetries/);
    expect(() => readLimits({ maxReexecutions: '2' }, 'withHooks')).toThrow(/withHooks: options\.maxReexecutions/);
  });

  it('takes no options or an object, and rejects an unknown option by name', () => {
    expect(requireOptionsObject(undefined, 'withHooks', ['agentName'])).toEqual({});
    expect(requireOptionsObject({ agentName: 'bot' }, 'withHooks', ['agentName'])).toEqual({ agentName: 'bot' });
    expect(() => requireOptionsObject([], 'withHooks', ['agentName'])).toThrow('withHooks: options must be an object, got an array');
    expect(() => requireOptionsObject({ agentNme: 'bot' }, 'withHooks', ['agentName'])).toThrow(/agentName/);
  });
});

describe('toText', () => {
  it('gives strings as they are and anything else as JSON, never throwing', () => {
    expect(toText('plain')).toBe('plain');
    expect(toText(undefined)).toBe('');
    expect(toText({ a: 1 })).toBe('{"a":1}');
    expect(toText(10n)).toBe('10');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(toText(cyclic)).toBe('[object Object]');
    expect(toText(Object.create(null))).toBe('{}');
  });
});

describe('isAsyncIterable', () => {
  it('recognises async iterables only', () => {
    async function* stream(): AsyncGenerator<number> {
      yield 1;
    }
    expect([isAsyncIterable(stream()), isAsyncIterable([1]), isAsyncIterable(null), isAsyncIterable('text')]).toEqual([true, false, false, false]);
  });
});

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
