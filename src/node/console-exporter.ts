/**
 * The span exporters behind `startTelemetry({ console })`. Both wait, in `forceFlush()` and `shutdown()`,
 * until what they printed has left the process, so `await telemetry.shutdown(); process.exit(0)` keeps
 * every line. Both print control characters escaped: `true` through `console.dir` (Node's inspect writes
 * C0, DEL and C1 in strings as `\xNN`), `'tree'` through the tree exporter's own escaping.
 * @internal
 */
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { stdoutFlushed } from './stdout.js';
import { TreeSpanExporter } from './tree-exporter.js';

/** How spans are printed: `true` one object per span, `'tree'` one indented tree per trace. */
export type ConsoleMode = true | 'tree';

/** The SDK's console exporter, whose flush and shutdown also wait for stdout. */
class FlushingConsoleSpanExporter extends ConsoleSpanExporter {
  override async forceFlush(): Promise<void> {
    await super.forceFlush();
    await stdoutFlushed();
  }

  override async shutdown(): Promise<void> {
    await super.shutdown();
    await stdoutFlushed();
  }
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
