/**
 * Observer delivery: only the observers whose matcher accepts the tool are told, and one that throws is
 * reported and recorded on the span, never reaching the call.
 */
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/hook.js';
import { createHookEntry } from '../../../src/runner/hook-entry.js';
import { Observers } from '../../../src/runner/observers.js';
import { resolveCapture } from '../../../src/telemetry/capture/options.js';
import { DEFAULT_RECORDING } from '../../../src/telemetry/decision-records.js';
import { EVENT_HOOK_ERROR } from '../../../src/telemetry/semconv.js';
import { useDiagRecorder } from '../../support/diag.js';
import { toolEvent } from '../../support/events.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();
const diag = useDiagRecorder();

function observers(hooks: ToolHook[]): Observers<unknown> {
  return new Observers(hooks.map((hook, index) => createHookEntry(hook, index, { timeoutMs: 0, failureMode: 'open' })), resolveCapture(undefined), DEFAULT_RECORDING);
}

describe('Observers', () => {
  it('counts only the hooks that observe', () => {
    expect(observers([{ name: 'gate', beforeTool: () => undefined }, { name: 'log', onEvent: () => undefined }]).count).toBe(1);
  });

  it("tells only the observers whose matcher accepts the tool", () => {
    const seen: string[] = [];
    const c = observers([
      { name: 'all', onEvent: () => void seen.push('all') },
      { name: 'shell', tools: ['shell'], onEvent: () => void seen.push('shell') },
      { name: 'broken-matcher', tools: () => { throw new Error('x'); }, onEvent: () => void seen.push('broken') },
    ]);
    c.notify(toolEvent({ toolName: 'search' }), 'search', undefined);
    expect(seen).toEqual(['all']);
  });

  it('swallows an observer that throws: a warning through diag and an error event on the span', () => {
    const c = observers([{ name: 'audit-log', onEvent: () => { throw new Error('disk full'); } }]);
    const span = tracing.tracer.startSpan('parent');
    expect(() => c.notify(toolEvent(), 'shell', span)).not.toThrow();
    span.end();
    expect(diag.messages).toEqual([expect.stringMatching(/observer "audit-log" threw in onEvent \(tool event for tool "shell"\): disk full/)]);
    expect(eventsOf(tracing.onlySpan('parent'), EVENT_HOOK_ERROR)).toHaveLength(1);
  });
});
