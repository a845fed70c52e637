/**
 * Recorded tool calls as OTLP/JSON text, written by hand the way an OTel Collector's file exporter writes
 * them: for the replay tests that need a source without running an SDK.
 */

/** One recorded `execute_tool` call, and optionally its before_tool decision. */
export interface TrafficCall {
  readonly tool: string;
  readonly args?: Record<string, unknown>;
  readonly callId?: string;
  /** The recorded before_tool decision and its hook; none means no hook decided (continue). */
  readonly before?: { readonly decision: string; readonly hook: string };
  /** When the call started, in ms after the first call's time; default: its index (calls 1 ms apart). */
  readonly atMs?: number;
}

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

const attribute = (key: string, value: string): { key: string; value: { stringValue: string } } => ({ key, value: { stringValue: value } });

/**
 * One OTLP/JSON object holding the calls, in one trace (`traceId`, 32 hex digits, to tell objects apart).
 *
 * @example
 * ```ts
 * writeFileSync(file, otlpTraffic([{ tool: 'shell', args: { cmd: 'ls' } }]));
 * ```
 */
export function otlpTraffic(calls: readonly TrafficCall[], traceId = TRACE_ID): string {
  const spans = calls.flatMap((call, index) => {
    const spanId = (index + 1).toString(16).padStart(16, '0');
    const start = BigInt(1_764_460_800_000_000_000) + BigInt(call.atMs ?? index) * 1_000_000n;
    const attributes = [attribute('gen_ai.operation.name', 'execute_tool'), attribute('gen_ai.tool.name', call.tool)];
    if (call.args !== undefined) attributes.push(attribute('gen_ai.tool.call.arguments', JSON.stringify(call.args)));
    if (call.callId !== undefined) attributes.push(attribute('gen_ai.tool.call.id', call.callId));
    const callSpan = { traceId, spanId, name: `execute_tool ${call.tool}`, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 500_000n), attributes };
    if (call.before === undefined) return [callSpan];
    const phaseSpan = {
      traceId,
      spanId: (index + 1).toString(16).padStart(8, '0').padEnd(16, 'a'),
      parentSpanId: spanId,
      name: 'toolhooks.before_tool',
      startTimeUnixNano: String(start + 1n),
      endTimeUnixNano: String(start + 2n),
      attributes: [attribute('toolhooks.decision', call.before.decision), attribute('toolhooks.decision.hook', call.before.hook)],
    };
    return [callSpan, phaseSpan];
  });
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [] }, scopeSpans: [{ scope: { name: 'toolhooks' }, spans }] }] });
}
