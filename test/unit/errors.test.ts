/** The errors a failed hook reaches users with are exported classes: `instanceof` works. */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../src/index.js';
import {
  HookAbortError,
  HookRunner,
  HookTimeoutError,
  InvalidHookDecisionError,
  InvalidRedirectTargetError,
  executeTool,
} from '../../src/index.js';

describe('the errors a failed hook reaches users with', () => {
  it('are exported classes, tested with instanceof', async () => {
    const failures: unknown[] = [];
    const observer: ToolHook = { name: 'obs', onEvent: (event) => void (event.type === 'phase' && failures.push(...event.errors.map((f) => f.error))) };
    const hooks = new HookRunner({
      timeoutMs: 20,
      hooks: [
        { name: 'slow', beforeTool: () => new Promise(() => undefined) },
        { name: 'junk', beforeTool: () => 'abort' as never },
        { name: 'lost', beforeTool: () => ({ kind: 'redirect', newTool: 'nowhere', reason: '' }) as never },
        observer,
      ],
    });
    await executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 'ran' });
    expect(failures[0]).toBeInstanceOf(HookTimeoutError);
    expect((failures[0] as HookTimeoutError).timeoutMs).toBe(20);
    expect(failures[1]).toBeInstanceOf(InvalidHookDecisionError);
    expect(failures[2]).toBeInstanceOf(InvalidRedirectTargetError);
    expect((failures[2] as InvalidRedirectTargetError).target).toBe('nowhere');
    const closed = new HookRunner({ timeoutMs: 20, failureMode: 'closed', hooks: [{ name: 'slow', beforeTool: () => new Promise(() => undefined) }] });
    const error = await executeTool({ hooks: closed, toolName: 'shell', args: {}, execute: () => 'ran' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookAbortError);
    expect((error as HookAbortError).cause).toBeInstanceOf(HookTimeoutError);
  });
});

describe('instanceof on the error classes', () => {
  it('holds for instances and subclasses, not for other errors or look-alikes', () => {
    class Mine extends HookAbortError {}
    expect(new HookAbortError('x')).toBeInstanceOf(HookAbortError);
    expect(new Mine('x')).toBeInstanceOf(HookAbortError);
    expect(new Mine('x')).toBeInstanceOf(Error);
    expect(new HookAbortError('x') instanceof Mine).toBe(false);
    expect(new Error('x') instanceof HookAbortError).toBe(false);
    expect({ name: 'HookAbortError', reason: 'x' } instanceof HookAbortError).toBe(false);
    expect(new HookTimeoutError(1) instanceof HookAbortError).toBe(false);
  });

  it('never throws, even for a Proxy whose traps throw', () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf() {
          throw new Error('trap');
        },
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(hostile instanceof HookAbortError).toBe(false);
    expect(hostile instanceof InvalidRedirectTargetError).toBe(false);
  });
});
