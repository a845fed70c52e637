import { SpanStatusCode } from '@opentelemetry/api';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { HookFailure, ToolHook, ToolHookEvent } from '../../src/index.js';
import { CompoundTool, HookAbortError, HookRunner, InvalidHookDecisionError, abort, redirect, runPlan, runWithRetry, skip } from '../../src/index.js';
import { ATTR_ERROR_TYPE, ATTR_OUTCOME, ATTR_RETRIES, SPAN_EXECUTE } from '../../src/telemetry/semconv.js';
import { createTestTracing } from '../support/tracing.js';

const tracing = createTestTracing();
beforeEach(() => tracing.reset());

function runner<S = unknown>(hooks: ToolHook<S>[]): HookRunner<S> {
  return new HookRunner<S>({ hooks, tracer: tracing.tracer });
}

function outcomeOf(toolName: string): unknown {
  return tracing.spansNamed(`execute_tool ${toolName}`).map((s) => s.attributes[ATTR_OUTCOME]);
}

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
    expect(outcomeOf('sql_writer')).toEqual(['completed']);
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
    expect(outcomeOf('sql')).toEqual(['completed']);
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
    expect(outcomeOf('sql_writer')).toEqual(['recovered']);
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

describe('runWithRetry (Orqest retry tests)', () => {
  it('returns the first success; before/after fire once', async () => {
    const before = vi.fn();
    const after = vi.fn();
    const hooks = runner([{ name: 'h', beforeTool: before, afterTool: after }]);
    const result = await runWithRetry(async (note) => `done: ${note}`, { toolName: 'writer', args: {}, hooks, note: 'n' });
    expect(result).toBe('done: n');
    expect(before).toHaveBeenCalledOnce();
    expect(after).toHaveBeenCalledOnce();
    expect(after.mock.calls[0]![2]).toBe('done: n');
    expect(outcomeOf('writer')).toEqual(['completed']);
  });

  it('retries with the enriched note "PREVIOUS ATTEMPT FAILED"', async () => {
    const notes: string[] = [];
    const result = await runWithRetry(
      async (note) => {
        notes.push(note);
        if (notes.length === 1) throw new Error('column x does not exist');
        return 'ok';
      },
      { toolName: 'writer', args: {}, hooks: runner([]), note: 'write SQL' },
    );
    expect(result).toBe('ok');
    expect(notes[0]).toBe('write SQL');
    expect(notes[1]).toContain('write SQL');
    expect(notes[1]).toContain('PREVIOUS ATTEMPT FAILED');
    expect(notes[1]).toContain('column x does not exist');
    expect(outcomeOf('writer')).toEqual(['recovered']);
    expect(tracing.spansNamed('execute_tool writer')[0]!.attributes[ATTR_RETRIES]).toBe(1);
    expect(tracing.spansNamed(SPAN_EXECUTE)).toHaveLength(2);
  });

  it('uses a custom enrichNote', async () => {
    const notes: string[] = [];
    await runWithRetry(
      async (note) => {
        notes.push(note);
        if (notes.length === 1) throw new Error('e1');
        return 'ok';
      },
      { toolName: 'w', args: {}, hooks: runner([]), note: 'base', enrichNote: (note, error) => `${note} | fix ${(error as Error).message}` },
    );
    expect(notes).toEqual(['base', 'base | fix e1']);
  });

  it('returns the exhaustion payload {"success":false,"error":…,"attempts":n} and calls afterTool once', async () => {
    const after = vi.fn();
    let n = 0;
    const result = await runWithRetry(
      async () => {
        n += 1;
        throw new Error(`attempt ${n} failed`);
      },
      { toolName: 'w', args: {}, hooks: runner([{ name: 'a', afterTool: after }]), note: 'x', maxAttempts: 3 },
    );
    expect(JSON.parse(result)).toEqual({ success: false, error: 'attempt 3 failed', attempts: 3 });
    expect(after).toHaveBeenCalledOnce();
    const span = tracing.spansNamed('execute_tool w')[0]!;
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'Error' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('stops at a non-retryable error', async () => {
    const operation = vi.fn(async () => {
      throw new TypeError('permanent');
    });
    const result = await runWithRetry(operation, { toolName: 'w', args: {}, hooks: runner([]), note: 'x', maxAttempts: 5, isRetryable: (e) => !(e instanceof TypeError) });
    expect(operation).toHaveBeenCalledOnce();
    expect(JSON.parse(result)).toEqual({ success: false, error: 'permanent', attempts: 1 });
  });

  it('skip short-circuits with a JSON-serialised stub', async () => {
    const operation = vi.fn(async () => 'never');
    const hooks = runner([{ name: 'cache', beforeTool: () => skip('cached', { rows: [1, 2] }) }]);
    expect(await runWithRetry(operation, { toolName: 'w', args: {}, hooks, note: 'x' })).toBe('{"rows":[1,2]}');
    expect(operation).not.toHaveBeenCalled();
    expect(outcomeOf('w')).toEqual(['skipped']);
  });

  it("a Skip whose stub cannot be JSON-serialised is that hook's invalid_decision: fail-open goes on, fail-closed aborts", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const failures: HookFailure[] = [];
    const observer: ToolHook = { name: 'obs', onEvent: (event) => event.type === 'phase' && failures.push(...event.errors) };
    const open = runner([{ name: 'cache', beforeTool: () => skip('cached', cyclic) }, observer]);
    await expect(runWithRetry(async () => 'ran', { toolName: 'w', args: {}, hooks: open, note: 'x' })).resolves.toBe('ran');
    expect(failures).toHaveLength(1);
    expect(failures[0]?.kind).toBe('invalid_decision');
    expect(failures[0]?.error).toBeInstanceOf(InvalidHookDecisionError);
    expect(String((failures[0]?.error as Error).message)).toMatch(/stubResult cannot become runWithRetry's text/);
    const closed = runner([{ name: 'cache', failureMode: 'closed', beforeTool: () => skip('cached', cyclic) }]);
    const error = await runWithRetry(async () => 'ran', { toolName: 'w', args: {}, hooks: closed, note: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookAbortError);
    expect((error as HookAbortError).cause).toBeInstanceOf(InvalidHookDecisionError);
  });

  it('before Redirect replaces the note; on_error Redirect sets the next note', async () => {
    const notes: string[] = [];
    const hooks = runner([
      { name: 'rewrite', beforeTool: () => redirect({ newArgs: { note: 'rewritten' } }) },
      { name: 'hint', onError: () => redirect({ newArgs: { note: 'try the hint' } }) },
    ]);
    await runWithRetry(
      async (note) => {
        notes.push(note);
        if (notes.length === 1) throw new Error('x');
        return 'ok';
      },
      { toolName: 'w', args: {}, hooks, note: 'original' },
    );
    expect(notes).toEqual(['rewritten', 'try the hint']);
  });

  it('calls onError for every failed attempt; Abort stops with the error as cause', async () => {
    const onError = vi.fn((_t: string, _a: unknown, error: unknown) => ((error as Error).message === 'second' ? abort('give up') : undefined));
    const errors = [new Error('first'), new Error('second')];
    const operation = vi.fn(async () => {
      throw errors.shift();
    });
    const error = (await runWithRetry(operation, { toolName: 'w', args: {}, hooks: runner([{ name: 'judge', onError }]), note: 'x', maxAttempts: 5 }).catch(
      (e: unknown) => e,
    )) as HookAbortError;
    expect(onError).toHaveBeenCalledTimes(2);
    expect(operation).toHaveBeenCalledTimes(2);
    expect(error).toBeInstanceOf(HookAbortError);
    expect((error.cause as Error).message).toBe('second');
    expect(outcomeOf('w')).toEqual(['aborted']);
  });

  it('onError Skip stops and returns the stub', async () => {
    const hooks = runner([{ name: 'fallback', onError: () => skip('fallback', 'fallback text') }]);
    const operation = vi.fn(async () => {
      throw new Error('x');
    });
    expect(await runWithRetry(operation, { toolName: 'w', args: {}, hooks, note: 'x', maxAttempts: 3 })).toBe('fallback text');
    expect(operation).toHaveBeenCalledOnce();
    expect(outcomeOf('w')).toEqual(['recovered']);
  });

  it('names bad options', async () => {
    const hooks = runner([]);
    await expect(runWithRetry(async () => '', { toolName: 'w', args: {}, hooks, note: 'x', maxAttempts: 0 })).rejects.toThrow(
      /maxAttempts must be an integer >= 1/,
    );
    await expect(runWithRetry('x' as unknown as () => string, { toolName: 'w', args: {}, hooks, note: 'x' })).rejects.toThrow(/operation must be a function/);
  });
});

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
    expect(outcomeOf('meta:deploy')).toEqual(['aborted']);
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
