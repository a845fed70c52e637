/**
 * An SDK attribute length limit (`spanLimits.attributeValueLengthLimit`, or the
 * OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT variable) cuts every string attribute longer than it. Captured JSON
 * is written to fit the limit instead, so it stays valid JSON and replay can still read the arguments.
 */
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import type { Tracer } from '@opentelemetry/api';
import { beforeEach, describe, expect, it } from 'vitest';
import { HookRunner, executeTool, redirect } from '../../../src/index.js';
import {
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_REDIRECT_ARGS,
  EVENT_HOOK_DECISION,
  SPAN_BEFORE_TOOL,
} from '../../../src/telemetry/semconv.js';
import { newTracerProvider, simpleSpanProcessor } from '../../support/sdk.js';
import { eventsOf, installContextManager } from '../../support/tracing.js';

installContextManager();
const exporter = new InMemorySpanExporter();
beforeEach(() => exporter.reset());

function tracerWithLimit(attributeValueLengthLimit: number): Tracer {
  const provider = newTracerProvider({ spanLimits: { attributeValueLengthLimit }, spanProcessors: [simpleSpanProcessor(exporter)] });
  return provider.getTracer('toolhooks');
}

const args = {
  query: 'x'.repeat(500),
  filters: Array.from({ length: 40 }, (_, index) => ({ field: `f${index}`, value: 'v'.repeat(30) })),
  password: 'hunter2',
};

/** Parsed as replay parses recorded arguments: a JSON object, or nothing. */
function asObject(text: unknown): Record<string, unknown> | undefined {
  const value: unknown = JSON.parse(String(text));
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

describe('captured JSON under an SDK attribute length limit', () => {
  it.each([3, 16, 24, 40, 64, 100, 257, 1000, 5000])('stays valid JSON (an object from 40 characters on) within a limit of %i', async (limit) => {
    const hooks = new HookRunner({
      tracer: tracerWithLimit(limit),
      capture: { args: true, results: true },
      hooks: [{ name: 'narrow', beforeTool: () => redirect({ newArgs: { query: 'y'.repeat(300), token: 'tok' } }) }],
    });
    await executeTool({ hooks, toolName: 'search', args, execute: () => ({ rows: args.filters, note: 'n'.repeat(400) }) });
    const root = exporter.getFinishedSpans().find((span) => span.name === 'execute_tool search');
    const captured = root?.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS];
    const result = root?.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT];
    const phase = exporter.getFinishedSpans().find((span) => span.name === SPAN_BEFORE_TOOL);
    const newArgs = eventsOf(phase!, EVENT_HOOK_DECISION)[0]?.attributes[ATTR_REDIRECT_ARGS];
    for (const text of [captured, result, newArgs]) {
      expect(String(text).length).toBeLessThanOrEqual(limit);
      expect(() => JSON.parse(String(text)) as unknown, String(text)).not.toThrow();
      if (limit >= 40) expect(asObject(text), String(text)).toBeDefined();
    }
    expect(String(captured)).not.toContain('hunter2');
    if (limit >= 100) expect(asObject(captured)).toHaveProperty('query');
  });

  it('without a limit, nothing changes', async () => {
    const provider = newTracerProvider({ spanProcessors: [simpleSpanProcessor(exporter)] });
    const hooks = new HookRunner({ tracer: provider.getTracer('toolhooks'), capture: { args: true } });
    await executeTool({ hooks, toolName: 'search', args: { q: 'z'.repeat(2000) }, execute: () => 'ok' });
    const root = exporter.getFinishedSpans().find((span) => span.name === 'execute_tool search');
    expect(asObject(root?.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS])).toEqual({ q: 'z'.repeat(2000) });
  });
});
