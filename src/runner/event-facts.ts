/**
 * What a built-in observer may read beside an event, and user observers never see: the arguments the event
 * is about and the span it was recorded on. The receipt hook digests the arguments (they never leave this
 * process) and names the span. Kept beside the event, not on it, so the public event shapes and what user
 * observers receive stay as they are; set only while an event is delivered (delivery is synchronous) and
 * only when a hook marked with {@link READS_EVENT_FACTS} observes.
 * @internal
 */
import type { Span } from '@opentelemetry/api';
import type { ToolArgs, ToolHookEvent } from '../hook.js';

/** Marks a hook that reads the facts of the event it is given. */
export const READS_EVENT_FACTS: unique symbol = Symbol('toolhooks.readsEventFacts');

/** The events being delivered, innermost last (an observer may make a call that delivers more), with their facts. */
const delivering: (ToolHookEvent | ToolArgs | Span | undefined)[] = [];

/** Marks `event` as being delivered, with the arguments it is about and its span, until {@link endEventFacts}. */
export function beginEventFacts(event: ToolHookEvent, args: ToolArgs, span: Span | undefined): void {
  delivering.push(event, args, span);
}

/** Ends the delivery begun last. */
export function endEventFacts(): void {
  delivering.length -= 3;
}

/**
 * The arguments and span of `event` while it is delivered: phase events, the arguments the phase's hooks
 * were given; approval events, those asked about; tool events, the requested ones. Undefined for an event
 * delivered without them.
 */
export function eventFacts(event: ToolHookEvent): { readonly args: ToolArgs; readonly span: Span | undefined } | undefined {
  const at = delivering.length - 3;
  if (at < 0 || delivering[at] !== event) return undefined;
  return { args: delivering[at + 1] as ToolArgs, span: delivering[at + 2] as Span | undefined };
}
