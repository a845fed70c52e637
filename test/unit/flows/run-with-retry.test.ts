/**
 * runWithRetry: the retry policy over the one decision loop, as users see it.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import type { HookFailure, ToolHook } from '../../../src/index.js';
import { HookAbortError, InvalidHookDecisionError, abort, redirect, runWithRetry, skip } from '../../../src/index.js';
import { ATTR_ERROR_TYPE, ATTR_OUTCOME, ATTR_RETRIES, SPAN_EXECUTE } from '../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

const runner = tracing.runner;

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
    expect(tracing.outcomesOf('writer')).toEqual(['completed']);
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
    expect(tracing.outcomesOf('writer')).toEqual(['recovered']);
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
    expect(tracing.outcomesOf('w')).toEqual(['skipped']);
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
    expect(tracing.outcomesOf('w')).toEqual(['aborted']);
  });

  it('onError Skip stops and returns the stub', async () => {
    const hooks = runner([{ name: 'fallback', onError: () => skip('fallback', 'fallback text') }]);
    const operation = vi.fn(async () => {
      throw new Error('x');
    });
    expect(await runWithRetry(operation, { toolName: 'w', args: {}, hooks, note: 'x', maxAttempts: 3 })).toBe('fallback text');
    expect(operation).toHaveBeenCalledOnce();
    expect(tracing.outcomesOf('w')).toEqual(['recovered']);
  });

  it('names bad options', async () => {
    const hooks = runner([]);
    await expect(runWithRetry(async () => '', { toolName: 'w', args: {}, hooks, note: 'x', maxAttempts: 0 })).rejects.toThrow(
      /maxAttempts must be an integer >= 1/,
    );
    await expect(runWithRetry('x' as unknown as () => string, { toolName: 'w', args: {}, hooks, note: 'x' })).rejects.toThrow(/operation must be a function/);
  });
});
