/**
 * Example support: prints every trace as a tree on stdout. In your app use `startTelemetry()` from
 * `toolhooks/node` instead (it exports over OTLP, or prints trees with `{ console: 'tree' }`).
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { TreeSpanExporter } from '../../src/node/tree-exporter.js';

/** Registers a tracer provider that prints trees; returns its shutdown. */
export function printTraces(): () => Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new TreeSpanExporter())] });
  trace.setGlobalTracerProvider(provider);
  return () => provider.shutdown();
}
