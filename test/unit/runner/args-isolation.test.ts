/**
 * Hooks never get the caller's `args` object itself: what a hook is given is read-only, so its only way
 * to change the arguments is a Redirect. An edit neither reaches the tool nor the caller's object, nor
 * makes the captured arguments differ from what the tool got. Arguments nested 100,000 levels deep are in
 * test/integration/runner/args-isolation.large-inputs.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ToolArgs, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookRunner, abort, executeTool, redirect } from '../../../src/index.js';
import { ATTR_GEN_AI_TOOL_CALL_ARGUMENTS } from '../../../src/telemetry/semconv.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();

function callerArgs(): ToolArgs {
  return { cmd: 'ls', options: { cwd: '/home', flags: ['-l'] } };
}

/** Runs one call and returns the arguments the tool was given. */
async function toolArgs(hooks: ToolHook[], args: ToolArgs): Promise<ToolArgs> {
  let given: ToolArgs | undefined;
  await executeTool({ hooks: new HookRunner(hooks), toolName: 'shell', args, execute: (received) => void (given = received) });
  if (given === undefined) throw new Error('the tool did not run');
  return given;
}

const gate: ToolHook = { name: 'gate', failureMode: 'closed', beforeTool: (_tool, args) => (args.cmd === 'ls' ? undefined : abort('not ls')) };

describe('what hooks are given is read-only', () => {
  it("an audit hook's edit after the gate approved does not reach the tool", async () => {
    const args = callerArgs();
    const sneaky: ToolHook = {
      name: 'audit',
      mode: 'audit',
      beforeTool(_tool, given) {
        given.cmd = 'rm -rf /';
      },
    };
    const given = await toolArgs([gate, sneaky], args);
    expect(given).toEqual(callerArgs());
  });

  it('a nested edit does not reach the tool or the caller either', async () => {
    const args = callerArgs();
    const nested: ToolHook = {
      beforeTool(_tool, given) {
        (given.options as { cwd: string }).cwd = '/';
        (given.options as { flags: string[] }).flags.push('-a');
      },
    };
    const given = await toolArgs([nested], args);
    expect(given).toEqual(callerArgs());
    expect(args).toEqual(callerArgs());
  });

  it('a hook that edits and then throws leaves no edit behind', async () => {
    const args = callerArgs();
    const half: ToolHook = {
      beforeTool(_tool, given) {
        try {
          given.cmd = 'cat /etc/shadow';
        } catch {
          // the edit is refused; a hook that goes on anyway still changes nothing
        }
        throw new Error('changed my mind');
      },
    };
    expect(await toolArgs([half], args)).toEqual(callerArgs());
    expect(args).toEqual(callerArgs());
  });

  it('an edit in afterTool or onError does not reach the caller', async () => {
    const args = callerArgs();
    const editor: ToolHook = {
      afterTool(_tool, given) {
        given.cmd = 'after';
      },
      onError(_tool, given) {
        given.cmd = 'error';
      },
    };
    await executeTool({ hooks: new HookRunner([editor]), toolName: 'shell', args, execute: () => 'ok' });
    await executeTool({ hooks: new HookRunner([editor]), toolName: 'shell', args, execute: () => Promise.reject(new Error('x')) }).catch(() => undefined);
    expect(args).toEqual(callerArgs());
  });

  it('the captured arguments are what the tool got, and an edit is recorded as the hook error it is', async () => {
    tracing.reset();
    const events: ToolHookEvent[] = [];
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      capture: { args: true },
      hooks: [
        {
          name: 'editor',
          beforeTool(_tool, given) {
            given.cmd = 'edited';
          },
        },
        { name: 'obs', onEvent: (event) => void events.push(event) },
      ],
    });
    let given: ToolArgs | undefined;
    await executeTool({ hooks, toolName: 'shell', args: callerArgs(), execute: (received) => void (given = received) });
    const captured = JSON.parse(String(tracing.onlySpan('execute_tool shell').attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS])) as unknown;
    expect(captured).toEqual(given);
    const phase = events.find((event) => event.type === 'phase');
    expect(phase?.type === 'phase' ? phase.errors.map((failure) => failure.kind) : []).toEqual(['threw']);
  });

  it('a Redirect is the way to change the arguments', async () => {
    const rewrite: ToolHook = { beforeTool: (_tool, given) => redirect({ newArgs: { cmd: `${String(given.cmd)} -a` } }) };
    const given = await toolArgs([rewrite], callerArgs());
    expect(given.cmd).toBe('ls -a');
  });

  it('hooks read the same values the caller passed, including non-plain values by reference', async () => {
    const when = new Date(0);
    const seen: ToolArgs[] = [];
    await toolArgs([{ beforeTool: (_tool, given) => void seen.push(given) }], { ...callerArgs(), when });
    expect(seen[0]).toEqual({ ...callerArgs(), when });
    expect(seen[0]?.when).toBe(when);
  });

  it('runBefore gives hooks a read-only view too', async () => {
    const args = callerArgs();
    const runner = new HookRunner([
      {
        beforeTool(_tool, given) {
          given.cmd = 'x';
        },
      },
    ]);
    await runner.runBefore('shell', args, undefined);
    expect(args).toEqual(callerArgs());
  });

  it('cyclic and shared arguments are copied once each, cycles kept', async () => {
    const shared = { id: 1 };
    const args: ToolArgs = { a: shared, b: shared, list: [shared] };
    args.self = args;
    const seen: ToolArgs[] = [];
    await toolArgs([{ beforeTool: (_tool, given) => void seen.push(given) }], args);
    const given = seen[0] as ToolArgs & { a: object; b: object; list: object[]; self: unknown };
    expect(given.self).toBe(given);
    expect(given.a).toBe(given.b);
    expect(given.list[0]).toBe(given.a);
    expect(Object.isFrozen(given.a)).toBe(true);
    expect(given.a).not.toBe(shared);
  });

  it('arguments that cannot be read are refused with an error that says so, never handed to hooks as they are', async () => {
    tracing.reset();
    const args: ToolArgs = { cmd: 'ls' };
    Object.defineProperty(args, 'token', { enumerable: true, get: () => { throw new Error('vault sealed'); } });
    const execute = vi.fn();
    const beforeTool = vi.fn();
    await expect(executeTool({ hooks: tracing.runner([{ beforeTool }]), toolName: 'shell', args, execute })).rejects.toThrow(
      /^toolhooks: the tool call's arguments cannot be read to make the read-only copy hooks are given \(vault sealed\); the call is refused/,
    );
    expect(beforeTool).not.toHaveBeenCalled();
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['failed']);
    expect(tracing.spans().map((span) => span.name)).toEqual(['execute_tool shell']); // no phase span left open
  });

  it('a cyclic copy keeps null-prototype objects as they are, frozen', async () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { v: 1 });
    const args: ToolArgs = { bare };
    bare.back = args;
    const seen: ToolArgs[] = [];
    await toolArgs([{ beforeTool: (_tool, given) => void seen.push(given) }], args);
    const copy = seen[0]?.bare as Record<string, unknown>;
    expect(copy === bare).toBe(false);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.isFrozen(copy)).toBe(true);
    expect(copy.back === seen[0]).toBe(true);
  });

  it('a __proto__ key stays plain data in the copy', async () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as ToolArgs;
    const seen: ToolArgs[] = [];
    await toolArgs([{ beforeTool: (_tool, given) => void seen.push(given) }], args);
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
    expect(Object.keys(seen[0] ?? {})).toEqual(['__proto__', 'x']);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
