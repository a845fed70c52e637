/**
 * recordInvalidToolCalls(): a tool call the model got wrong (unknown tool, arguments that fail the schema)
 * never reaches a tool, but is still recorded as a failed call — unless the app's own repair fixes it.
 */
import { describe, expect, it, vi } from 'vitest';
import { recordInvalidToolCalls } from '../../../../src/adapters/ai/invalid-calls.js';
import type { ToolHookEvent } from '../../../../src/index.js';
import { ATTR_ERROR_TYPE, ATTR_OUTCOME } from '../../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../../support/tracing.js';

const tracing = useTestTracing();

/** What the AI SDK passes a repair function, for a call to a tool it does not have. */
class UnknownToolError extends Error {}
const repairOptions = (input = '{"q":"weather"}') =>
  ({ toolCall: { type: 'tool-call', toolCallId: 'call-1', toolName: 'serch', input }, error: new UnknownToolError('no tool "serch"') }) as never;

type Repair = (options: never) => Promise<unknown>;

describe('recordInvalidToolCalls', () => {
  it('records the call as failed with the error type, tells observers, and lets the SDK raise the error (null)', async () => {
    const events: ToolHookEvent[] = [];
    const runner = tracing.runner([{ name: 'observer', onEvent: (event) => void events.push(event) }]);
    const repair = recordInvalidToolCalls(runner) as Repair;
    expect(await repair(repairOptions())).toBeNull();
    const span = tracing.onlySpan('execute_tool serch');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'UnknownToolError' });
    expect(events.filter((event) => event.type === 'tool')).toEqual([expect.objectContaining({ toolName: 'serch', outcome: 'failed' })]);
    // No phase ran for it: no gated, so it never counts as an ungated call.
    expect(events.filter((event) => event.type === 'tool').map((event) => 'gated' in event)).toEqual([false]);
  });

  it("runs the app's own repair first: a repaired call is not recorded here", async () => {
    const fixed = { type: 'tool-call', toolCallId: 'call-1', toolName: 'search', input: '{"q":"weather"}' };
    const own = vi.fn(async () => fixed);
    const repair = recordInvalidToolCalls(tracing.runner([]), { repair: own as never }) as Repair;
    expect(await repair(repairOptions())).toBe(fixed);
    expect(own).toHaveBeenCalledOnce();
    expect(tracing.spans()).toHaveLength(0);
  });

  it("records the call when the app's repair gives up or throws, and rethrows what it threw", async () => {
    const givesUp = recordInvalidToolCalls(tracing.runner([]), { repair: (async () => null) as never }) as Repair;
    expect(await givesUp(repairOptions())).toBeNull();
    const throws = recordInvalidToolCalls(tracing.runner([]), { repair: (async () => { throw new Error('repair broke'); }) as never }) as Repair;
    await expect(throws(repairOptions('not json'))).rejects.toThrow('repair broke');
    expect(tracing.outcomesOf('serch')).toEqual(['failed', 'failed']);
  });

  it('names the parameter in what it rejects', () => {
    expect(() => recordInvalidToolCalls([] as never)).toThrow(/recordInvalidToolCalls: runner must be a HookRunner/);
    expect(() => recordInvalidToolCalls(tracing.runner([]), { repair: 'fix' } as never)).toThrow('recordInvalidToolCalls: options.repair must be a function, got string');
    expect(() => recordInvalidToolCalls(tracing.runner([]), { repiar: () => null } as never)).toThrow(/repair/);
  });
});
