/**
 * The span exporters behind `startTelemetry({ console })`. Both wait, in `forceFlush()` and `shutdown()`,
 * until what they printed has left the process, so `await telemetry.shutdown(); process.exit(0)` keeps
 * every line. Both print control characters escaped: `true` prints, through `console.dir`, a copy of each
 * span whose strings went through `escapeControlCharacters` (Node's inspect escapes C0, DEL and C1 but
 * leaves U+2028/U+2029 and the bidirectional controls raw), `'tree'` through the tree exporter's own
 * escaping.
 * @internal
 */
import type { Context } from '@opentelemetry/api';
import { TraceFlags } from '@opentelemetry/api';
import { escapeControlCharacters } from '../telemetry/capture/sanitize.js';
import { reportTelemetryFailure } from '../telemetry/failures.js';
import { stdoutFlushed } from './stdout.js';
import { ConsoleSpanExporter, ExportResultCode } from './sdk-parts.js';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from './sdk-parts.js';
import { TreeSpanExporter } from './tree-exporter.js';

/** How spans are printed: `true` one object per span, `'tree'` one indented tree per trace. */
type ConsoleMode = true | 'tree';

/** The SDK's console exporter, whose flush and shutdown also wait for stdout. */
class FlushingConsoleSpanExporter extends ConsoleSpanExporter {
  override export(spans: ReadableSpan[], resultCallback: Parameters<SpanExporter['export']>[1]): void {
    super.export(spans.map(printableSpan), resultCallback);
  }

  override async forceFlush(): Promise<void> {
    await super.forceFlush();
    await stdoutFlushed();
  }

  override async shutdown(): Promise<void> {
    await super.shutdown();
    await stdoutFlushed();
  }
}

/**
 * Prints each span as it ends, in the order spans end. The SDK's simple span processor holds back the
 * spans that end before the resource's asynchronous attributes (host id…) settle, and exports the later
 * ones at once: the first trace's root would arrive before its children and be printed without them.
 */
export class ConsoleSpanProcessor implements SpanProcessor {
  readonly #exporter: SpanExporter;
  #chain: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(mode: ConsoleMode) {
    this.#exporter = createConsoleSpanExporter(mode);
  }

  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.#stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.#chain = this.#chain.then(async () => {
      try {
        if (span.resource.asyncAttributesPending === true) await span.resource.waitForAsyncAttributes?.();
        await new Promise<void>((resolve) => {
          this.#exporter.export([span], (result) => {
            if (result.code !== ExportResultCode.SUCCESS) reportTelemetryFailure('console span export', result.error);
            resolve();
          });
        });
      } catch (error) {
        reportTelemetryFailure('console span export', error);
      }
    });
  }

  async forceFlush(): Promise<void> {
    await this.#chain;
    await this.#exporter.forceFlush?.();
  }

  async shutdown(): Promise<void> {
    this.#stopped = true;
    await this.#chain;
    await this.#exporter.shutdown();
  }
}

/**
 * The span as `console.dir` should see it: every string the SDK's console exporter prints (name,
 * attribute keys and values, status message, events, links, resource attributes) escaped. A view
 * over the span (its prototype), so whatever else the exporter reads is the span's own.
 */
function printableSpan(span: ReadableSpan): ReadableSpan {
  const resource = Object.create(span.resource, { attributes: { value: printable(span.resource.attributes) } }) as ReadableSpan['resource'];
  return Object.create(span, {
    name: { value: escapeControlCharacters(span.name) },
    attributes: { value: printable(span.attributes) },
    status: { value: printable(span.status) },
    events: { value: printable(span.events) },
    links: { value: printable(span.links) },
    resource: { value: resource },
  }) as ReadableSpan;
}

/** A copy of plain data (attributes, events, status) with every string escaped; other values as they are. */
function printable<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return escapeControlCharacters(value) as T;
  if (typeof value !== 'object' || value === null || depth > 4) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => printable(item, depth + 1)) as T;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    Object.defineProperty(copy, escapeControlCharacters(key), { value: printable(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return copy as T;
}

/** The exporter that prints spans for `mode`. */
export function createConsoleSpanExporter(mode: ConsoleMode): SpanExporter {
  switch (mode) {
    case true:
      return new FlushingConsoleSpanExporter();
    case 'tree':
      return new TreeSpanExporter();
  }
}
