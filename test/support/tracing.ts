/**
 * An in-memory trace pipeline for tests: a real SDK tracer provider whose finished spans are read
 * back, with the AsyncLocalStorage context manager so parent/child links across awaits are real.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { expect } from 'vitest';
import { newTracerProvider, simpleSpanProcessor } from './sdk.js';
import type { TestTracerProvider } from './sdk.js';

let contextManagerInstalled = false;

/** Installs the AsyncLocalStorage context manager once per test process. */
export function installContextManager(): void {
  if (contextManagerInstalled) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerInstalled = true;
}

export interface TestTracing {
  readonly provider: TestTracerProvider;
  readonly exporter: InMemorySpanExporter;
  readonly tracer: ReturnType<TestTracerProvider['getTracer']>;
  spans(): ReadableSpan[];
  spansNamed(name: string): ReadableSpan[];
  /** The one finished span with this name; fails the test when there is not exactly one. */
  onlySpan(name: string): ReadableSpan;
  reset(): void;
}

/** A tracer provider with an in-memory exporter; spans are exported as soon as they end. */
export function createTestTracing(): TestTracing {
  installContextManager();
  const exporter = new InMemorySpanExporter();
  const provider = newTracerProvider({ spanProcessors: [simpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('toolhooks');
  return {
    provider,
    exporter,
    tracer,
    spans: () => exporter.getFinishedSpans(),
    spansNamed: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    onlySpan: (name) => {
      const spans = exporter.getFinishedSpans().filter((span) => span.name === name);
      expect(spans, `spans named ${name}`).toHaveLength(1);
      return spans[0] as ReadableSpan;
    },
    reset: () => exporter.reset(),
  };
}

/** The events of a span with the given name, as `{ name, attributes }`. */
export function eventsOf(span: ReadableSpan, name?: string): { name: string; attributes: Record<string, unknown> }[] {
  return span.events
    .filter((event) => name === undefined || event.name === name)
    .map((event) => ({ name: event.name, attributes: { ...(event.attributes ?? {}) } }));
}
