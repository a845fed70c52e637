/**
 * The limits a span will apply. The OpenTelemetry SDK cuts every string attribute longer than
 * `spanLimits.attributeValueLengthLimit` (or `OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT` /
 * `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`), which would leave captured JSON cut mid-value: invalid, and unreadable
 * for replay; and past `spanLimits.eventCountLimit` (`OTEL_SPAN_EVENT_COUNT_LIMIT`, 128 by default) it drops a
 * span's oldest events, which on a phase span can be the winning decision and the hook errors. Capture writes
 * its JSON within the one, phase spans choose their events within the other. The API has no way to ask a
 * span for its limits, so the SDK span's own fields are read (guarded; otel-private.ts holds the reads),
 * with the environment variables as the fallback.
 * @internal
 */
import type { Span } from '@opentelemetry/api';
import { sdkSpanLengthLimitField, sdkSpanLimits } from './otel-private.js';

let lengthFromEnvironment: number | undefined | null = null;
let eventsFromEnvironment: number | undefined | null = null;

/** The string attribute length `span` keeps, when it has a finite one; never throws. */
export function attributeLengthLimit(span: Span): number | undefined {
  try {
    const limits = sdkSpanLimits(span);
    const own = limits?.attributeValueLengthLimit ?? sdkSpanLengthLimitField(span);
    if (typeof own === 'number') return positive(own);
    if (limits !== undefined) return undefined;
  } catch {
    // a span with hostile getters: fall back to the environment
  }
  if (lengthFromEnvironment === null) lengthFromEnvironment = environmentLimit('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT', 'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT');
  return lengthFromEnvironment;
}

/** How many events `span` keeps, when it has a finite limit; never throws. */
export function eventCountLimit(span: Span): number | undefined {
  try {
    const limits = sdkSpanLimits(span);
    if (limits !== undefined) {
      const own = limits.eventCountLimit;
      return typeof own === 'number' && Number.isFinite(own) && own >= 0 ? Math.floor(own) : undefined;
    }
  } catch {
    // a span with hostile getters: fall back to the environment
  }
  if (eventsFromEnvironment === null) eventsFromEnvironment = environmentLimit('OTEL_SPAN_EVENT_COUNT_LIMIT');
  return eventsFromEnvironment;
}

function environmentLimit(...names: string[]): number | undefined {
  if (typeof process === 'undefined' || typeof process.env !== 'object') return undefined;
  for (const name of names) {
    const text = process.env[name];
    if (text !== undefined && text.trim() !== '') return positive(Number(text));
  }
  return undefined;
}

function positive(value: number): number | undefined {
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}
