/**
 * Reading the HookRunner constructor argument and the run methods' arguments: a misspelt option or a
 * hook where the options belong is a TypeError that names the fix.
 */
import { describe, expect, it } from 'vitest';
import type { HookRunnerOptions } from '../../../src/runner/options.js';
import { checkRunCall, readRunnerOptions } from '../../../src/runner/options.js';

const policy = { name: 'policy', beforeTool: (): undefined => undefined };
const read = (value: unknown): HookRunnerOptions => readRunnerOptions(value as HookRunnerOptions);

describe('readRunnerOptions', () => {
  it('takes nothing, an array of hooks, or options, and returns the options as given (a checked copy, the caller’s object untouched)', () => {
    expect(read(undefined)).toEqual({});
    expect(read([policy])).toEqual({ hooks: [policy] });
    const options = { hooks: [policy], timeoutMs: 5000, failureMode: 'closed', agentName: 'bot' };
    const read1 = read(options);
    expect(read1).toEqual(options);
    expect(read1).not.toBe(options);
    expect(read1.hooks?.[0]).toBe(policy);
  });

  it('tells a user who passed one hook to wrap it in an array', () => {
    expect(() => read(policy)).toThrow('HookRunner: got a single hook where an array of hooks or an options object belongs; pass [policy] or { hooks: [policy] }');
  });

  it('tells a user who wrote { policy } to put it in hooks', () => {
    expect(() => read({ policy })).toThrow('HookRunner: option "policy" is a hook, not an option; pass { hooks: [policy] }');
  });

  it('rejects something that is neither, and a misspelt option with the one meant', () => {
    expect(() => read('hooks')).toThrow(/HookRunner takes an array of hooks or an options object .* got string/);
    expect(() => read({ timeout: 5000 })).toThrow(TypeError);
    expect(() => read({ timeout: 5000 })).toThrow(/timeoutMs/);
    expect(() => read({ failureMode: 'closd' })).toThrow(/failureMode/);
    expect(() => read({ agentName: 7 })).toThrow(/agentName/);
  });
});

describe('checkRunCall', () => {
  it('accepts a tool name, plain arguments and the documented per-call options', () => {
    expect(() => checkRunCall('before_tool', 'search', { q: 'x' }, { callId: 'c1', attempt: 2, signal: new AbortController().signal, knownTools: ['a'] })).not.toThrow();
    expect(() => checkRunCall('after_tool', 'search', Object.create(null), undefined)).not.toThrow();
  });

  it('names the method and the parameter in what it rejects', () => {
    expect(() => checkRunCall('before_tool', '', {}, undefined)).toThrow('HookRunner.runBefore: toolName must be a non-empty string, got an empty string');
    expect(() => checkRunCall('after_tool', 42, {}, undefined)).toThrow('HookRunner.runAfter: toolName must be a non-empty string, got number');
    expect(() => checkRunCall('on_error', 'search', ['x'], undefined)).toThrow('HookRunner.runError: args must be a plain object of tool arguments, got an array');
    expect(() => checkRunCall('before_tool', 'search', {}, { attempt: 0 })).toThrow(/HookRunner\.runBefore.*attempt/);
    expect(() => checkRunCall('before_tool', 'search', {}, { callid: 'c1' })).toThrow(/callId/);
  });
});
