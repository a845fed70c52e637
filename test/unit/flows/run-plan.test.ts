/**
 * runPlan: each subtask a tool call `meta:<name>` through the hooks.
 */
import { describe, expect, it } from 'vitest';
import type { ToolHookEvent } from '../../../src/index.js';
import { abort, redirect, runPlan } from '../../../src/index.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

const runner = tracing.runner;

describe('runPlan (Orqest meta subtask tests)', () => {
  it('runs every subtask through the hooks as meta:<name>, counting hook calls', async () => {
    const seen: string[] = [];
    const events: ToolHookEvent[] = [];
    const hooks = runner([
      { name: 'count', beforeTool: (tool) => void seen.push(`before:${tool}`), afterTool: (tool) => void seen.push(`after:${tool}`) },
      { name: 'obs', onEvent: (e) => void events.push(e) },
    ]);
    const results = await runPlan(
      [
        { name: 'research', prompt: 'find' },
        { name: 'write', prompt: 'draft' },
      ],
      { hooks, runSubtask: async (subtask, args) => `${subtask.name}:${subtask.prompt}:${String(args.subtask)}` },
    );
    expect(results.map((r) => [r.name, r.success, r.output])).toEqual([
      ['research', true, 'research:find:research'],
      ['write', true, 'write:draft:write'],
    ]);
    expect(seen).toEqual(['before:meta:research', 'after:meta:research', 'before:meta:write', 'after:meta:write']);
    expect(events.filter((e) => e.type === 'tool')).toHaveLength(2);
  });

  it('an Abort marks that subtask failed and the plan goes on', async () => {
    const hooks = runner([{ name: 'gate', beforeTool: (tool) => (tool === 'meta:deploy' ? abort('not on Fridays') : undefined) }]);
    const results = await runPlan(
      [
        { name: 'build', prompt: 'b' },
        { name: 'deploy', prompt: 'd' },
        { name: 'notify', prompt: 'n' },
      ],
      { hooks, runSubtask: async (s) => s.name },
    );
    expect(results.map((r) => [r.name, r.success, r.error])).toEqual([
      ['build', true, undefined],
      ['deploy', false, 'aborted: not on Fridays'],
      ['notify', true, undefined],
    ]);
    expect(results.every((r) => r.durationMs >= 0)).toBe(true);
    expect(tracing.outcomesOf('meta:deploy')).toEqual(['aborted']);
  });

  it("a Redirect's newArgs.prompt replaces the prompt the subtask gets", async () => {
    const hooks = runner([{ name: 'rewrite', beforeTool: () => redirect({ newArgs: { prompt: 'safer prompt' } }) }]);
    const results = await runPlan([{ name: 'a', prompt: 'risky prompt' }], { hooks, runSubtask: async (s) => s.prompt });
    expect(results[0]!.output).toBe('safer prompt');
  });

  it('a failing subtask is reported with its message and the plan goes on', async () => {
    const results = await runPlan(
      [
        { name: 'a', prompt: '' },
        { name: 'b', prompt: '' },
      ],
      {
        hooks: runner([]),
        runSubtask: async (s) => {
          if (s.name === 'a') throw new Error('a broke');
          return 'b ok';
        },
      },
    );
    expect(results.map((r) => [r.success, r.error ?? r.output])).toEqual([
      [false, 'a broke'],
      [true, 'b ok'],
    ]);
  });

  it('names malformed subtasks', async () => {
    await expect(runPlan([{ name: '', prompt: 'x' }], { hooks: runner([]), runSubtask: () => 1 })).rejects.toThrow(/subtasks\[0\] must be/);
  });
});
