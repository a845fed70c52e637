import { describe, expect, it } from 'vitest';
import type { RecordedSpan } from '../../../src/replay/otlp-json.js';
import { isReplaySpan, recordedCalls } from '../../../src/replay/recorded-calls.js';

const T = '0af7651916cd43dd8448eb211c80319c';

function span(spanId: string, name: string, start: bigint, attributes: Record<string, string | number>, parentSpanId = ''): RecordedSpan {
  return { traceId: T, spanId, parentSpanId, name, startNs: start, endNs: start + 1_000_000n, attributes: new Map(Object.entries(attributes)) };
}

describe('recordedCalls', () => {
  it('takes the decision of the first before_tool and the last after_tool child; no phase span means continue', () => {
    const calls = recordedCalls([
      span('0000000000000002', 'execute_tool fetch', 20n, {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'fetch',
        'gen_ai.tool.call.arguments': '{"url":"u"}',
        'gen_ai.tool.call.result': '"r2"',
        'toolhooks.outcome': 'completed',
        'toolhooks.redirected': 'true',
        'toolhooks.tool.effective_name': 'fetch_cached',
      }),
      span('00000000000000a1', 'toolhooks.before_tool', 21n, { 'toolhooks.decision': 'redirect', 'toolhooks.decision.hook': 'router' }, '0000000000000002'),
      span('00000000000000a2', 'toolhooks.after_tool', 23n, { 'toolhooks.decision': 'redirect', 'toolhooks.decision.hook': 'retry' }, '0000000000000002'),
      span('00000000000000a3', 'toolhooks.execute', 24n, { 'toolhooks.attempt': 2 }, '0000000000000002'),
      span('00000000000000a4', 'toolhooks.after_tool', 26n, { 'toolhooks.decision': 'continue' }, '0000000000000002'),
      span('0000000000000001', 'execute_tool shell', 10n, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'shell', 'gen_ai.tool.call.id': 'c1' }),
      span('0000000000000003', 'chat gpt', 5n, { 'gen_ai.operation.name': 'chat' }),
    ]);
    expect(calls).toEqual([
      {
        traceId: T,
        spanId: '0000000000000001',
        startNs: 10n,
        tool: 'shell',
        callId: 'c1',
        arguments: undefined,
        result: undefined,
        outcome: undefined,
        effectiveTool: 'shell',
        before: { decision: 'continue', hook: null },
        after: undefined,
        executeMs: 0,
        attempt: 1,
      },
      {
        traceId: T,
        spanId: '0000000000000002',
        startNs: 20n,
        tool: 'fetch',
        callId: null,
        arguments: '{"url":"u"}',
        result: '"r2"',
        outcome: 'completed',
        effectiveTool: 'fetch_cached',
        before: { decision: 'redirect', hook: 'router' },
        after: { decision: 'continue', hook: null },
        executeMs: 1,
        attempt: 2,
      },
    ]);
  });

  it('reads a recorded Ask and Replace as such', () => {
    const [call] = recordedCalls([
      span('0000000000000001', 'execute_tool send_email', 10n, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'send_email', 'toolhooks.outcome': 'completed' }),
      span('00000000000000a1', 'toolhooks.before_tool', 11n, { 'toolhooks.decision': 'ask', 'toolhooks.decision.hook': 'mail-gate' }, '0000000000000001'),
      span('00000000000000a2', 'toolhooks.approval', 12n, { 'toolhooks.approval.outcome': 'approved' }, '0000000000000001'),
      span('00000000000000a3', 'toolhooks.after_tool', 14n, { 'toolhooks.decision': 'replace', 'toolhooks.decision.hook': 'scrub' }, '0000000000000001'),
    ]);
    expect(call?.before).toEqual({ decision: 'ask', hook: 'mail-gate' });
    expect(call?.after).toEqual({ decision: 'replace', hook: 'scrub' });
  });
});

describe('isReplaySpan', () => {
  it('holds tool calls and their phases only: the rest of a trace (model calls with whole prompts) is dropped as it is read', () => {
    expect(isReplaySpan(span('01', 'execute_tool shell', 1n, {}))).toBe(true);
    expect(isReplaySpan(span('02', 'whatever', 1n, { 'gen_ai.operation.name': 'execute_tool' }))).toBe(true);
    for (const name of ['toolhooks.before_tool', 'toolhooks.after_tool', 'toolhooks.execute']) expect(isReplaySpan(span('03', name, 1n, {}, '01'))).toBe(true);
    expect(isReplaySpan(span('04', 'chat gpt-4', 1n, { 'gen_ai.operation.name': 'chat', 'gen_ai.prompt': 'p'.repeat(1000) }))).toBe(false);
    expect(isReplaySpan(span('05', 'GET /api', 1n, {}))).toBe(false);
  });
});
