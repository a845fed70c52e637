/**
 * What the runner resolves about each hook when it is registered: its name, timeout, failure mode, mode
 * and tool matcher — and a TypeError naming the hook and the fix for every wiring mistake.
 */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/hook.js';
import { checkFailureMode, checkTimeout, createHookEntry } from '../../../src/runner/hook-entry.js';

const defaults = { timeoutMs: 30_000, failureMode: 'open' } as const;
const before = (): undefined => undefined;
const entry = (hook: unknown, index = 0) => createHookEntry(hook as ToolHook, index, defaults);

describe('createHookEntry', () => {
  it('takes the runner defaults unless the hook sets its own', () => {
    expect(entry({ name: 'a', beforeTool: before })).toMatchObject({ name: 'a', timeoutMs: 30_000, failureMode: 'open', mode: 'enforce', matches: undefined });
    expect(entry({ name: 'b', beforeTool: before, timeoutMs: 0, failureMode: 'closed', mode: 'audit' })).toMatchObject({
      timeoutMs: 0,
      failureMode: 'closed',
      mode: 'audit',
    });
  });

  it("names a hook by its name, else its class, else its position", () => {
    class Policy {
      beforeTool(): undefined {
        return undefined;
      }
    }
    expect(entry(new Policy()).name).toBe('Policy');
    expect(entry({ beforeTool: before }, 3).name).toBe('hook#3');
    expect(() => entry({ name: '', beforeTool: before })).toThrow('HookRunner: hook at index 0: name must be a non-empty string, got string');
  });

  it('matches tools by a list of names, a RegExp (g flag or not) or a predicate', () => {
    const list = entry({ beforeTool: before, tools: ['shell', 'fetch'] }).matches;
    expect([list?.('shell'), list?.('search')]).toEqual([true, false]);
    const pattern = entry({ beforeTool: before, tools: /^fs_/g }).matches;
    expect([pattern?.('fs_read'), pattern?.('fs_read'), pattern?.('net')]).toEqual([true, true, false]);
    const predicate = entry({ beforeTool: before, tools: (name: string) => name.length > 4 }).matches;
    expect([predicate?.('search'), predicate?.('ls')]).toEqual([true, false]);
  });

  it('rejects a hook that is not an object, or that has no method to run', () => {
    expect(() => entry(null, 2)).toThrow(/hook at index 2 must be an object .* got null/);
    expect(() => entry({ name: 'idle' })).toThrow('HookRunner: hook "idle" (index 0): a hook needs at least one of beforeTool, afterTool, onError or onEvent; this one would never run');
  });

  it('rejects a method that is not a function, and a misspelt member with the one meant', () => {
    expect(() => entry({ name: 'p', beforeTool: 'deny' })).toThrow('HookRunner: hook "p" (index 0): beforeTool must be a function, got string');
    expect(() => entry({ name: 'p', preToolUse: before })).toThrow('HookRunner: hook "p" (index 0): unknown member "preToolUse"; did you mean "beforeTool"?');
  });

  it('rejects a bad mode, tools, timeout or failure mode, quoting the value', () => {
    expect(() => entry({ name: 'p', beforeTool: before, mode: 'shadow' })).toThrow(`HookRunner: hook "p" (index 0): mode must be 'enforce' or 'audit', got "shadow"`);
    expect(() => entry({ name: 'p', beforeTool: before, tools: 'shell' })).toThrow(/tools must be an array of names, a RegExp or a predicate, got string/);
    expect(() => entry({ name: 'p', beforeTool: before, tools: ['shell', 1] })).toThrow(/tools must hold tool names \(strings\), got number/);
    expect(() => entry({ name: 'p', beforeTool: before, timeoutMs: -1 })).toThrow(RangeError);
    expect(() => entry({ name: 'p', beforeTool: before, failureMode: 'fail' })).toThrow(/failureMode/);
  });
});

describe('checkTimeout and checkFailureMode', () => {
  it('accept what the docs allow and name the option in what they reject', () => {
    expect(checkTimeout(0, 'timeoutMs')).toBe(0);
    expect(checkTimeout(5000, 'timeoutMs')).toBe(5000);
    expect(() => checkTimeout('5000', 'timeoutMs')).toThrow(/timeoutMs.*the string "5000"/);
    expect(checkFailureMode('closed', 'failureMode')).toBe('closed');
    expect(() => checkFailureMode('closd', 'failureMode')).toThrow(/failureMode.*closd/);
  });
});
