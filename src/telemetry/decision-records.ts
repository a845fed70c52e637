/**
 * How a runner records its decisions beyond the defaults: as span events, log-based events or both; in
 * the GenAI guardrail draft's names too; with a blocked call's status left UNSET; with vendors' span-kind
 * hints. Resolved once per runner from its options; every default is the behaviour toolhooks always had,
 * and with every option off nothing here runs on a call's path. docs/telemetry.md ("Decision records as
 * log events", "Guardrail conventions", "Blocked is not failed") says what each one writes.
 * @internal
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { context, trace } from '@opentelemetry/api';
import { VERSION } from '../version.js';
import type { EmittingLogger, EmittingLoggerProvider } from './logger-provider.js';
import { registeredLoggerProvider } from './logger-provider.js';
import {
  ATTR_LANGFUSE_OBSERVATION_TYPE,
  ATTR_OPENINFERENCE_SPAN_KIND,
  INSTRUMENTATION_NAME,
  LANGFUSE_OBSERVATION_TYPE_GUARDRAIL,
  OPENINFERENCE_SPAN_KIND_GUARDRAIL,
} from './semconv.js';
import { warnVisibly } from './warn-once.js';

/** Where decision, shadowed-decision and hook-error records go. */
export type DecisionRecordsMode = 'span-events' | 'log-events' | 'both';

/** A backend whose span kind for guardrails phase spans may carry. */
export type VendorHint = 'openinference' | 'langfuse';

/** How an aborted or denied call's `execute_tool` span is marked. */
export type AbortStatus = 'error' | 'unset';

/** The recording options a runner takes (checked by the runner's option reader). */
export interface RecordingOptions {
  readonly decisionRecords?: DecisionRecordsMode | undefined;
  readonly conventions?: { readonly guardrail?: boolean | undefined } | undefined;
  readonly abortStatus?: AbortStatus | undefined;
  readonly vendorHints?: readonly VendorHint[] | undefined;
}

/** The severity of a decision record written as a log event (INFO). */
const SEVERITY_INFO = 9;

const HINTS: Record<VendorHint, Attributes> = {
  openinference: { [ATTR_OPENINFERENCE_SPAN_KIND]: OPENINFERENCE_SPAN_KIND_GUARDRAIL },
  langfuse: { [ATTR_LANGFUSE_OBSERVATION_TYPE]: LANGFUSE_OBSERVATION_TYPE_GUARDRAIL },
};

/** A runner's resolved recording settings, and the logger its log events go through. */
export class Recording {
  /** Whether decision records are written as span events (also the fallback when log events cannot be). */
  readonly spanEvents: boolean;
  /** Whether decision records are written as log events. */
  readonly logEvents: boolean;
  /** Whether phases and decision events also carry the GenAI guardrail draft's attributes. */
  readonly guardrail: boolean;
  /** Whether an aborted or denied call keeps status UNSET (and carries `toolhooks.blocked`). */
  readonly blockedUnset: boolean;
  /** The vendor span-kind attributes every phase span starts with; undefined when none are asked for. */
  readonly phaseHints: Attributes | undefined;
  #provider: EmittingLoggerProvider | undefined = undefined;
  #logger: EmittingLogger | undefined = undefined;
  /** Set once log events could not be written: every later record is a span event, as by default. */
  #fellBack = false;

  constructor(options: RecordingOptions) {
    const mode = options.decisionRecords ?? 'span-events';
    this.spanEvents = mode !== 'log-events';
    this.logEvents = mode !== 'span-events';
    this.guardrail = options.conventions?.guardrail === true;
    this.blockedUnset = options.abortStatus === 'unset';
    const hints = options.vendorHints ?? [];
    this.phaseHints = hints.length === 0 ? undefined : Object.freeze(Object.assign({}, ...hints.map((hint) => HINTS[hint])) as Attributes);
  }

  /**
   * Writes one record as a log event named `name`, in the context of `span` (so it carries the span's
   * trace and span ids). Returns false when it could not — no LoggerProvider is registered, or it threw —
   * and then, and for every later record, the caller writes a span event instead; said once. Never throws.
   */
  emit(span: Span, name: string, attributes: Attributes): boolean {
    if (this.#fellBack) return false;
    try {
      const provider = registeredLoggerProvider();
      if (provider === undefined) return this.#fallBack('no LoggerProvider is registered');
      if (provider !== this.#provider || this.#logger === undefined) {
        this.#logger = provider.getLogger(INSTRUMENTATION_NAME, VERSION);
        this.#provider = provider;
      }
      this.#logger.emit({
        eventName: name,
        severityNumber: SEVERITY_INFO,
        severityText: 'INFO',
        attributes,
        context: trace.setSpan(context.active(), span),
      });
      return true;
    } catch (error) {
      return this.#fallBack(`the LoggerProvider threw (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  #fallBack(why: string): false {
    this.#fellBack = true;
    warnVisibly(
      `toolhooks: decisionRecords asks for log events, but ${why}; decision records are written as span events from now on`,
      'TOOLHOOKS_LOG_EVENTS_UNAVAILABLE',
    );
    return false;
  }
}

/** The settings of a runner that sets none of the options: span events, no conventions, no hints. */
export const DEFAULT_RECORDING = new Recording({});
