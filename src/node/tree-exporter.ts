/**
 * A span exporter that prints each finished trace as a tree, with durations and the toolhooks
 * decision, shadowed-decision and hook-error events in a compact form. Meant for terminals: the
 * demo, local development, and CI logs. Every name, reason and message is printed with its control
 * characters escaped (they can come from a model or a remote MCP server): only the tree's own line
 * breaks and colours reach the terminal.
 */
import type { HrTime } from '@opentelemetry/api';
import {
  ATTR_APPROVAL_APPROVER,
  ATTR_APPROVAL_DENIAL_REASON,
  ATTR_APPROVAL_EDITED,
  ATTR_APPROVAL_OUTCOME,
  ATTR_ATTEMPT,
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_ERROR_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_TYPE,
  ATTR_FAILURE_MODE,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_REDIRECTED,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  ATTR_OUTCOME,
  ATTR_REDIRECT_ARG_KEYS,
  ATTR_REDIRECT_NEW_TOOL,
  ATTR_RETRIES,
  ATTR_REEXECUTIONS,
  ATTR_TOOL_EFFECTIVE_NAME,
  ATTR_POLICY_IDS,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  SPAN_APPROVAL,
  SPAN_EXECUTE,
} from '../telemetry/semconv.js';
import { boolean, func, readOptions } from '../internal/validate.js';
import { escapeControlCharacters, oneLine } from '../telemetry/capture/sanitize.js';
import { ExportResultCode } from './sdk-parts.js';
import type { ExportResult, ReadableSpan, SpanExporter } from './sdk-parts.js';
import { stdoutFlushed } from './stdout.js';
import type { TreeSpanExporterOptions } from './types.js';

/**
 * Prints every trace as an indented tree once its root span has ended (spans whose parent never
 * arrives are printed on flush or shutdown).
 *
 * @example
 * ```ts
 * import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
 * import { TreeSpanExporter } from 'toolhooks/node';
 * const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: new TreeSpanExporter() })] });
 * ```
 */
export class TreeSpanExporter implements SpanExporter {
  readonly #write: (text: string) => void;
  readonly #toStdout: boolean;
  readonly #color: boolean;
  readonly #pending = new Map<string, ReadableSpan[]>();
  #stopped = false;
  #flushScheduled = false;

  constructor(options: TreeSpanExporterOptions = {}) {
    const { write, color } = readOptions(options, 'TreeSpanExporter(options)', 'TreeSpanExporter', { write: func, color: boolean }) as TreeSpanExporterOptions;
    this.#toStdout = write === undefined;
    this.#write = write ?? ((text) => void process.stdout.write(text));
    this.#color = color ?? (write === undefined && process.stdout.isTTY === true);
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    try {
      for (const span of spans) {
        const traceId = span.spanContext().traceId;
        const list = this.#pending.get(traceId) ?? [];
        list.push(span);
        this.#pending.set(traceId, list);
        if (span.parentSpanContext === undefined) this.#print(traceId);
      }
      // Span processors may still export after shutdown began (e.g. once async resource attributes
      // settle); nothing would flush those later, so they are printed together on the next turn.
      if (this.#stopped && this.#pending.size > 0 && !this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => {
          this.#flushScheduled = false;
          void this.forceFlush();
        });
      }
      resultCallback({ code: ExportResultCode.SUCCESS });
    } catch (error) {
      resultCallback({ code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }

  /** Prints every trace still pending; when writing to stdout, resolves once the text has left the process. */
  forceFlush(): Promise<void> {
    for (const traceId of [...this.#pending.keys()]) this.#print(traceId);
    return this.#toStdout ? stdoutFlushed() : Promise.resolve();
  }

  shutdown(): Promise<void> {
    const flushed = this.forceFlush();
    this.#stopped = true;
    return flushed;
  }

  #print(traceId: string): void {
    const spans = this.#pending.get(traceId);
    this.#pending.delete(traceId);
    if (spans === undefined || spans.length === 0) return;
    const ids = new Set(spans.map((s) => s.spanContext().spanId));
    const children = new Map<string, ReadableSpan[]>();
    const roots: ReadableSpan[] = [];
    for (const span of spans) {
      const parent = span.parentSpanContext?.spanId;
      if (parent === undefined || !ids.has(parent)) roots.push(span);
      else children.set(parent, [...(children.get(parent) ?? []), span]);
    }
    const lines: string[] = [];
    const byStart = (a: ReadableSpan, b: ReadableSpan): number => toMs(a.startTime) - toMs(b.startTime);
    const walk = (span: ReadableSpan, prefix: string, connector: string, childPrefix: string): void => {
      lines.push(`${prefix}${connector}${this.#describe(span)}`);
      const eventPrefix = `${prefix}${childPrefix}`;
      const kids = (children.get(span.spanContext().spanId) ?? []).sort(byStart);
      for (const event of span.events) {
        const text = this.#event(event.name, event.attributes ?? {});
        if (text !== undefined) lines.push(`${eventPrefix}${kids.length > 0 ? '│' : ' '}   ${text}`);
      }
      kids.forEach((kid, i) => {
        const last = i === kids.length - 1;
        walk(kid, eventPrefix, last ? '└─ ' : '├─ ', last ? '   ' : '│  ');
      });
    };
    for (const root of roots.sort(byStart)) walk(root, '', '', '');
    this.#write(`${lines.join('\n')}\n\n`);
  }

  #describe(span: ReadableSpan): string {
    if (span.name === SPAN_APPROVAL) return this.#approval(span);
    const a = span.attributes;
    const duration = `${(toMs(span.endTime) - toMs(span.startTime)).toFixed(1)} ms`;
    const parts = [this.#bold(show(span.name)), this.#dim(duration)];
    if (a[ATTR_GEN_AI_TOOL_CALL_ID] !== undefined) parts.push(this.#dim(`id=${show(a[ATTR_GEN_AI_TOOL_CALL_ID])}`));
    if (a[ATTR_OUTCOME] !== undefined) parts.push(this.#outcome(show(a[ATTR_OUTCOME])));
    const effective = a[ATTR_TOOL_EFFECTIVE_NAME];
    if (effective !== undefined && effective !== a[ATTR_GEN_AI_TOOL_NAME]) parts.push(`→ ${show(effective)}`);
    else if (a[ATTR_REDIRECTED] === true) parts.push('redirected');
    if (Number(a[ATTR_RETRIES] ?? 0) > 0) parts.push(`retries=${show(a[ATTR_RETRIES])}`);
    if (Number(a[ATTR_REEXECUTIONS] ?? 0) > 0) parts.push(`reexecutions=${show(a[ATTR_REEXECUTIONS])}`);
    if (a[ATTR_ERROR_TYPE] !== undefined) parts.push(this.#red(`error.type=${show(a[ATTR_ERROR_TYPE])}`));
    if (a[ATTR_DECISION] !== undefined && span.name !== SPAN_EXECUTE) {
      const hook = a[ATTR_DECISION_HOOK] === undefined ? '' : ` by ${show(a[ATTR_DECISION_HOOK])}`;
      parts.push(`decision=${show(a[ATTR_DECISION])}${hook}`);
    }
    if (span.name === SPAN_EXECUTE && a[ATTR_ATTEMPT] !== undefined) parts.push(`attempt=${show(a[ATTR_ATTEMPT])}`);
    if (span.status.code === 2 && span.status.message) parts.push(this.#red(`"${printedLine(span.status.message)}"`));
    return parts.join('  ');
  }

  #event(name: string, a: Record<string, unknown>): string | undefined {
    const reason = a[ATTR_DECISION_REASON] === undefined ? '' : ` "${printedLine(String(a[ATTR_DECISION_REASON]))}"`;
    if (name === EVENT_HOOK_DECISION) {
      const target = [
        a[ATTR_REDIRECT_NEW_TOOL] === undefined ? '' : ` → ${show(a[ATTR_REDIRECT_NEW_TOOL])}`,
        a[ATTR_REDIRECT_ARG_KEYS] === undefined ? '' : ` args[${show((a[ATTR_REDIRECT_ARG_KEYS] as string[]).join(','))}]`,
      ].join('');
      // A policy hook names the policies that decided (toolhooks/policy): `• policy: abort "…" [no-rm]`.
      const ids = Array.isArray(a[ATTR_POLICY_IDS]) ? ` [${show((a[ATTR_POLICY_IDS] as unknown[]).join(', '))}]` : '';
      const ms = typeof a[ATTR_HOOK_DURATION_MS] === 'number' ? ` ${this.#dim(`(${a[ATTR_HOOK_DURATION_MS].toFixed(2)} ms)`)}` : '';
      if (a[ATTR_HOOK_MODE] === 'audit') {
        // What an audit hook would have done: recorded, never in effect.
        return this.#dim(`◦ ${show(a[ATTR_HOOK_NAME])}: would ${show(a[ATTR_DECISION])}${target}${reason}${ids}${ms} [audit]`);
      }
      return `• ${show(a[ATTR_HOOK_NAME])}: ${show(a[ATTR_DECISION])}${target}${reason}${ids}${ms}`;
    }
    if (name === EVENT_HOOK_DECISION_SHADOWED) {
      return this.#dim(`~ ${show(a[ATTR_HOOK_NAME])}: ${show(a[ATTR_DECISION])}${reason} (shadowed by ${show(a[ATTR_DECISION_WINNER])})`);
    }
    if (name === EVENT_HOOK_ERROR) {
      return this.#yellow(
        `! ${show(a[ATTR_HOOK_NAME])}: ${show(a[ATTR_HOOK_ERROR_KIND])} ${show(a[ATTR_EXCEPTION_TYPE])}: ${printedLine(String(a[ATTR_EXCEPTION_MESSAGE]))} [${a[ATTR_HOOK_MODE] === 'audit' ? 'audit' : `fail-${show(a[ATTR_FAILURE_MODE])}`}]`,
      );
    }
    return `· ${show(name)}`;
  }

  /** The wait for an approval, and who decided: `? approval: approved by on-call (4.2 s)`. */
  #approval(span: ReadableSpan): string {
    const a = span.attributes;
    const outcome = show(a[ATTR_APPROVAL_OUTCOME] ?? 'unknown');
    const by = a[ATTR_APPROVAL_APPROVER] === undefined ? '' : ` by ${show(a[ATTR_APPROVAL_APPROVER])}`;
    const edited = a[ATTR_APPROVAL_EDITED] === true ? ' with edited arguments' : '';
    const why = a[ATTR_APPROVAL_DENIAL_REASON] === undefined ? '' : ` "${printedLine(String(a[ATTR_APPROVAL_DENIAL_REASON]))}"`;
    const ms = toMs(span.endTime) - toMs(span.startTime);
    const wait = this.#dim(`(${ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(1)} ms`})`);
    const text = `? approval: ${outcome}${by}${edited}${why}`;
    return `${outcome === 'approved' ? this.#green(text) : this.#yellow(text)} ${wait}`;
  }

  #outcome(outcome: string): string {
    const text = `outcome=${outcome}`;
    if (outcome === 'aborted' || outcome === 'failed') return this.#red(text);
    if (outcome === 'completed') return this.#green(text);
    return this.#yellow(text);
  }

  #paint(code: string, text: string): string {
    return this.#color ? `\u001b[${code}m${text}\u001b[0m` : text;
  }
  #bold = (t: string): string => this.#paint('1', t);
  #dim = (t: string): string => this.#paint('2', t);
  #red = (t: string): string => this.#paint('31', t);
  #green = (t: string): string => this.#paint('32', t);
  #yellow = (t: string): string => this.#paint('33', t);
}

/** An attribute value as printed: its string form with control characters escaped. */
function show(value: unknown): string {
  return escapeControlCharacters(String(value));
}

/**
 * A message fit for one line of the tree: whitespace runs (newlines included) folded, at most 200
 * characters, other control characters escaped.
 */
function printedLine(text: string): string {
  return escapeControlCharacters(oneLine(text, 200));
}

function toMs(time: HrTime): number {
  return time[0] * 1e3 + time[1] / 1e6;
}
