/**
 * The runner's compiled configuration: which hooks a phase runs for a tool, when a phase records a span,
 * how observers are told, and how a flow finds the runner it was given.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONTINUE, abort } from '../../../src/decisions.js';
import { HookAbortError } from '../../../src/errors.js';
import type { ToolHook } from '../../../src/hook.js';
import { RunnerCore, attachCore, runnerCore } from '../../../src/runner/core.js';
import { createHookEntry } from '../../../src/runner/hook-entry.js';
import { resolveCapture } from '../../../src/telemetry/capture/options.js';
import { EVENT_HOOK_ERROR, SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import { recordDiag } from '../../support/diag.js';
import { toolEvent } from '../../support/events.js';
import { createTestTracing, eventsOf } from '../../support/tracing.js';

const tracing = createTestTracing();
const diag = recordDiag();
beforeEach(() => {
  tracing.reset();
  diag.start();
});
afterEach(() => diag.stop());

function core(hooks: ToolHook[], failureMode: 'open' | 'closed' = 'open'): RunnerCore {
  const entries = hooks.map((hook, index) => createHookEntry(hook, index, { timeoutMs: 0, failureMode }));
  return new RunnerCore(entries, tracing.tracer, resolveCapture(undefined), undefined);
}

const request = { phase: 'before_tool', toolName: 'shell', args: {}, state: undefined } as const;

describe('RunnerCore', () => {
  it('knows which phases have hooks, and which hooks observe', () => {
    const c = core([{ name: 'gate', beforeTool: () => undefined }, { name: 'log', onEvent: () => undefined }]);
    expect([c.hasHooks('before_tool'), c.hasHooks('after_tool'), c.hasHooks('on_error')]).toEqual([true, false, false]);
    expect(c.hasObservers).toBe(true);
    expect(core([{ name: 'gate', beforeTool: () => undefined }]).hasObservers).toBe(false);
  });

  it('runs only the hooks whose matcher accepts the tool, and records nothing when none does', () => {
    const shellOnly = vi.fn(() => abort('no shell'));
    const c = core([{ name: 'gate', tools: ['shell'], beforeTool: shellOnly }]);
    expect(c.run({ ...request, toolName: 'search' })).toBe(CONTINUE);
    expect(shellOnly).not.toHaveBeenCalled();
    expect(tracing.spans()).toHaveLength(0);
    expect(() => c.run(request)).toThrow(HookAbortError);
    expect(shellOnly).toHaveBeenCalledOnce();
    expect(tracing.onlySpan(SPAN_BEFORE_TOOL)).toBeDefined();
  });

  it('treats a matcher that throws as applying, so a fail-closed gate aborts', () => {
    const c = core([{ name: 'gate', tools: () => { throw new Error('matcher bug'); }, beforeTool: () => undefined }], 'closed');
    expect(() => c.run(request)).toThrow(HookAbortError);
  });

  it('starts no phase span when the call is not traced, and still decides', () => {
    const c = core([{ name: 'gate', beforeTool: () => abort('no') }]);
    expect(() => c.run({ ...request, traced: false })).toThrow(HookAbortError);
    expect(tracing.spans()).toHaveLength(0);
  });

  it("tells only the observers whose matcher accepts the tool", () => {
    const seen: string[] = [];
    const c = core([
      { name: 'all', onEvent: () => void seen.push('all') },
      { name: 'shell', tools: ['shell'], onEvent: () => void seen.push('shell') },
      { name: 'broken-matcher', tools: () => { throw new Error('x'); }, onEvent: () => void seen.push('broken') },
    ]);
    c.notify(toolEvent({ toolName: 'search' }), 'search', undefined);
    expect(seen).toEqual(['all']);
  });

  it('swallows an observer that throws: a warning through diag and an error event on the span', () => {
    const c = core([{ name: 'audit-log', onEvent: () => { throw new Error('disk full'); } }]);
    const span = tracing.tracer.startSpan('parent');
    expect(() => c.notify(toolEvent(), 'shell', span)).not.toThrow();
    span.end();
    expect(diag.messages).toEqual([expect.stringMatching(/observer "audit-log" threw in onEvent \(tool event for tool "shell"\): disk full/)]);
    expect(eventsOf(tracing.onlySpan('parent'), EVENT_HOOK_ERROR)).toHaveLength(1);
  });
});

describe('runnerCore', () => {
  it('finds the core attached to a runner', () => {
    const runner = {};
    const c = core([]);
    attachCore(runner, c);
    expect(runnerCore(runner, 'executeTool')).toBe(c);
  });

  it('rejects anything that is not a runner, naming where and how to make one', () => {
    expect(() => runnerCore([], 'executeTool')).toThrow(
      "executeTool: hooks must be a HookRunner (new HookRunner([...hooks]) from 'toolhooks'), got an array (wrap it: new HookRunner(hooks))",
    );
    expect(() => runnerCore(null, 'runPlan')).toThrow(/runPlan: hooks must be a HookRunner .* got null/);
    expect(() => runnerCore({}, 'runPlan')).toThrow(/got object/);
  });
});
