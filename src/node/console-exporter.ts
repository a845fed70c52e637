/**
 * The span exporter behind `startTelemetry({ console })`.
 * @internal
 */
import { ConsoleSpanExporter } from '@opentelemetry/sdk-trace';
import type { SpanExporter } from '@opentelemetry/sdk-trace';

/** How spans are printed: `true` one object per span, `'tree'` one indented tree per trace. */
export type ConsoleMode = true | 'tree';

/**
 * The exporter that prints spans for `mode`. `'tree'` is accepted already so that code written against
 * it keeps working; until the tree printer lands it prints what `true` prints.
 */
export function createConsoleSpanExporter(mode: ConsoleMode): SpanExporter {
  switch (mode) {
    case true:
    case 'tree': // seam: the tree printer replaces this case
      return new ConsoleSpanExporter();
  }
}
