/**
 * The runner's compiled configuration: which phases have hooks, when a phase records a span, and that
 * its observers are told. Matching is tested in phase-hooks.test.ts, delivery in observers.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { CONTINUE, abort } from '../../../src/decisions.js';
import { HookAbortError } from '../../../src/errors.js';
import type { ToolHook } from '../../../src/hook.js';
import { RunnerCore } from '../../../src/runner/core.js';
import { createHookEntry } from '../../../src/runner/hook-entry.js';
import { resolveCapture } from '../../../src/telemetry/capture/options.js';
import { SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import { toolEvent } from '../../support/events.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

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

  it('delivers events to its observers', () => {
    const seen: string[] = [];
    const c = core([{ name: 'log', onEvent: (event) => void seen.push(event.type) }]);
    c.notify(toolEvent(), 'shell', undefined);
    expect(seen).toEqual(['tool']);
  });
});
