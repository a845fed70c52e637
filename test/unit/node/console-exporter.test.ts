import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConsoleSpanExporter } from '../../../src/node/console-exporter.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();

afterEach(() => {
  vi.restoreAllMocks();
});

/** What a terminal would act on and Node's inspect leaves raw: line/paragraph separators and bidi controls. */
const RAW = /[\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe("console: true (the SDK's console exporter)", () => {
  it('prints tool names, attributes, events and the status with every control and bidi character escaped', async () => {
    tracing.reset();
    const span = tracing.tracer.startSpan('execute_tool invoice\u202efdp.exe');
    span.setAttribute('gen_ai.tool.name', 'invoice\u202efdp.exe');
    span.setAttribute('note\u2066', 'line\u2028forged\u2029\u001b[2J');
    span.addEvent('toolhooks.hook.decision', { 'toolhooks.decision.reason': 'ok\u202e' });
    span.setStatus({ code: 2, message: 'failed\u2028here' });
    span.end();
    const printed: unknown[] = [];
    vi.spyOn(console, 'dir').mockImplementation((value: unknown) => void printed.push(value));
    const exporter = createConsoleSpanExporter(true);
    await new Promise<void>((done) => exporter.export(tracing.spans(), () => done()));
    expect(printed).toHaveLength(1);
    const text = inspect(printed[0], { depth: 3 });
    expect(text).not.toMatch(RAW);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('invoice\\\\u202efdp.exe');
    expect(text).toContain('line\\\\u2028forged\\\\u2029\\\\u001b[2J');
    expect(text).toContain('failed\\\\u2028here');
    expect(text).toContain('ok\\\\u202e');
    // The span itself is untouched: exporters that send it elsewhere get the exact text.
    expect(tracing.spans()[0]?.name).toBe('execute_tool invoice\u202efdp.exe');
  });
});
