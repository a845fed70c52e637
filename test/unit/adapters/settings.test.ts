/** What every adapter checks the same way when it is built: the runner, its options, the approvals mode. */
import { describe, expect, it } from 'vitest';
import { HookRunner } from '../../../src/index.js';
import { adapterSettings, isHookRunner, readApprovalsMode, readLimits, requireOptionsObject, requireRunner } from '../../../src/adapters/settings.js';

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

describe('readApprovalsMode', () => {
  it('defaults to the runner, accepts the framework, and names the option for anything else', () => {
    expect(readApprovalsMode(undefined, 'withHooks')).toBe('runner');
    expect(readApprovalsMode('runner', 'withHooks')).toBe('runner');
    expect(readApprovalsMode('framework', 'withHooks')).toBe('framework');
    expect(() => readApprovalsMode('Framework', 'withHooks')).toThrow(new TypeError(`withHooks: options.approvals must be 'runner' or 'framework', got the string "Framework"`));
    expect(() => readApprovalsMode(true, 'withHooks')).toThrow(/options\.approvals must be 'runner' or 'framework', got true/);
  });
});

describe('isHookRunner and adapterSettings', () => {
  it('tells a runner passed as options apart, and reads the shared options once', () => {
    const runner = new HookRunner([]);
    expect([isHookRunner(runner, 'toolhooksPlugin'), isHookRunner({ state: 1 }, 'toolhooksPlugin')]).toEqual([true, false]);
    const core = requireRunner<{ user: string }>(runner, 'withHooks');
    expect(adapterSettings(core, { state: { user: 'ada' }, maxRetries: 2 }, 'withHooks', undefined)).toEqual({
      core,
      state: { user: 'ada' },
      limits: { maxRetries: 2, maxReexecutions: 1 },
      approvals: undefined,
    });
  });
});
