import { describe, expect, it } from 'vitest';
import { ReplayInputError } from '../../../src/replay/index.js';
import { OtlpJsonReader, parseOtlpJson } from '../../../src/replay/otlp-json.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

function doc(spans: unknown[]): { resourceSpans: unknown[] } {
  return { resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'toolhooks' }, spans }] }] };
}

const span = {
  traceId: TRACE,
  spanId: SPAN,
  name: 'execute_tool shell',
  startTimeUnixNano: '1764460800000000001',
  attributes: [
    { key: 'gen_ai.tool.name', value: { stringValue: 'shell' } },
    { key: 'toolhooks.retries', value: { intValue: '2' } },
    { key: 'toolhooks.redirected', value: { boolValue: false } },
    { key: 'list', value: { arrayValue: { values: [] } } },
  ],
};

describe('parseOtlpJson', () => {
  it('reads one object: ids, parent, start time, scalar attributes (int64 given as a string too)', () => {
    const [parsed] = parseOtlpJson(JSON.stringify(doc([span])), 'f.json');
    expect(parsed).toEqual({
      traceId: TRACE,
      spanId: SPAN,
      parentSpanId: '',
      name: 'execute_tool shell',
      startNs: 1764460800000000001n,
      endNs: 0n,
      attributes: new Map<string, unknown>([
        ['gen_ai.tool.name', 'shell'],
        ['toolhooks.retries', 2],
        ['toolhooks.redirected', false],
      ]),
    });
  });

  it('passes over OTLP/JSON log lines written beside the traces (decision records as log events)', () => {
    const logs = {
      resourceLogs: [{ scopeLogs: [{ logRecords: [{ eventName: 'toolhooks.hook.decision', traceId: TRACE, spanId: SPAN, attributes: [{ key: 'toolhooks.decision', value: { stringValue: 'abort' } }] }] }] }],
    };
    const text = `${JSON.stringify(logs)}\n${JSON.stringify(doc([span]))}\n${JSON.stringify(logs)}\n`;
    expect(parseOtlpJson(text, 'f').map((s) => s.name)).toEqual(['execute_tool shell']);
    expect(() => parseOtlpJson(JSON.stringify({ resourceLogs: 'x' }), 'f')).toThrow(ReplayInputError);
  });

  it('reads base64 ids (protobuf JSON mapping) as lower-case hex', () => {
    const b64 = { ...span, traceId: Buffer.from(TRACE, 'hex').toString('base64'), spanId: Buffer.from(SPAN, 'hex').toString('base64') };
    const [parsed] = parseOtlpJson(JSON.stringify(doc([b64])), 'f.json');
    expect([parsed?.traceId, parsed?.spanId]).toEqual([TRACE, SPAN]);
  });

  it('reads one object per line, Jaeger {"result": …} bodies, and keeps a span seen twice once', () => {
    const child = { ...span, spanId: 'a'.repeat(16), parentSpanId: SPAN, name: 'toolhooks.before_tool' };
    const text = `${JSON.stringify(doc([span]))}\n\n${JSON.stringify({ result: doc([child, span]) })}\n`;
    expect(parseOtlpJson(text, 'f').map((s) => [s.name, s.parentSpanId])).toEqual([
      ['execute_tool shell', ''],
      ['toolhooks.before_tool', SPAN],
    ]);
  });

  it.each([
    ['', 'f: empty, expected OTLP/JSON traces'],
    ['hello', 'f: not JSON, neither one object nor one object per line ('],
    [`${JSON.stringify(doc([span]))}\n{"resourceSpans":[{"scopeSp`, 'f: line 2 is not valid JSON, truncated? ('],
    ['{"data":[]}', 'f: not OTLP/JSON traces (no resourceSpans array)'],
    ['[1]', 'f: not OTLP/JSON traces (expected an object with resourceSpans)'],
    ['{"error":{"httpCode":404,"message":"trace not found"}}', 'f: the trace store answered an error: trace not found'],
    [JSON.stringify(doc([{ ...span, spanId: 'xyz' }])), 'f: resourceSpans[0].scopeSpans[0].spans[0] has no valid traceId/spanId'],
    ['{"resourceSpans":[{"scopeSpans":{}}]}', 'f: resourceSpans[0].scopeSpans is not an array'],
  ])('rejects %j with one line naming the problem', (text, message) => {
    let thrown: unknown;
    try {
      parseOtlpJson(text, 'f');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ReplayInputError);
    expect((thrown as Error).message.startsWith(message)).toBe(true);
    expect((thrown as Error).message).not.toContain('\n');
  });
});

describe('OtlpJsonReader', () => {
  const child = { ...span, spanId: 'a'.repeat(16), parentSpanId: SPAN, name: 'toolhooks.before_tool' };
  function pushed(text: string, size: number): string[] {
    const reader = new OtlpJsonReader('f');
    for (let at = 0; at < text.length; at += size) reader.push(text.slice(at, at + size));
    return reader.end().map((s) => s.name);
  }

  it('reads JSON lines and one pretty-printed object the same, whatever the chunk boundaries', () => {
    const lines = `\n${JSON.stringify(doc([span]))}\r\n${JSON.stringify({ result: doc([child]) })}\n`;
    const pretty = JSON.stringify(doc([span, child]), null, 2);
    for (const size of [1, 7, 64, 100_000]) {
      expect(pushed(lines, size)).toEqual(['execute_tool shell', 'toolhooks.before_tool']);
      expect(pushed(pretty, size)).toEqual(['execute_tool shell', 'toolhooks.before_tool']);
    }
  });

  it('names the line of a bad JSON line even when it arrives in pieces', () => {
    const text = `${JSON.stringify(doc([span]))}\n\n{"resourceSpans":[{"scopeSp\n`;
    expect(() => pushed(text, 5)).toThrow(/^f: line 3 is not valid JSON, truncated\? \(/);
  });
});
