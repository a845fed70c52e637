/**
 * Security: newlines and terminal escapes in a decision reason reach the caller unchanged and survive a
 * real OTLP/JSON export byte for byte (the in-process checks of the same reasons are in
 * test/unit/runner.security.test.ts).
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { TracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { HookAbortError, HookRunner, abort, executeTool } from '../../../src/index.js';
import {
  ATTR_DECISION_REASON,
  EVENT_HOOK_DECISION,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../../../src/telemetry/semconv.js';
import { OtlpReceiver } from '../../support/otlp-receiver.js';

describe('newlines and terminal escapes in reasons and messages', () => {
  const NASTY = 'refused\n2026-01-01 INFO forged: all clear\r\n\u001b[2J\u001b[31mred\u001b[0m\u2028\u0085\u0000end';

  it('reach the caller unchanged and survive OTLP/JSON export byte for byte', async () => {
    const receiver = await OtlpReceiver.start();
    const provider = new TracerProvider({
      spanProcessors: [new SimpleSpanProcessor({ exporter: new OTLPTraceExporter({ url: receiver.endpoint('traces') }) })],
    });
    try {
      const hooks = new HookRunner({ tracer: provider.getTracer('toolhooks'), hooks: [{ name: 'gate', beforeTool: () => abort(NASTY) }] });
      const error = await executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 'ran' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HookAbortError);
      expect((error as HookAbortError).reason).toBe(NASTY);
      await provider.forceFlush();
      await receiver.waitFor((r) => r.spans().length >= 2);
      const phase = receiver.spans().find((span) => span.name === SPAN_BEFORE_TOOL)!;
      expect(phase.events.find((event) => event.name === EVENT_HOOK_DECISION)?.attributes[ATTR_DECISION_REASON]).toBe(NASTY);
      const root = receiver.spans().find((span) => span.name === `${SPAN_EXECUTE_TOOL_PREFIX} shell`)!;
      expect(root.status.message).toBe(NASTY);
      expect(receiver.requests().every((request) => request.decodeError === undefined)).toBe(true);
    } finally {
      await provider.shutdown();
      await receiver.stop();
    }
  });
});
