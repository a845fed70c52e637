/**
 * Every read of OpenTelemetry state that no public API exposes, in one place. toolhooks reads it only
 * where the API has no way to ask: the limits an SDK span applies, the name and attributes of the span a
 * framework started, and which providers and diag logger are registered in the API's global slots. Each
 * read is of a shape the SDK or API may change in any release; `test/unit/telemetry/otel-private.test.ts`
 * checks every one against the real packages of each SDK line (the main lane and the sdk2 lane), so a
 * change fails there, by name, instead of silently switching a feature off. Callers guard every read
 * (a hostile getter may throw) and fall back to what the public API gives.
 * @internal
 */
import type { Span } from '@opentelemetry/api';

/** The limits an SDK span applies (SDK 2 and 3: `SpanLimits`, kept on the span as `_spanLimits`). */
interface SdkSpanLimits {
  readonly attributeValueLengthLimit?: unknown;
  readonly eventCountLimit?: unknown;
}

/** What an SDK span keeps beyond the API's interface (SDK 2 and 3 alike). */
interface SdkSpanState {
  readonly _spanLimits?: SdkSpanLimits | null;
  readonly _attributeValueLengthLimit?: unknown;
  readonly name?: unknown;
  readonly attributes?: unknown;
}

/** Where `@opentelemetry/api` 1.x keeps its globals (`trace`, `metrics`, `diag`, and `logs` from 1.10 on). */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');
/** Where `@opentelemetry/api-logs` (any copy) keeps a getter of its global LoggerProvider. */
const API_LOGS_GLOBAL = Symbol.for('io.opentelemetry.js.api.logs');

/**
 * The limits `span` applies, or `undefined` when it carries none (a non-recording span, another SDK).
 * May throw (a hostile getter).
 *
 * @example
 * ```ts
 * sdkSpanLimits(span)?.eventCountLimit; // 128 on an SDK span with the default limits
 * ```
 */
export function sdkSpanLimits(span: Span): SdkSpanLimits | undefined {
  const limits = (span as unknown as SdkSpanState)._spanLimits;
  return typeof limits === 'object' && limits !== null ? limits : undefined;
}

/**
 * The string attribute length limit SDK 2 also copies to its own field (`_attributeValueLengthLimit`), or
 * `undefined`. May throw (a hostile getter).
 *
 * @example
 * ```ts
 * sdkSpanLimits(span)?.attributeValueLengthLimit ?? sdkSpanLengthLimitField(span);
 * ```
 */
export function sdkSpanLengthLimitField(span: Span): unknown {
  return (span as unknown as SdkSpanState)._attributeValueLengthLimit;
}

/**
 * The name an SDK span was started with and its attributes so far (`ReadableSpan`'s `name` and
 * `attributes`, which the API's `Span` does not declare); each `undefined` when the span has no such
 * member or not of that type. May throw (a hostile getter).
 *
 * @example
 * ```ts
 * const { name, attributes } = sdkSpanNameAndAttributes(trace.getActiveSpan()!);
 * ```
 */
export function sdkSpanNameAndAttributes(span: Span): { readonly name: string | undefined; readonly attributes: Readonly<Record<string, unknown>> | undefined } {
  const state = span as unknown as SdkSpanState;
  const name = state.name;
  const attributes = state.attributes;
  return {
    name: typeof name === 'string' ? name : undefined,
    attributes: typeof attributes === 'object' && attributes !== null ? (attributes as Readonly<Record<string, unknown>>) : undefined,
  };
}

/**
 * The registrations in `@opentelemetry/api`'s global slot, shared by every copy of the API 1.x in the
 * process: whether a diag logger and (API 1.10) a LoggerProvider are registered. The API has no getter
 * that tells a registered one from its no-op or proxy. May throw (a hostile global).
 *
 * @example
 * ```ts
 * apiGlobalRegistrations().diag; // true once diag.setLogger(...) was called
 * ```
 */
export function apiGlobalRegistrations(): { readonly diag: boolean; readonly logs: boolean } {
  const slot = (globalThis as Record<symbol, unknown>)[API_GLOBAL];
  if (typeof slot !== 'object' || slot === null) return { diag: false, logs: false };
  const { diag, logs } = slot as { diag?: unknown; logs?: unknown };
  return { diag: diag !== undefined, logs: logs !== undefined };
}

/**
 * The getter `@opentelemetry/api-logs` registers for its global LoggerProvider (called with the
 * compatibility version it answers to), or `undefined` when no copy of it registered one. May throw.
 *
 * @example
 * ```ts
 * const provider = apiLogsGlobalGetter()?.(1);
 * ```
 */
export function apiLogsGlobalGetter(): ((version: number) => unknown) | undefined {
  const getter = (globalThis as Record<symbol, unknown>)[API_LOGS_GLOBAL];
  return typeof getter === 'function' ? (getter as (version: number) => unknown) : undefined;
}
