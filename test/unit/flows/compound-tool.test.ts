/**
 * CompoundTool: an agent step, then the executor with the hooks around it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { HookRunner} from '../../../src/index.js';
import { CompoundTool, HookAbortError, abort, redirect, skip } from '../../../src/index.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

const runner = tracing.runner;

describe('CompoundTool (Orqest compound flow tests)', () => {
  const agent = { name: 'sql_writer', run: vi.fn(async (prompt: string) => `SELECT '${prompt}'`) };

  it('runs the agent, then the executor through the hooks, and updates state', async () => {
    const executor = vi.fn((output: unknown) => `rows for ${String(output)}`);
    const state = { results: [] as unknown[] };
    const tool = new CompoundTool({
      agent,
      executor,
      hooks: runner<typeof state>([]),
      stateUpdater: (s, result) => void s.results.push(result),
    });
    const out = await tool.run(state, 'revenue');
    expect(out).toEqual({ agentOutput: "SELECT 'revenue'", result: "rows for SELECT 'revenue'" });
    expect(executor).toHaveBeenCalledWith("SELECT 'revenue'", state, { agentOutput: "SELECT 'revenue'", prompt: 'revenue' });
    expect(state.results).toEqual(["rows for SELECT 'revenue'"]);
    expect(tracing.outcomesOf('sql_writer')).toEqual(['completed']);
  });

  it('skip: the executor never runs and the stub is the result', async () => {
    const executor = vi.fn();
    const tool = new CompoundTool({ agent, executor, hooks: runner([{ name: 'cache', beforeTool: () => skip('cached', 'cached rows') }]) });
    expect(await tool.run({}, 'x')).toEqual({ agentOutput: "SELECT 'x'", result: 'cached rows' });
    expect(executor).not.toHaveBeenCalled();
  });

  it('redirect: the executor gets the redirected agent output', async () => {
    const executor = vi.fn((output: unknown) => output);
    const hooks = runner([{ name: 'rewrite', beforeTool: () => redirect({ newArgs: { agentOutput: 'SELECT 1' } }) }]);
    const tool = new CompoundTool({ agent, executor, hooks, name: 'sql' });
    expect((await tool.run({}, 'x')).result).toBe('SELECT 1');
    expect(tracing.outcomesOf('sql')).toEqual(['completed']);
  });

  it('abort: raises HookAbortError and the executor never runs', async () => {
    const executor = vi.fn();
    const tool = new CompoundTool({ agent, executor, hooks: runner([{ name: 'gate', beforeTool: () => abort('DROP TABLE') }]) });
    await expect(tool.run({}, 'x')).rejects.toBeInstanceOf(HookAbortError);
    expect(executor).not.toHaveBeenCalled();
  });

  it('on_error redirect retries the executor', async () => {
    let calls = 0;
    const executor = vi.fn((output: unknown) => {
      calls += 1;
      if (calls === 1) throw new Error('syntax error');
      return `ran ${String(output)}`;
    });
    const hooks = runner([{ name: 'fixer', onError: () => redirect({ newArgs: { agentOutput: 'SELECT fixed' } }) }]);
    const tool = new CompoundTool({ agent, executor, hooks });
    expect((await tool.run({}, 'x')).result).toBe('ran SELECT fixed');
    expect(tracing.outcomesOf('sql_writer')).toEqual(['recovered']);
  });

  it('swallows a stateUpdater that throws', async () => {
    const tool = new CompoundTool({
      agent,
      executor: () => 1,
      hooks: runner([]),
      stateUpdater: () => {
        throw new Error('state broke');
      },
    });
    expect((await tool.run({}, 'x')).result).toBe(1);
  });

  it('names its problems', () => {
    const hooks = runner([]);
    expect(() => new CompoundTool({ agent: { run: () => 1 }, executor: () => 1, hooks })).toThrow(/CompoundTool needs a name/);
    expect(() => new CompoundTool({ agent, executor: 1 as unknown as () => unknown, hooks })).toThrow(/executor must be a function/);
    expect(() => new CompoundTool({ agent, executor: () => 1, hooks: {} as HookRunner })).toThrow(/hooks must be a HookRunner/);
  });
});
