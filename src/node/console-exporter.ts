/**
 * The span exporter behind `startTelemetry({ console })`.
 * @internal
 */
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { TreeSpanExporter } from './tree-exporter.js';

/** How spans are printed: `true` one object per span, `'tree'` one indented tree per trace. */
export type ConsoleMode = true | 'tree';

/** The exporter that prints spans for `mode`. */
export function createConsoleSpanExporter(mode: ConsoleMode): SpanExporter {
  switch (mode) {
    case true:
      return new ConsoleSpanExporter();
    case 'tree':
      return new TreeSpanExporter();
  }
}
