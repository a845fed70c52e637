/**
 * Example-only tracing: a real OpenTelemetry SDK that keeps finished spans in memory so the
 * examples can print the span tree. A real agent would call `startTelemetry()` from
 * `toolhooks/node` (or its own SDK setup) and look at the traces in Jaeger instead.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Installs a global tracer provider; returns a function that prints the spans as a tree. */
export function setUpTracing(): { printSpanTree: (describe?: (span: ReadableSpan) => string) => void } {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

  return {
    printSpanTree(describe = () => '') {
      const spans = exporter.getFinishedSpans();
      const ids = new Set(spans.map((span) => span.spanContext().spanId));
      const started = (span: ReadableSpan): number => span.startTime[0] * 1e9 + span.startTime[1];
      const print = (parentId: string | undefined, depth: number): void => {
        const children = spans
          .filter((span) => (parentId === undefined ? !ids.has(span.parentSpanContext?.spanId ?? '') : span.parentSpanContext?.spanId === parentId))
          .sort((a, b) => started(a) - started(b));
        for (const span of children) {
          console.log(`${'  '.repeat(depth)}${span.name}${describe(span)}`);
          print(span.spanContext().spanId, depth + 1);
        }
      };
      print(undefined, 0);
    },
  };
}
