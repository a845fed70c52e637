/**
 * Which call an executor run belongs to, for an adapter whose calls may record on the `execute_tool` span
 * that covers them (the MCP adapter's `span: 'outer'`): inside a hooked tool's executor the active span
 * is its `toolhooks.execute` run, whose call span the API cannot reach. Kept only once such an adapter
 * exists, so that no other call pays for it; a WeakMap, so nothing outlives its span.
 * @internal
 */
import type { Span } from '@opentelemetry/api';

let tracking = false;
const callOf = new WeakMap<Span, Span>();

/** From now on, every traced executor run remembers its call's span. */
export function trackCallSpans(): void {
  tracking = true;
}

/** Remembers that the executor run `execute` belongs to the call span `call` (when tracking). */
export function noteExecuteRun(execute: Span, call: Span): void {
  if (tracking) callOf.set(execute, call);
}

/** The call span of an executor run's span, when it was remembered. */
export function callSpanOfRun(execute: Span): Span | undefined {
  return callOf.get(execute);
}
