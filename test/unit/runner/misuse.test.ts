/**
 * The common wiring mistakes fail at construction with a TypeError naming the mistake and the fix,
 * instead of registering nothing (a fail-closed gate silently off).
 */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { CompoundTool, HookRunner, abort, executeTool, redirect, runPlan, runWithRetry } from '../../../src/index.js';

const policy = { name: 'policy', failureMode: 'closed' as const, beforeTool: () => abort('never') };

/** Calls `build` with a deliberately wrong argument (what a JavaScript user or an `as` cast would pass). */
function construct(argument: unknown): HookRunner {
  return new HookRunner(argument as ToolHook[]);
}

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError, nothing was thrown');
}

describe('a hook where the runner expects an array or options', () => {
  it('new HookRunner(policy) names the fix with the hook name', () => {
    const message = messageOf(() => construct(policy));
    expect(message).toContain('pass [policy] or { hooks: [policy] }');
  });

  it('a hook whose name is not an identifier is called "hook" in the fix', () => {
    const message = messageOf(() => construct({ name: 'rate limit', beforeTool: () => undefined }));
    expect(message).toContain('pass [hook] or { hooks: [hook] }');
  });

  it('a class instance passed alone is caught too', () => {
    class Gate {
      beforeTool(): undefined {
        return undefined;
      }
    }
    expect(messageOf(() => construct(new Gate()))).toContain('{ hooks: [');
  });

  it('new HookRunner({ policy }) names the variable and the fix', () => {
    const message = messageOf(() => construct({ policy }));
    expect(message).toContain('"policy"');
    expect(message).toContain('{ hooks: [policy] }');
  });

  it('a non-object argument is a TypeError', () => {
    expect(messageOf(() => construct('policy'))).toMatch(/array of hooks or an options object/);
  });
});

describe('unknown runner options', () => {
  it('timeout suggests timeoutMs', () => {
    const message = messageOf(() => construct({ hooks: [policy], timeout: 5_000 }));
    expect(message).toContain('"timeout"');
    expect(message).toContain('"timeoutMs"');
  });

  it('a near spelling suggests the option (failuremode → failureMode)', () => {
    expect(messageOf(() => construct({ hooks: [policy], failuremode: 'closed' }))).toContain('"failureMode"');
  });

  it('an unrelated name lists the options', () => {
    expect(messageOf(() => construct({ hooks: [policy], colour: 'red' }))).toMatch(/the options are hooks, tracer, timeoutMs/);
  });

  it('a runner-level mode is rejected with a pointer to failureMode or the hook\'s own mode', () => {
    expect(messageOf(() => construct({ hooks: [policy], mode: 'audit' }))).toContain('failureMode');
  });

  it('agentName that is not a string is a TypeError naming it', () => {
    expect(messageOf(() => construct({ hooks: [policy], agentName: 42 }))).toMatch(/agentName must be a string, got/);
  });

  it('the correct forms are accepted', () => {
    expect(() => new HookRunner([policy])).not.toThrow();
    expect(() => new HookRunner({ hooks: [policy], timeoutMs: 100, failureMode: 'closed', agentName: 'bot' })).not.toThrow();
    expect(() => new HookRunner()).not.toThrow();
  });
});

describe('hook members', () => {
  const nearMisses: [member: string, hook: Record<string, unknown>, meant: string][] = [
    ['tool', { tool: ['shell'], beforeTool: () => undefined }, 'tools'],
    ['beforeToolCall', { beforeToolCall: () => undefined }, 'beforeTool'],
    ['before_tool', { before_tool: () => undefined }, 'beforeTool'],
    ['afterToolCall', { afterToolCall: () => undefined }, 'afterTool'],
    ['timeout', { timeout: 10, beforeTool: () => undefined }, 'timeoutMs'],
  ];
  it.each(nearMisses)('%s names the member it was meant as', (member, hook, meant) => {
    const message = messageOf(() => new HookRunner([hook as unknown as ToolHook]));
    expect(message).toContain(`unknown member "${member}"`);
    expect(message).toContain(`did you mean "${meant}"?`);
  });

  // Misspellings are found by case and edit distance (ignoring case, '_' and '-'), not from a fixed list.
  const misspelt: [member: string, hook: Record<string, unknown>, meant: string][] = [
    ['beforetool', { name: 'gate', failureMode: 'closed', beforetool: () => abort('x'), onEvent: () => undefined }, 'beforeTool'],
    ['onerror', { onerror: () => undefined, onEvent: () => undefined }, 'onError'],
    ['afterTools', { afterTools: () => undefined, onEvent: () => undefined }, 'afterTool'],
    ['before-tool', { 'before-tool': () => undefined, onEvent: () => undefined }, 'beforeTool'],
    ['befortool', { befortool: () => undefined, onEvent: () => undefined }, 'beforeTool'],
    ['onEvnt', { onEvnt: () => undefined, beforeTool: () => undefined }, 'onEvent'],
    ['timeoutMS', { timeoutMS: 5_000, beforeTool: () => undefined }, 'timeoutMs'],
    ['failuremode', { failuremode: 'closed', beforeTool: () => undefined }, 'failureMode'],
    ['failure_mode', { failure_mode: 'closed', beforeTool: () => undefined }, 'failureMode'],
    ['Tools', { Tools: ['x'], beforeTool: () => undefined }, 'tools'],
    ['toolz', { toolz: /x/, beforeTool: () => undefined }, 'tools'],
    ['Mode', { Mode: 'audit', beforeTool: () => undefined }, 'mode'],
  ];
  it.each(misspelt)('%s is caught by edit distance and names the member meant', (member, hook, meant) => {
    const message = messageOf(() => new HookRunner([hook as unknown as ToolHook]));
    expect(message).toContain(`unknown member "${member}"`);
    expect(message).toContain(`did you mean "${meant}"?`);
  });

  it('the fail-closed gate spelt beforetool fails at construction, before any tool can run', () => {
    const gate = { name: 'gate', failureMode: 'closed', beforetool: () => abort('x'), onEvent() {} };
    expect(() => new HookRunner([gate as unknown as ToolHook])).toThrow(/hook "gate" \(index 0\): unknown member "beforetool"; did you mean "beforeTool"\?/);
  });

  it('a misspelt method inherited from a class prototype is caught', () => {
    class Gate {
      beforetool(): undefined {
        return undefined;
      }
      onEvent(): void {}
    }
    expect(messageOf(() => new HookRunner([new Gate() as unknown as ToolHook]))).toContain('did you mean "beforeTool"?');
  });

  // A hook may hold any state: a member is rejected only when its value would be valid for what it is near.
  it('a class hook with its own tool field (a redirect target) is valid', async () => {
    class Reroute implements ToolHook {
      constructor(private tool: string) {}
      beforeTool(toolName: string) {
        return toolName === this.tool ? undefined : redirect({ newTool: this.tool });
      }
    }
    const runner = new HookRunner([new Reroute('sandbox')]);
    const result = await executeTool({ hooks: runner, toolName: 'shell', args: {}, execute: () => 'shell', tools: { sandbox: () => 'sandbox' } });
    expect(result).toBe('sandbox');
  });

  const stateful: [member: string, value: unknown][] = [
    ['tool', 'sandbox'],
    ['Tools', 3],
    ['timeout', 'soon'],
    ['timeoutMS', -1],
    ['failuremode', 'sometimes'],
    ['Mode', 7],
    ['nome', 'not name'],
    ['names', ['a', 'b']],
    ['beforetool', 'a string, not a method'],
    ['onerror', 0],
    ['model', 'gpt'],
    ['tools2', 'x'],
  ];
  it.each(stateful)('a member %s holding %j is state of its own, not a misspelling', (member, value) => {
    const hook = { [member]: value, beforeTool: () => undefined } as unknown as ToolHook;
    expect(() => new HookRunner([hook])).not.toThrow();
  });

  it('helper methods far from every hook method are accepted', () => {
    const hook = { beforeTool: () => undefined, toolFor: () => 'x', describe: () => 'd', before: () => 1, onErrorLogged: () => 2 };
    expect(() => new HookRunner([hook as ToolHook])).not.toThrow();
  });

  it('a near miss inherited from a class prototype is caught', () => {
    class Gate {
      beforeToolCall(): undefined {
        return undefined;
      }
    }
    expect(messageOf(() => new HookRunner([new Gate() as ToolHook]))).toContain('"beforeTool"');
  });

  it('a hook with none of the methods is a TypeError saying it would never run', () => {
    const message = messageOf(() => new HookRunner([{ name: 'empty' }]));
    expect(message).toContain('"empty"');
    expect(message).toMatch(/at least one of beforeTool, afterTool, onError or onEvent/);
  });

  it('a method that is not a function is a TypeError naming it', () => {
    expect(messageOf(() => new HookRunner([{ beforeTool: 'deny' } as unknown as ToolHook]))).toMatch(/beforeTool must be a function/);
  });

  it('a bad mode is a TypeError naming the values', () => {
    const message = messageOf(() => new HookRunner([{ name: 'm', mode: 'dry-run', beforeTool: () => undefined } as unknown as ToolHook]));
    expect(message).toMatch(/mode must be 'enforce' or 'audit', got "dry-run"/);
  });

  it('class-instance hooks with their own helper methods and fields are accepted', async () => {
    class Policy implements ToolHook {
      readonly name = 'Policy';
      readonly denied = new Set(['rm']);
      isDenied(tool: string): boolean {
        return this.denied.has(tool);
      }
      describe(): string {
        return 'denies rm';
      }
      beforeTool(toolName: string) {
        return this.isDenied(toolName) ? abort('denied') : undefined;
      }
    }
    const runner = new HookRunner([new Policy()]);
    await expect(executeTool({ hooks: runner, toolName: 'rm', args: {}, execute: () => 'ran' })).rejects.toThrow('denied');
    await expect(executeTool({ hooks: runner, toolName: 'ls', args: {}, execute: () => 'ran' })).resolves.toBe('ran');
  });

  it('audit mode is accepted', () => {
    expect(() => new HookRunner([{ mode: 'audit', beforeTool: () => undefined }])).not.toThrow();
  });
});

describe('flow options', () => {
  const hooks = new HookRunner([policy]);
  const wrong = (options: Record<string, unknown>): Promise<unknown> =>
    executeTool({ hooks, toolName: 'x', args: {}, execute: () => 'ran', ...options } as Parameters<typeof executeTool>[0]);

  it('executeTool rejects an unknown option with a TypeError suggesting the right one', async () => {
    const rejection = executeTool({ hooks, toolname: 'x', args: {}, execute: () => 'ran' } as unknown as Parameters<typeof executeTool>[0]);
    await expect(rejection).rejects.toBeInstanceOf(TypeError);
    await expect(rejection).rejects.toThrow(/unknown option "toolname"; did you mean "toolName"\?/);
  });

  it('executeTool timeout is rejected (timeouts belong to the runner or the hook)', async () => {
    await expect(wrong({ timeout: 5 })).rejects.toThrow(/unknown option "timeout"/);
  });

  it('agentName / toolDescription that are not strings are TypeErrors naming them', async () => {
    await expect(wrong({ agentName: 7 })).rejects.toThrow(TypeError);
    await expect(wrong({ agentName: 7 })).rejects.toThrow(/agentName must be a string/);
    await expect(wrong({ toolDescription: { text: 'x' } })).rejects.toThrow(/toolDescription must be a string/);
  });

  it('the tool never runs when the options are wrong', async () => {
    let ran = false;
    await expect(
      executeTool({ hooks, toolName: 'x', args: {}, execute: () => (ran = true), retries: 2 } as unknown as Parameters<typeof executeTool>[0]),
    ).rejects.toThrow(TypeError);
    expect(ran).toBe(false);
  });

  it('runWithRetry, runPlan and CompoundTool reject unknown options too', async () => {
    const noHooks = new HookRunner();
    const retry = runWithRetry(() => 'sql', { hooks: noHooks, toolName: 'x', args: {}, note: 'n', maxAttempt: 2 } as unknown as Parameters<typeof runWithRetry>[1]);
    await expect(retry).rejects.toBeInstanceOf(TypeError);
    await expect(retry).rejects.toThrow(/unknown option "maxAttempt"; did you mean "maxAttempts"\?/);
    const plan = runPlan([], { hooks: noHooks, runSubtask: () => 'ok', subtask: {} } as unknown as Parameters<typeof runPlan>[1]);
    await expect(plan).rejects.toThrow(/runPlan: unknown option "subtask"/);
    expect(
      () => new CompoundTool({ hooks: noHooks, name: 'c', agent: { run: () => 'x' }, executor: () => 'y', toolName: 'c' } as unknown as ConstructorParameters<typeof CompoundTool>[0]),
    ).toThrow(/CompoundTool: unknown option "toolName"/);
  });
});
