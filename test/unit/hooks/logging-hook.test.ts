import { context, diag, TraceFlags } from '@opentelemetry/api';
import type { DiagLogger, Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace';
import pino from 'pino';
import type { Logger } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LoggingHook, otelDestination } from '../../../src/hooks/index.js';
import type { ToolHookEvent } from '../../../src/hook.js';
import {
  ATTR_APPROVAL_APPROVER,
  ATTR_APPROVAL_DENIAL_REASON,
  ATTR_APPROVAL_DURATION_MS,
  ATTR_APPROVAL_EDITED,
  ATTR_APPROVAL_HOOK,
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_DECISION,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_NAME,
  ATTR_OUTCOME,
  ATTR_PHASE,
  ATTR_REDIRECT_NEW_TOOL,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  ATTR_TOOL_DURATION_MS,
  ATTR_TOOL_EFFECTIVE_NAME,
  INSTRUMENTATION_NAME,
  LOG_SPAN_ID,
  LOG_TRACE_FLAGS,
  LOG_TRACE_ID,
} from '../../../src/telemetry/semconv.js';
import { approvalEvent, busyPhase, phaseEvent, toolEvent } from '../../support/events.js';
import { disableGlobalLogs, newTracerProvider, registerLoggerProvider } from '../../support/sdk.js';

type Line = Record<string, unknown>;

/** A pino logger writing parsed records to an array. */
function memoryLogger(level = 'info'): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const logger = pino({ level }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  return { logger, lines };
}

const contextManager = new AsyncLocalStorageContextManager();
const tracer = newTracerProvider().getTracer('test');

/** Delivers `event` the way the runner does: synchronously, inside an active span. Returns the span. */
function deliverInSpan(hook: LoggingHook, ...events: ToolHookEvent[]): Span {
  return tracer.startActiveSpan('toolhooks.before_tool', (span) => {
    for (const event of events) hook.onEvent(event);
    span.end();
    return span;
  });
}

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
afterEach(async () => {
  await disableGlobalLogs();
  diag.disable();
});

describe('LoggingHook records', () => {
  it('writes one record per tool outcome: info for completed, warn for aborted and failed', () => {
    const { logger, lines } = memoryLogger();
    const hook = new LoggingHook({ logger });
    deliverInSpan(
      hook,
      toolEvent({ outcome: 'completed', durationMs: 12.34567, callId: 'call_1' }),
      toolEvent({ toolName: 'shell', effectiveToolName: 'sandbox_shell', outcome: 'aborted', errorType: 'HookAbortError', reason: 'destructive command' }),
      toolEvent({ outcome: 'failed', errorType: 'TimeoutError', retries: 1 }),
    );
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, 'tool call completed'],
      [40, 'tool call aborted'],
      [40, 'tool call failed'],
    ]);
    expect(lines[0]).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'search',
      [ATTR_OUTCOME]: 'completed',
      [ATTR_RETRIES]: 0,
      [ATTR_REEXECUTIONS]: 0,
      [ATTR_TOOL_DURATION_MS]: 12.346,
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_1',
    });
    expect(lines[0]).not.toHaveProperty(ATTR_TOOL_EFFECTIVE_NAME);
    expect(lines[0]).not.toHaveProperty(ATTR_ERROR_TYPE);
    expect(lines[1]).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'shell',
      [ATTR_TOOL_EFFECTIVE_NAME]: 'sandbox_shell',
      [ATTR_OUTCOME]: 'aborted',
      [ATTR_ERROR_TYPE]: 'HookAbortError',
      [ATTR_DECISION_REASON]: 'destructive command',
    });
    expect(lines[2]).toMatchObject({ [ATTR_ERROR_TYPE]: 'TimeoutError', [ATTR_RETRIES]: 1 });
  });

  it('writes one record per non-Continue decision, per shadowed decision and per swallowed failure', () => {
    const { logger, lines } = memoryLogger();
    const hook = new LoggingHook({ logger });
    deliverInSpan(hook, busyPhase({ callId: 'call_7' }));
    expect(lines.map((l) => [l.level, l.msg, l[ATTR_HOOK_NAME]])).toEqual([
      [30, 'hook decided skip', 'cache'],
      [30, 'hook decision shadowed', 'policy'],
      [40, 'hook failed', 'broken'],
    ]);
    expect(lines[0]).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'search',
      [ATTR_PHASE]: 'before_tool',
      [ATTR_DECISION]: 'skip',
      [ATTR_DECISION_REASON]: 'cache hit',
      [ATTR_HOOK_DURATION_MS]: 1.5,
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_7',
    });
    expect(lines[1]).toMatchObject({
      [ATTR_DECISION]: 'redirect',
      [ATTR_DECISION_REASON]: 'use the sandbox',
      [ATTR_REDIRECT_NEW_TOOL]: 'sandbox_search',
      [ATTR_DECISION_WINNER]: 'cache',
    });
    expect(lines[2]).toMatchObject({
      [ATTR_PHASE]: 'before_tool',
      [ATTR_HOOK_ERROR_KIND]: 'threw',
      err: { type: 'TypeError', message: 'cannot read properties of undefined' },
    });
    expect(String((lines[2]?.err as { stack?: unknown }).stack)).toContain('TypeError: cannot read properties of undefined');
  });

  it('writes one record per approval outcome: info for approved and denied, warn when nobody answered', () => {
    const { logger, lines } = memoryLogger();
    const hook = new LoggingHook({ logger });
    const junk = new TypeError('the approver answered the string "yes" instead of { approved: boolean }');
    deliverInSpan(
      hook,
      approvalEvent({ outcome: 'approved', approver: 'on-call', edited: true, durationMs: 4200.12345, callId: 'call_3' }),
      approvalEvent({ id: 'appr-2', outcome: 'denied', approver: 'on-call', denialReason: 'not during the freeze' }),
      approvalEvent({ id: 'appr-3', outcome: 'expired' }),
      approvalEvent({ id: 'appr-4', outcome: 'error', error: junk }),
      approvalEvent({ id: 'appr-5', outcome: 'no_approver' }),
      toolEvent({ toolName: 'send_email', outcome: 'denied', approval: 'expired' }),
    );
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [30, 'approval approved'],
      [30, 'approval denied'],
      [40, 'approval expired'],
      [40, 'approval error'],
      [40, 'approval no_approver'],
      [30, 'tool call denied'],
    ]);
    expect(lines[0]).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
      [ATTR_APPROVAL_ID]: 'appr-1',
      [ATTR_APPROVAL_HOOK]: 'mail-gate',
      [ATTR_APPROVAL_OUTCOME]: 'approved',
      [ATTR_APPROVAL_APPROVER]: 'on-call',
      [ATTR_APPROVAL_EDITED]: true,
      [ATTR_DECISION_REASON]: 'outgoing mail',
      [ATTR_APPROVAL_DURATION_MS]: 4200.123,
      [ATTR_GEN_AI_TOOL_CALL_ID]: 'call_3',
    });
    expect(lines[1]).toMatchObject({ [ATTR_APPROVAL_DENIAL_REASON]: 'not during the freeze', [ATTR_APPROVAL_EDITED]: false });
    expect(lines[2]).not.toHaveProperty(ATTR_APPROVAL_APPROVER);
    expect(lines[3]).toMatchObject({ err: { type: 'TypeError', message: junk.message } });
    expect(lines[5]).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_APPROVAL_OUTCOME]: 'expired' });
  });

  it('logs nothing for a phase where every hook continued', () => {
    const { logger, lines } = memoryLogger();
    new LoggingHook({ logger }).onEvent(phaseEvent({ hooks: [{ hook: 'audit', decision: 'continue', durationMs: 1 }] }));
    expect(lines).toEqual([]);
  });

  it('describes a thrown non-Error by its typeof and string form', () => {
    const { logger, lines } = memoryLogger();
    new LoggingHook({ logger }).onEvent(
      phaseEvent({
        hooks: [{ hook: 'odd', decision: 'error', durationMs: 1 }],
        errors: [
          { hook: 'odd', kind: 'threw', error: 'plain string' },
          { hook: 'odd', kind: 'threw', error: { toString: () => { throw new Error('no'); } } },
        ],
      }),
    );
    expect(lines.map((l) => l.err)).toEqual([
      { type: 'string', message: 'plain string', stack: '' },
      { type: 'object', message: '[object Object]', stack: '' },
    ]);
  });

  it('carries trace_id, span_id and trace_flags of the span active at delivery', () => {
    const { logger, lines } = memoryLogger();
    const hook = new LoggingHook({ logger });
    const span = deliverInSpan(hook, toolEvent(), busyPhase());
    const { traceId, spanId } = span.spanContext();
    expect(lines.length).toBe(4);
    for (const line of lines) {
      expect(line).toMatchObject({ [LOG_TRACE_ID]: traceId, [LOG_SPAN_ID]: spanId, [LOG_TRACE_FLAGS]: '01' });
    }

    const unsampled = newTracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('test');
    unsampled.startActiveSpan('x', (s) => {
      hook.onEvent(toolEvent());
      s.end();
    });
    expect(lines.at(-1)?.[LOG_TRACE_FLAGS]).toBe('00');

    hook.onEvent(toolEvent()); // no active span: no trace fields rather than zeros
    expect(lines.at(-1)).not.toHaveProperty(LOG_TRACE_ID);
  });

  it('honours the level option, on its own logger or as a child of the given one', () => {
    const { logger, lines } = memoryLogger('info');
    const hook = new LoggingHook({ logger, level: 'warn' });
    hook.onEvent(toolEvent());
    hook.onEvent(busyPhase());
    hook.onEvent(toolEvent({ outcome: 'aborted', errorType: 'HookAbortError' }));
    expect(lines.map((l) => l.msg)).toEqual(['hook failed', 'tool call aborted']);
    // The given logger itself is not changed.
    expect(logger.level).toBe('info');
  });

  it('never throws, even when the logger does', () => {
    const warn = vi.fn();
    const diagLogger: DiagLogger = { error: vi.fn(), warn, info: vi.fn(), debug: vi.fn(), verbose: vi.fn() };
    diag.setLogger(diagLogger);
    const broken = pino({}, {
      write: () => {
        throw new Error('disk full');
      },
    });
    const hook = new LoggingHook({ logger: broken });
    expect(() => hook.onEvent(toolEvent())).not.toThrow();
    expect(() => hook.onEvent(toolEvent())).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe('LoggingHook records in OpenTelemetry', () => {
  /** A LoggerProvider registered the way the app's SDK registers it (API 1.10 `logs`; `api-logs` on SDK 2). */
  async function otelLogs(): Promise<InMemoryLogRecordExporter> {
    const exporter = new InMemoryLogRecordExporter();
    await registerLoggerProvider(new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] }));
    return exporter;
  }

  it('reach the registered LoggerProvider with the span context of the record', async () => {
    const exporter = await otelLogs();
    const { logger: memory, lines } = memoryLogger();
    const logger = pino({}, pino.multistream([{ stream: { write: (l: string) => memory.info(JSON.parse(l) as object) } }, { stream: otelDestination() }]));
    const hook = new LoggingHook({ logger });
    const span = deliverInSpan(hook, busyPhase(), toolEvent({ outcome: 'aborted', errorType: 'HookAbortError', reason: 'no' }));

    const records = exporter.getFinishedLogRecords();
    expect(lines).toHaveLength(4);
    expect(records.map((r) => [r.severityNumber, r.severityText, r.body])).toEqual([
      // Severity numbers of the Logs data model (INFO 9, WARN 13); API 1.9 of the SDK 2 lane has no enum.
      [9, 'info', 'hook decided skip'],
      [9, 'info', 'hook decision shadowed'],
      [13, 'warn', 'hook failed'],
      [13, 'warn', 'tool call aborted'],
    ]);
    for (const record of records) {
      expect(record.spanContext?.traceId).toBe(span.spanContext().traceId);
      expect(record.spanContext?.spanId).toBe(span.spanContext().spanId);
      expect(record.spanContext?.traceFlags).toBe(TraceFlags.SAMPLED);
      expect(record.instrumentationScope.name).toBe(INSTRUMENTATION_NAME);
      // Trace context lives in the record's span context, not duplicated as attributes.
      expect(record.attributes).not.toHaveProperty(LOG_TRACE_ID);
      expect(record.attributes).not.toHaveProperty('pid');
    }
    expect(records[3]?.attributes).toMatchObject({ [ATTR_OUTCOME]: 'aborted', [ATTR_ERROR_TYPE]: 'HookAbortError' });
    expect(records[2]?.attributes).toMatchObject({
      [ATTR_HOOK_NAME]: 'broken',
      [ATTR_HOOK_ERROR_KIND]: 'threw',
      'exception.type': 'TypeError',
      'exception.message': 'cannot read properties of undefined',
    });
    expect(String(records[2]?.attributes['exception.stacktrace'])).toContain('TypeError');
    expect(records[2]?.attributes).not.toHaveProperty('err');
  });

  it('uses the trace context written in the record, not the one active when the destination runs', async () => {
    const exporter = await otelLogs();
    const destination = otelDestination();
    const line = JSON.stringify({
      level: 30,
      time: 1_700_000_000_000,
      msg: 'from another thread',
      [LOG_TRACE_ID]: '0af7651916cd43dd8448eb211c80319c',
      [LOG_SPAN_ID]: 'b7ad6b7169203331',
      [LOG_TRACE_FLAGS]: '01',
    });
    tracer.startActiveSpan('unrelated', (span) => {
      destination.write(line);
      span.end();
    });
    const [record] = exporter.getFinishedLogRecords();
    expect(record?.spanContext).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 });
    expect(record?.hrTime).toEqual([1_700_000_000, 0]);
  });

  it('go from the default logger to the LoggerProvider (stdout is checked by integration/hooks/logging-hook-pino.test.ts)', async () => {
    const exporter = await otelLogs();
    deliverInSpan(new LoggingHook(), toolEvent({ outcome: 'skipped' }));
    const [record] = exporter.getFinishedLogRecords();
    expect(record?.body).toBe('tool call skipped');
    expect(record?.attributes).toMatchObject({ name: INSTRUMENTATION_NAME, [ATTR_OUTCOME]: 'skipped' });
  });

  it('drop nothing before a provider is registered and cost no error', () => {
    const destination = otelDestination();
    expect(() => destination.write('{"level":30,"msg":"early"}')).not.toThrow();
    expect(() => destination.write('not json')).not.toThrow();
  });
});
