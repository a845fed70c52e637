/**
 * Past the SDK's span event limit (`spanLimits.eventCountLimit`, 128 by default) the SDK drops the oldest
 * events. On a phase span the winning decision event, every hook-error event and the counts survive any
 * limit; what was left out is counted, by kind, on the span.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, executeTool, skip } from '../../../src/index.js';
import {
  ATTR_DECISION_HOOK,
  ATTR_DECISIONS_SHADOWED,
  ATTR_EVENTS_DROPPED,
  ATTR_EVENTS_DROPPED_DECISION,
  ATTR_EVENTS_DROPPED_ERROR,
  ATTR_EVENTS_DROPPED_SHADOWED,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_NAME,
  ATTR_HOOKS_INVOKED,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_ERROR,
  SPAN_BEFORE_TOOL,
} from '../../../src/telemetry/semconv.js';
import { newTracerProvider, simpleSpanProcessor } from '../../support/sdk.js';
import { installContextManager } from '../../support/tracing.js';

installContextManager();
const exporter = new InMemorySpanExporter();
beforeEach(() => exporter.reset());

function runner(hooks: ToolHook[], eventCountLimit?: number): HookRunner {
  const provider = newTracerProvider({ ...(eventCountLimit === undefined ? {} : { spanLimits: { eventCountLimit } }), spanProcessors: [simpleSpanProcessor(exporter)] });
  return new HookRunner({ tracer: provider.getTracer('toolhooks'), hooks });
}

function phaseSpan(): ReadableSpan {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === SPAN_BEFORE_TOOL);
  expect(spans).toHaveLength(1);
  return spans[0] as ReadableSpan;
}

function named(span: ReadableSpan, name: string): string[] {
  return span.events.filter((event) => event.name === name).map((event) => String(event.attributes?.[ATTR_HOOK_NAME]));
}

/** 70 deciding hooks (each Skip: the first wins, the other 69 are shadowed), 5 failing ones among them. */
function deciders(count = 70): ToolHook[] {
  return Array.from({ length: count }, (_, index): ToolHook =>
    index % 14 === 7
      ? {
          name: `broken-${index}`,
          beforeTool() {
            throw new Error(`bug ${index}`);
          },
        }
      : { name: `h${index}`, beforeTool: () => skip(`skip ${index}`, index) },
  );
}

describe('a phase span past the event limit', () => {
  it('keeps the winning decision, every error and the counts under the default limit of 128', async () => {
    await expect(executeTool({ hooks: runner(deciders()), toolName: 'shell', args: {}, execute: () => 'ran' })).resolves.toBe(0);
    const span = phaseSpan();
    expect(span.events.length).toBeLessThanOrEqual(128);
    expect(named(span, EVENT_HOOK_DECISION)).toContain('h0');
    expect(named(span, EVENT_HOOK_ERROR)).toEqual(['broken-7', 'broken-21', 'broken-35', 'broken-49', 'broken-63']);
    expect(span.attributes).toMatchObject({ [ATTR_DECISION_HOOK]: 'h0', [ATTR_HOOKS_INVOKED]: 70, [ATTR_HOOK_ERRORS]: 5, [ATTR_DECISIONS_SHADOWED]: 64 });
    const total = 70 + 64 + 5;
    const dropped = span.attributes[ATTR_EVENTS_DROPPED];
    expect(dropped).toBe(total - span.events.length);
    expect(Number(span.attributes[ATTR_EVENTS_DROPPED_DECISION] ?? 0) + Number(span.attributes[ATTR_EVENTS_DROPPED_SHADOWED] ?? 0) + Number(span.attributes[ATTR_EVENTS_DROPPED_ERROR] ?? 0)).toBe(dropped);
    expect(span.attributes[ATTR_EVENTS_DROPPED_ERROR]).toBeUndefined();
    expect(span.droppedEventsCount).toBe(0);
  });

  it('a late Abort is the winner that survives', async () => {
    const hooks = [...deciders(69), { name: 'late-gate', beforeTool: () => abort('no') }];
    await expect(executeTool({ hooks: runner(hooks), toolName: 'shell', args: {}, execute: () => 'ran' })).rejects.toBeInstanceOf(HookAbortError);
    const span = phaseSpan();
    expect(named(span, EVENT_HOOK_DECISION)).toContain('late-gate');
    expect(span.attributes[ATTR_DECISION_HOOK]).toBe('late-gate');
    expect(named(span, EVENT_HOOK_ERROR)).toHaveLength(5);
  });

  it('under a tiny limit, the winner first and then as many errors as fit, the rest counted by kind', async () => {
    await executeTool({ hooks: runner(deciders(), 3), toolName: 'shell', args: {}, execute: () => 'ran' });
    const span = phaseSpan();
    expect(span.events).toHaveLength(3);
    expect(named(span, EVENT_HOOK_DECISION)).toEqual(['h0']);
    expect(named(span, EVENT_HOOK_ERROR)).toEqual(['broken-7', 'broken-21']);
    expect(span.attributes).toMatchObject({ [ATTR_EVENTS_DROPPED]: 136, [ATTR_EVENTS_DROPPED_ERROR]: 3, [ATTR_EVENTS_DROPPED_SHADOWED]: 64, [ATTR_EVENTS_DROPPED_DECISION]: 69 });
  });

  it('within the limit, every event is recorded as it happens and nothing is said about dropping', async () => {
    await executeTool({ hooks: runner(deciders(20)), toolName: 'shell', args: {}, execute: () => 'ran' });
    const span = phaseSpan();
    expect(span.events.length).toBe(20 + 18 + 1);
    expect(span.attributes[ATTR_EVENTS_DROPPED]).toBeUndefined();
  });

  it('events keep their own times when they are written at the end', async () => {
    await executeTool({ hooks: runner(deciders()), toolName: 'shell', args: {}, execute: () => 'ran' });
    const times = phaseSpan().events.map((event) => event.time[0] * 1e9 + event.time[1]);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });
});
