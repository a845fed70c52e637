/**
 * The attribute length limit a span will apply. The OpenTelemetry SDK cuts every string attribute longer
 * than `spanLimits.attributeValueLengthLimit` (or `OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT` /
 * `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`), which would leave captured JSON cut mid-value: invalid, and unreadable
 * for replay. Capture writes its JSON within this limit instead. The API has no way to ask a span for its
 * limits, so the SDK span's own field is read (guarded), with the environment variables as the fallback.
 * @internal
 */
import type { Span } from '@opentelemetry/api';

let fromEnvironment: number | undefined | null = null;

/** The string attribute length `span` keeps, when it has a finite one; never throws. */
export function attributeLengthLimit(span: Span): number | undefined {
  try {
    // SDK 3 keeps the limits on the span (`_spanLimits`), SDK 2 also copies this one to its own field.
    const sdkSpan = span as unknown as { _spanLimits?: { attributeValueLengthLimit?: unknown }; _attributeValueLengthLimit?: unknown };
    const own = sdkSpan._spanLimits?.attributeValueLengthLimit ?? sdkSpan._attributeValueLengthLimit;
    if (typeof own === 'number') return positive(own);
    if (sdkSpan._spanLimits !== undefined) return undefined;
  } catch {
    // a span with hostile getters: fall back to the environment
  }
  if (fromEnvironment === null) fromEnvironment = environmentLimit();
  return fromEnvironment;
}

function environmentLimit(): number | undefined {
  if (typeof process === 'undefined' || typeof process.env !== 'object') return undefined;
  const text = process.env.OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT ?? process.env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT;
  return text === undefined || text.trim() === '' ? undefined : positive(Number(text));
}

function positive(value: number): number | undefined {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}
