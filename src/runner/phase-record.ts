/**
 * What a phase records, when anything does: its span — started and ended here, and made active while
 * its hooks run — with its decision, shadowed-decision and hook-error events (held in a buffer when
 * they might not all fit the span's event limit) and its summary; and the observers' phase event. A
 * phase with no span and no observers has no record: its fold (`fold.ts`) runs with nothing written.
 * @internal
 */
import type { Context, Span } from '@opentelemetry/api';
import type { DecisionKind, HookDecision } from '../decisions.js';
import type { HookFailure, HookErrorKind, PhaseEvent, RecordedError, ShadowedDecision, ToolArgs } from '../hook.js';
import type { DroppedEvents, PhaseEventBuffer, PhaseSpanEvent } from '../telemetry/phase-span.js';
import { endPhaseSpan, logEvent, phaseEventBuffer, startPhaseSpan, writeEvent } from '../telemetry/phase-span.js';
import { isRecording } from '../telemetry/span.js';
import type { RunnerCore } from './core.js';
import type { FoldState } from './fold.js';
import type { HookEntry } from './hook-entry.js';
import type { Matched } from './phase-hooks.js';
import type { PhaseRequest } from './phase-request.js';
import type { OpenHookRecord } from './records.js';
import { failureRecord, hookRecord, shadowedRecord } from './records.js';

/**
 * Starts a phase's record: its span (unless the call's span does not record: a child of a span that
 * does not record need not exist), and the observers' records. Undefined when there is neither.
 */
export function openPhaseRecord<S>(core: RunnerCore<S>, request: PhaseRequest, matched: Matched<S>): PhaseRecord<S> | undefined {
  const span = request.traced === false ? undefined : startPhaseSpan(core.tracer, request.phase, request.toolName, core.recording);
  if (span === undefined && !core.hasObservers) return undefined;
  return new PhaseRecord<S>(span, matched.entries.length, core.hasObservers, core.observerCount);
}

/** A phase's span and observer records while it runs. */
export class PhaseRecord<S> {
  /** The span made active while the hooks run (recording or not, so that the hooks' spans follow its sampling). */
  readonly active: Span | undefined;
  /** The phase span when it records; events and summary go there. */
  readonly span: Span | undefined;
  /** Whether hook durations are read: they are recorded on the span and given to observers. */
  readonly timed: boolean;
  /** The context the phase was called in (set when its span is made active): where an approval waits. */
  outer: Context | undefined = undefined;
  shadowedCount = 0;
  errorCount = 0;
  winnerRecord: OpenHookRecord | undefined = undefined;
  askRecord: OpenHookRecord | undefined = undefined;
  /** Where the last decision event was held in the buffer (-1 when written or not held). */
  lastEvent = -1;
  /** Observer records, kept only when there are observers. */
  readonly records: OpenHookRecord[] | undefined;
  readonly shadowed: ShadowedDecision[] | undefined;
  readonly errors: HookFailure[] | undefined;
  readonly started: number;
  /** The span's events, held until the phase ends, when they might not all fit its event limit. */
  readonly buffer: PhaseEventBuffer | undefined;

  constructor(span: Span | undefined, hooks: number, observe: boolean, observers: number) {
    const recording = span !== undefined && isRecording(span) ? span : undefined;
    this.active = span;
    this.span = recording;
    this.records = observe ? [] : undefined;
    this.shadowed = observe ? [] : undefined;
    this.errors = observe ? [] : undefined;
    this.started = observe ? performance.now() : 0;
    this.timed = recording !== undefined || observe;
    this.buffer = recording === undefined ? undefined : phaseEventBuffer(recording, hooks, observers);
  }

  /** Records an invoked hook's decision (its span event and observer record); `failed` when it stands for a swallowed failure. */
  decided(core: RunnerCore<S>, entry: HookEntry<S>, decision: HookDecision, failed: boolean, durationMs: number): OpenHookRecord | undefined {
    const span = this.span;
    this.lastEvent = span === undefined ? -1 : this.#note(core, span, { type: 'decision', hook: entry, decision, durationMs });
    if (this.records === undefined) return undefined;
    const record = hookRecord(entry, failed ? undefined : decision, durationMs, core.capture);
    this.records.push(record);
    return record;
  }

  /** Records a swallowed failure: its span event and observer entry. */
  failed(core: RunnerCore<S>, entry: HookEntry<S>, kind: HookErrorKind, error: unknown, exception: RecordedError): void {
    this.errorCount += 1;
    if (this.span !== undefined) this.#note(core, this.span, { type: 'error', hook: entry, kind, exception });
    this.errors?.push(failureRecord(entry.name, entry.mode, kind, error, exception));
  }

  /** Marks the last decision as the winner's (its record, and its held event first to keep). */
  won(record: OpenHookRecord | undefined): void {
    this.winnerRecord = record;
    this.buffer?.markWinner(this.lastEvent);
  }

  /** Records `hook`'s decision as shadowed by `winner`'s: span event, observer entry (first or last), its record. */
  shadow(core: RunnerCore<S>, hook: string, decision: HookDecision, winner: string, record: OpenHookRecord | undefined, first: boolean): void {
    this.shadowedCount += 1;
    if (this.span !== undefined) this.#note(core, this.span, { type: 'shadowed', hook, decision, winner });
    if (this.shadowed !== undefined) {
      const entry = shadowedRecord(hook, decision, core.capture);
      if (first) this.shadowed.unshift(entry);
      else this.shadowed.push(entry);
    }
    if (record !== undefined) record.shadowedBy = winner;
  }

  /**
   * Writes one phase event (as the runner's `decisionRecords` say: a span event, a log event or both), or
   * holds its span event when the phase's events might not fit the span; returns its place when held.
   */
  #note(core: RunnerCore<S>, span: Span, event: PhaseSpanEvent): number {
    const buffer = this.buffer;
    if (buffer === undefined) {
      writeEvent(span, core.capture, event, core.recording);
      return -1;
    }
    const recording = core.recording;
    if (recording.logEvents && logEvent(span, core.capture, event, recording) && !recording.spanEvents) return -1;
    return buffer.add(event);
  }

  /**
   * Ends the record: the observers' phase event (held span events written first: observers run before
   * the span ends, and what they throw is recorded on it, in the room the buffer kept for them), then
   * the span's summary, and the span ends.
   */
  end(core: RunnerCore<S>, request: PhaseRequest, fold: FoldState<HookEntry<S>>, args: ToolArgs, hooks: number, shown: DecisionKind, winnerName: string | undefined): void {
    const { phase, toolName, callId } = request;
    const span = this.span;
    let dropped: DroppedEvents | undefined;
    if (this.records !== undefined && this.shadowed !== undefined && this.errors !== undefined) {
      const event: PhaseEvent = {
        type: 'phase',
        phase,
        toolName,
        decision: shown,
        ...(winnerName === undefined ? {} : { winner: winnerName }),
        hooks: this.records,
        shadowed: this.shadowed,
        errors: this.errors,
        durationMs: performance.now() - this.started,
        ...(callId === undefined ? {} : { callId }),
      };
      if (span !== undefined) dropped = this.buffer?.flush(span, core.capture, core.recording);
      core.notify(event, toolName, span, args);
    } else if (span !== undefined) {
      dropped = this.buffer?.flush(span, core.capture, core.recording);
    }
    if (span === undefined) return;
    const summary = { decision: shown, winner: winnerName, invoked: hooks, shadowed: this.shadowedCount, errors: this.errorCount, dropped };
    if (core.recording.guardrail) {
      const shownDecision = shown === 'ask' ? fold.ask : fold.winning;
      const reason = shownDecision === undefined || shownDecision.kind === 'continue' ? undefined : core.capture.limit(shownDecision.reason);
      endPhaseSpan(span, { ...summary, phase, callId, reason, audited: fold.audited }, core.recording);
    } else {
      endPhaseSpan(span, summary);
    }
  }
}
