import { describe, expect, it } from 'vitest';
import type { ToolEvent, ToolHookEvent } from '../../../../src/index.js';
import { HookRunner, executeTool, redirect } from '../../../../src/index.js';
import {
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_REDIRECT_ARGS,
  EVENT_HOOK_DECISION,
  SPAN_BEFORE_TOOL,
} from '../../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../../support/tracing.js';

const tracing = useTestTracing();

describe('capture wiring (docs/protocol.md)', () => {
  const args = { query: 'weather', config: { password: 'hunter2', apiKey: 'sk-123' } };

  it('records redacted arguments, results and redirect args when capture is on', async () => {
    const events: ToolHookEvent[] = [];
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      capture: { args: true, results: true },
      hooks: [
        { name: 'r', beforeTool: () => redirect({ newArgs: { token: 'tok-9', limit: 3 } }) },
        { name: 'obs', onEvent: (e) => void events.push(e) },
      ],
    });
    await executeTool({ hooks, toolName: 'search', args, execute: () => ({ answer: 'sunny', session_cookie: 'c-1' }) });
    const root = tracing.spansNamed('execute_tool search')[0]!;
    const captured = JSON.parse(String(root.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS])) as unknown;
    expect(captured).toEqual({ query: 'weather', config: { password: '[REDACTED]', apiKey: '[REDACTED]' } });
    expect(JSON.parse(String(root.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]))).toEqual({ answer: 'sunny', session_cookie: '[REDACTED]' });
    const decision = eventsOf(tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!, EVENT_HOOK_DECISION)[0]!;
    expect(JSON.parse(String(decision.attributes[ATTR_REDIRECT_ARGS]))).toEqual({ token: '[REDACTED]', limit: 3 });
    const tool = events.find((e): e is ToolEvent => e.type === 'tool')!;
    expect(tool.arguments).toBe(root.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]);
    expect(tool.result).toBe(root.attributes[ATTR_GEN_AI_TOOL_CALL_RESULT]);
    const phase = events.find((e) => e.type === 'phase');
    expect(phase?.type === 'phase' && phase.hooks[0]?.newArgs).toBe(decision.attributes[ATTR_REDIRECT_ARGS]);
    const everything = JSON.stringify([tracing.spans().map((s) => [s.attributes, s.events]), events]);
    for (const secret of ['hunter2', 'sk-123', 'tok-9', 'c-1']) expect(everything).not.toContain(secret);
  });

  it('records no value by default', async () => {
    const events: ToolHookEvent[] = [];
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      hooks: [
        { name: 'r', beforeTool: () => redirect({ newArgs: { limit: 'visible-only-as-key' } }) },
        { name: 'obs', onEvent: (e) => void events.push(e) },
      ],
    });
    await executeTool({ hooks, toolName: 'search', args, execute: () => 'result-value' });
    const everything = JSON.stringify([tracing.spans().map((s) => [s.attributes, s.events]), events]);
    for (const value of ['weather', 'hunter2', 'result-value', 'visible-only-as-key']) expect(everything).not.toContain(value);
    expect(everything).toContain('limit'); // the key name alone
  });

  it('cuts long reasons with the truncation marker', async () => {
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      capture: { maxLength: 10 },
      hooks: [{ name: 'r', beforeTool: () => redirect({ newArgs: { a: 1 }, reason: 'x'.repeat(25) }) }],
    });
    await executeTool({ hooks, toolName: 't', args: {}, execute: () => 1 });
    const decision = eventsOf(tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!, EVENT_HOOK_DECISION)[0]!;
    expect(decision.attributes['toolhooks.decision.reason']).toBe(`${'x'.repeat(10)}…[truncated 15]`);
  });

  it('rejects bad capture options when the runner is built', () => {
    expect(() => new HookRunner({ capture: { maxLength: -1 } })).toThrow(/maxLength/);
  });
});

describe('capture in logs', () => {
  it('LoggingHook writes the same redacted values as the span, and none by default', async () => {
    const { LoggingHook } = await import('../../../../src/hooks/index.js');
    const pino = (await import('pino')).default;
    const run = async (capture: { args?: boolean; results?: boolean } | undefined): Promise<string> => {
      const lines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
      const hooks = new HookRunner({
        tracer: tracing.tracer,
        ...(capture === undefined ? {} : { capture }),
        hooks: [{ name: 'r', beforeTool: () => redirect({ newArgs: { apiKey: 'sk-9', page: 2 } }) }, new LoggingHook({ logger })],
      });
      await executeTool({ hooks, toolName: 'search', args: { q: 'cats', password: 'pw-1' }, execute: () => ({ hits: 3 }) });
      return lines.join('');
    };
    const captured = await run({ args: true, results: true });
    const records = captured.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const tool = records.find((r) => r.msg === 'tool call completed')!;
    expect(JSON.parse(String(tool[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS]))).toEqual({ q: 'cats', password: '[REDACTED]' });
    expect(JSON.parse(String(tool[ATTR_GEN_AI_TOOL_CALL_RESULT]))).toEqual({ hits: 3 });
    const decision = records.find((r) => r.msg === 'hook decided redirect')!;
    expect(JSON.parse(String(decision[ATTR_REDIRECT_ARGS]))).toEqual({ apiKey: '[REDACTED]', page: 2 });
    expect(captured).not.toContain('pw-1');
    expect(captured).not.toContain('sk-9');
    const plain = await run(undefined);
    for (const value of ['cats', 'pw-1', 'sk-9', '"hits"']) expect(plain).not.toContain(value);
  });
});
