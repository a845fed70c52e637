/**
 * What a built-in observer may read beside an event, and user observers never see: the arguments the event
 * is about and the span it was recorded on. The receipt hook digests the arguments (they never leave this
 * process) and names the span. Kept beside the event, not on it, so the public event shapes and what user
 * observers receive stay as they are; recorded only when a hook marked with {@link READS_EVENT_FACTS}
 * observes.
 * @internal
 */
import type { Span } from '@opentelemetry/api';
import type { ToolArgs, ToolHookEvent } from '../hook.js';

/** Marks a hook that reads {@link eventFacts}. */
export const READS_EVENT_FACTS: unique symbol = Symbol('toolhooks.readsEventFacts');

/** The arguments and span of one event. */
interface EventFacts {
  /** Phase: the arguments the phase's hooks were given; approval: those asked about; tool: the requested ones. */
  readonly args: ToolArgs;
  /** The span the event was recorded on, when it records. */
  readonly span: Span | undefined;
}

const FACTS = new WeakMap<ToolHookEvent, EventFacts>();

/** Keeps the facts of an event until it is collected. */
export function keepEventFacts(event: ToolHookEvent, facts: EventFacts): void {
  FACTS.set(event, facts);
}

/** The facts of an event, when an observer that reads them was registered as it was delivered. */
export function eventFacts(event: ToolHookEvent): EventFacts | undefined {
  return FACTS.get(event);
}
