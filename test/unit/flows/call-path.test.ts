/**
 * The two paths through the decision loop (call-path.ts, plain-path.ts, retry-policy.ts), side by side:
 * what each does with an on_error Skip, an after_tool Replace, and how the call's outcome ends.
 */
import { describe, expect, it } from 'vitest';
import type { ToolEvent, ToolHookEvent } from '../../../src/index.js';
import { executeTool, redirect, replaceResult, runWithRetry, skip } from '../../../src/index.js';
import { ATTR_OUTCOME, ATTR_RESULT_REPLACED, ATTR_RETRIES } from '../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

function callAttributes(): Record<string, unknown> {
  const roots = tracing.spans().filter((s) => s.name.startsWith('execute_tool '));
  expect(roots).toHaveLength(1);
  return roots[0]!.attributes;
}

describe('an on_error Skip', () => {
  it('plain path: answers with the stub as is, without after_tool', async () => {
    const seen: unknown[] = [];
    const hooks = tracing.runner([{ name: 'h', onError: () => skip('down', { ok: false }), afterTool: (_t, _a, result) => void seen.push(result) }]);
    const result = await executeTool({ hooks, toolName: 't', args: {}, execute: () => { throw new Error('down'); } });
    expect(result).toEqual({ ok: false });
    expect(seen).toEqual([]);
    expect(callAttributes()[ATTR_OUTCOME]).toBe('recovered');
  });

  it('retry policy: answers with the stub as text, through after_tool', async () => {
    const seen: unknown[] = [];
    const hooks = tracing.runner([{ name: 'h', onError: () => skip('down', { ok: false }), afterTool: (_t, _a, result) => void seen.push(result) }]);
    const result = await runWithRetry(() => { throw new Error('down'); }, { hooks, toolName: 't', args: {}, note: 'n' });
    expect(result).toBe('{"ok":false}');
    expect(seen).toEqual(['{"ok":false}']);
    expect(callAttributes()[ATTR_OUTCOME]).toBe('recovered');
  });
});

describe('an after_tool Replace', () => {
  it('plain path: its result as is', async () => {
    const hooks = tracing.runner([{ name: 'h', afterTool: () => replaceResult({ redacted: true }) }]);
    expect(await executeTool({ hooks, toolName: 't', args: {}, execute: () => 'secret' })).toEqual({ redacted: true });
    expect(callAttributes()).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_RESULT_REPLACED]: true });
  });

  it('retry policy: its result as text', async () => {
    const hooks = tracing.runner([{ name: 'h', afterTool: () => replaceResult({ redacted: true }) }]);
    expect(await runWithRetry(() => 'secret', { hooks, toolName: 't', args: {}, note: 'n' })).toBe('{"redacted":true}');
    expect(callAttributes()).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_RESULT_REPLACED]: true });
  });
});

describe("the call's outcome after a retry", () => {
  it('recovered when a later attempt succeeds, on either path', async () => {
    const events: ToolHookEvent[] = [];
    const hooks = tracing.runner([{ name: 'h', onError: () => redirect({ newArgs: { note: 'again' } }), onEvent: (e) => void events.push(e) }]);
    let runs = 0;
    const flaky = (): string => {
      runs += 1;
      if (runs % 2 === 1) throw new Error('first attempt fails');
      return 'ok';
    };
    expect(await executeTool({ hooks, toolName: 't', args: {}, execute: flaky })).toBe('ok');
    expect(await runWithRetry(flaky, { hooks, toolName: 'r', args: {}, note: 'n' })).toBe('ok');
    const tools = events.filter((e): e is ToolEvent => e.type === 'tool');
    expect(tools.map((e) => [e.toolName, e.outcome, e.retries])).toEqual([
      ['t', 'recovered', 1],
      ['r', 'recovered', 1],
    ]);
  });

  it('failed when a retry policy runs out of attempts, although it answers', async () => {
    const hooks = tracing.runner([]);
    const result = await runWithRetry(() => { throw new Error('down'); }, { hooks, toolName: 't', args: {}, note: 'n', maxAttempts: 2 });
    expect(JSON.parse(result)).toMatchObject({ success: false, attempts: 2 });
    expect(callAttributes()).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_RETRIES]: 1 });
  });
});
