/**
 * Every flow takes `signal?: AbortSignal`; given one that is already aborted, a flow runs no hook and no
 * tool and rejects with the signal's reason.
 */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { CompoundTool, HookRunner, executeTool, runPlan, runWithRetry } from '../../../src/index.js';

function setup(): { hooks: HookRunner; ran: string[] } {
  const ran: string[] = [];
  const hook: ToolHook = {
    name: 'watch',
    beforeTool: () => void ran.push('beforeTool'),
    afterTool: () => void ran.push('afterTool'),
    onError: () => void ran.push('onError'),
  };
  return { hooks: new HookRunner([hook]), ran };
}

function aborted(): { signal: AbortSignal; reason: Error } {
  const controller = new AbortController();
  const reason = new Error('the user left');
  controller.abort(reason);
  return { signal: controller.signal, reason };
}

describe('a flow given an already-aborted signal', () => {
  it('executeTool runs no hook and no tool and rejects with the reason', async () => {
    const { hooks, ran } = setup();
    const { signal, reason } = aborted();
    await expect(executeTool({ hooks, toolName: 't', args: {}, signal, execute: () => void ran.push('tool') })).rejects.toBe(reason);
    expect(ran).toEqual([]);
  });

  it('runWithRetry', async () => {
    const { hooks, ran } = setup();
    const { signal, reason } = aborted();
    const operation = (): string => {
      ran.push('tool');
      return 'x';
    };
    await expect(runWithRetry(operation, { hooks, toolName: 't', args: {}, note: 'n', signal })).rejects.toBe(reason);
    expect(ran).toEqual([]);
  });

  it('CompoundTool.run (neither the agent nor the executor runs)', async () => {
    const { hooks, ran } = setup();
    const { signal, reason } = aborted();
    const compound = new CompoundTool({ hooks, name: 'c', agent: { run: () => void ran.push('agent') }, executor: () => void ran.push('tool') });
    await expect(compound.run(undefined, 'prompt', { signal })).rejects.toBe(reason);
    expect(ran).toEqual([]);
  });

  it('runPlan (no subtask runs)', async () => {
    const { hooks, ran } = setup();
    const { signal, reason } = aborted();
    await expect(runPlan([{ name: 'a', prompt: 'p' }], { hooks, signal, runSubtask: () => void ran.push('tool') })).rejects.toBe(reason);
    expect(ran).toEqual([]);
  });

  it('a signal aborted without a reason rejects with the AbortError DOMException', async () => {
    const { hooks } = setup();
    const controller = new AbortController();
    controller.abort();
    await expect(executeTool({ hooks, toolName: 't', args: {}, signal: controller.signal, execute: () => 1 })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a signal that is not aborted changes nothing, and hooks see it', async () => {
    const controller = new AbortController();
    const seen: AbortSignal[] = [];
    const hooks = new HookRunner([{ beforeTool: (_tool, _args, _state, ctx) => void seen.push(ctx.signal) }]);
    await expect(runWithRetry(() => 'ok', { hooks, toolName: 't', args: {}, note: 'n', signal: controller.signal })).resolves.toBe('ok');
    controller.abort();
    expect(seen[0]?.aborted).toBe(true);
  });
});
