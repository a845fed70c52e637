/**
 * The OpenTelemetry SDK set-up of the SDK scenarios: what a production process registers, with an
 * exporter that counts and discards so that the benchmark measures the instrumentation, not a network.
 */
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** A span exporter that counts what it is given and drops it, answering at once. */
export class DiscardingSpanExporter implements SpanExporter {
  exported = 0;
  /** When set, every exported span is also handed here (the smoke test reads them back). */
  keep: ((span: ReadableSpan) => void) | undefined;

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exported += spans.length;
    if (this.keep !== undefined) for (const span of spans) this.keep(span);
    resultCallback({ code: ExportResultCode.SUCCESS });
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** A registered tracing SDK: provider, its exporter, and the count of spans it dropped. */
export interface TracingSdk {
  readonly provider: BasicTracerProvider;
  readonly exporter: DiscardingSpanExporter;
  flush(): Promise<void>;
}

/**
 * Registers a BasicTracerProvider with a BatchSpanProcessor (default settings: 512-span batches, a
 * 2048-span queue) and the AsyncLocalStorage context manager as the process-wide globals. Once per
 * process: the no-SDK scenarios must run before this.
 */
export function installTracingSdk(): TracingSdk {
  const exporter = new DiscardingSpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(exporter)] });
  if (!context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())) {
    throw new Error('a global context manager was already registered');
  }
  if (!trace.setGlobalTracerProvider(provider)) throw new Error('a global tracer provider was already registered');
  return { provider, exporter, flush: () => provider.forceFlush() };
}
