/**
 * What a scenario records: the spans of a few calls, reduced to a shape (name, parent name, attribute
 * keys, event names) that the library and its hand-written baseline must share.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { TracingSdk } from './sdk.js';
import type { Call } from './measure.js';

/** One span's shape; values that vary per call (ids, times, durations) are left out. */
export interface SpanShape {
  readonly name: string;
  readonly parent: string | undefined;
  readonly attributes: readonly string[];
  readonly events: readonly string[];
}

/** The shapes of the spans `calls` calls record, sorted; needs the tracing SDK installed. */
export async function recordShapes(sdk: TracingSdk, call: Call, calls: number): Promise<SpanShape[]> {
  await sdk.flush();
  const spans: ReadableSpan[] = [];
  sdk.exporter.keep = (span) => spans.push(span);
  try {
    for (let index = 0; index < calls; index += 1) await call();
    await sdk.flush();
  } finally {
    sdk.exporter.keep = undefined;
  }
  const names = new Map(spans.map((span) => [span.spanContext().spanId, span.name]));
  return spans
    .map((span) => ({
      name: span.name,
      parent: span.parentSpanContext === undefined ? undefined : names.get(span.parentSpanContext.spanId),
      attributes: Object.keys(span.attributes).sort(),
      events: span.events.map((event) => `${event.name}(${Object.keys(event.attributes ?? {}).sort().join(',')})`),
    }))
    .sort((a, b) => (a.name + String(a.parent)).localeCompare(b.name + String(b.parent)));
}

/** `name ×count` per span name, e.g. `execute_tool search ×1, toolhooks.execute ×1`. */
export function spanCounts(shapes: readonly SpanShape[], calls: number): string {
  const counts = new Map<string, number>();
  for (const shape of shapes) counts.set(shape.name, (counts.get(shape.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${name} ×${count / calls}`).join(', ');
}
