/**
 * A runner's observers (hooks with `onEvent`) and the delivery of events to them: each observer whose
 * matcher accepts the tool is called through the guard; what one throws is reported and recorded on the
 * span the event is about, and never reaches the call.
 * @internal
 */
import type { Span } from '@opentelemetry/api';
import { callObserver, callSync } from './guard.js';
import { READS_EVENT_FACTS, beginEventFacts, endEventFacts } from './event-facts.js';
import type { HookEntry } from './hook-entry.js';
import type { ToolArgs, ToolHookEvent } from '../hook.js';
import type { Capture } from '../telemetry/capture/options.js';
import type { Recording } from '../telemetry/decision-records.js';
import { writeEvent } from '../telemetry/phase-span.js';
import { report } from '../telemetry/warn-once.js';

export class Observers<S> {
  readonly #entries: readonly HookEntry<S>[];
  /** How many hooks observe: a phase keeps room on its span for their failures. */
  readonly count: number;
  /** Whether an observer reads the events' arguments and spans (event-facts.ts). */
  readonly #keepFacts: boolean;

  constructor(
    entries: readonly HookEntry<S>[],
    /** How an observer's error text is bounded, like every error text. */
    readonly capture: Capture,
    /** Where an observer's failure is recorded: as the runner records its decisions. */
    readonly recording: Recording,
  ) {
    this.#entries = entries.filter((entry) => entry.hook.onEvent !== undefined);
    this.count = this.#entries.length;
    this.#keepFacts = this.#entries.some((entry) => READS_EVENT_FACTS in entry.hook);
  }

  /** Delivers an event to every observer whose matcher accepts the tool; their errors are swallowed. */
  notify(event: ToolHookEvent, toolName: string, span: Span | undefined, args?: ToolArgs): void {
    if (!this.#keepFacts || args === undefined) {
      this.#deliver(event, toolName, span);
      return;
    }
    beginEventFacts(event, args, span);
    try {
      this.#deliver(event, toolName, span);
    } finally {
      endEventFacts();
    }
  }

  #deliver(event: ToolHookEvent, toolName: string, span: Span | undefined): void {
    for (const entry of this.#entries) {
      const matches = entry.matches;
      if (matches !== undefined) {
        const result = callSync(() => matches(toolName));
        if (!result.ok || !result.value) continue;
      }
      const onEvent = entry.hook.onEvent;
      if (onEvent === undefined) continue;
      const failure = callObserver(() => onEvent.call(entry.hook, event));
      if (failure === undefined) continue;
      // Observers do not see the call's arguments; what they throw is bounded like every error text.
      const exception = this.capture.scrubber([]).describe(failure.error);
      report('warn', `toolhooks: observer "${entry.name}" threw in onEvent (${event.type} event for tool "${toolName}"): ${exception.message}`);
      if (span !== undefined) {
        writeEvent(span, this.capture, { type: 'error', hook: { ...entry, failureMode: 'open' }, kind: 'threw', exception }, this.recording);
      }
    }
  }
}
