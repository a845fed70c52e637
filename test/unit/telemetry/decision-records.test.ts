/**
 * The runner's recording options, as a user checks them on exported spans and log records: decision
 * records as log-based events (and the fallback when no LoggerProvider can take them), the bridge that
 * puts them back on their spans, the GenAI guardrail draft's attributes, "blocked is not failed", and
 * vendors' span kinds. Runs on SDK 3 and, in the sdk2 lane, on SDK 2.
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { LogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { abort, ask, CONTINUE, executeTool, redirect, skip } from '../../../src/index.js';
import { withDecisionAttributes } from '../../../src/decisions.js';
import type { ToolHook } from '../../../src/index.js';
import { EventToSpanEventProcessor } from '../../../src/node/event-bridge.js';
import * as semconv from '../../../src/telemetry/semconv.js';
import {
  ATTR_BLOCKED,
  ATTR_ERROR_TYPE,
  ATTR_OUTCOME,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  SPAN_BEFORE_TOOL,
} from '../../../src/telemetry/semconv.js';
import { recordDiag } from '../../support/diag.js';
import { disableGlobalLogs, registerLoggerProvider } from '../../support/sdk.js';
import { createTestTracing, eventsOf } from '../../support/tracing.js';

const tracing = createTestTracing();
const diag = recordDiag();
let logs: InMemoryLogRecordExporter;

beforeEach(() => {
  tracing.reset();
  diag.start();
  logs = new InMemoryLogRecordExporter();
});
afterEach(async () => {
  diag.stop();
  await disableGlobalLogs();
});

const deny: ToolHook = { name: 'policy', beforeTool: (tool) => (tool === 'shell' ? abort('no shell') : CONTINUE) };
const cache: ToolHook = { name: 'cache', beforeTool: () => skip('cached', { cached: true }) };
const watcher: ToolHook = { name: 'watcher', mode: 'audit', beforeTool: () => abort('would stop it') };
const broken: ToolHook = { name: 'broken', beforeTool: () => { throw new Error('down'); } };
const tool = async (args: Record<string, unknown>): Promise<unknown> => ({ ran: args });

async function run(hooks: ToolHook[], options: Parameters<typeof tracing.runner>[1], toolName = 'search'): Promise<unknown> {
  const runner = tracing.runner(hooks, options);
  return executeTool({ hooks: runner, toolName, args: { q: 'x' }, callId: 'call_1', execute: tool }).catch((error: unknown) => error);
}

const phase = (): ReadableSpan => tracing.onlySpan(SPAN_BEFORE_TOOL);
const call = (name = 'search'): ReadableSpan => tracing.onlySpan(`execute_tool ${name}`);

/** Registers a LoggerProvider whose records end in `logs`, after `first` processors. */
async function withLoggerProvider(first: LogRecordProcessor[] = []): Promise<void> {
  await registerLoggerProvider(new LoggerProvider({ processors: [...first, new SimpleLogRecordProcessor({ exporter: logs })] }));
}

describe("decisionRecords: 'log-events'", () => {
  it('writes each decision, shadowed decision and hook error as a log event in the phase span, and no span event', async () => {
    await withLoggerProvider();
    await run([broken, cache, deny], { decisionRecords: 'log-events' }, 'shell');
    const span = phase();
    expect(span.events).toEqual([]);
    const records = logs.getFinishedLogRecords();
    expect(records.map((record) => [record.eventName, record.attributes[semconv.ATTR_HOOK_NAME]])).toEqual([
      [EVENT_HOOK_ERROR, 'broken'],
      [EVENT_HOOK_DECISION, 'broken'],
      [EVENT_HOOK_DECISION, 'cache'],
      [EVENT_HOOK_DECISION, 'policy'],
      [EVENT_HOOK_DECISION_SHADOWED, 'cache'],
    ]);
    for (const record of records) {
      expect(record.spanContext?.spanId).toBe(span.spanContext().spanId);
      expect(record.spanContext?.traceId).toBe(span.spanContext().traceId);
    }
    // The same attributes a span event would carry.
    expect(records[3]?.attributes).toMatchObject({ [semconv.ATTR_DECISION]: 'abort', [semconv.ATTR_DECISION_REASON]: 'no shell', [semconv.ATTR_HOOK_INDEX]: 2 });
    // The phase's summary stays on its span, where replay and queries read it.
    expect(span.attributes[semconv.ATTR_DECISION]).toBe('abort');
  });

  it("'both' writes the span events and the log events", async () => {
    await withLoggerProvider();
    await run([cache], { decisionRecords: 'both' });
    expect(eventsOf(phase()).map((event) => event.name)).toEqual([EVENT_HOOK_DECISION]);
    expect(logs.getFinishedLogRecords().map((record) => record.eventName)).toEqual([EVENT_HOOK_DECISION]);
  });

  it('falls back to span events, said once, when no LoggerProvider is registered', async () => {
    await run([cache], { decisionRecords: 'log-events' });
    await run([cache], { decisionRecords: 'log-events' });
    const phases = tracing.spansNamed(SPAN_BEFORE_TOOL);
    expect(phases.map((span) => eventsOf(span).map((event) => event.name))).toEqual([[EVENT_HOOK_DECISION], [EVENT_HOOK_DECISION]]);
    // One runner each here: each says it once.
    expect(diag.messages.filter((line) => line.includes('no LoggerProvider is registered'))).toHaveLength(2);
  });

  it('falls back to span events for the rest of the runner, with one warning, when the LoggerProvider throws', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      await registerLoggerProvider({
        getLogger: () => ({ emit: () => { throw new Error('exporter gone'); } }),
      } as unknown as LoggerProvider);
      const runner = tracing.runner([cache], { decisionRecords: 'log-events' });
      for (let i = 0; i < 3; i += 1) await executeTool({ hooks: runner, toolName: 'search', args: {}, execute: tool });
      await new Promise((resolve) => setImmediate(resolve));
      const phases = tracing.spansNamed(SPAN_BEFORE_TOOL);
      expect(phases.map((span) => eventsOf(span).length)).toEqual([1, 1, 1]);
      const said = [...warnings, ...diag.messages].filter((line) => line.includes('decisionRecords asks for log events'));
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('exporter gone');
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('EventToSpanEventProcessor', () => {
  it('puts log-based decision events back on their phase spans, with their attributes', async () => {
    await withLoggerProvider([new EventToSpanEventProcessor()]);
    await run([deny], { decisionRecords: 'log-events' }, 'shell');
    const events = eventsOf(phase());
    expect(events.map((event) => event.name)).toEqual([EVENT_HOOK_DECISION]);
    expect(events[0]?.attributes).toMatchObject({ [semconv.ATTR_HOOK_NAME]: 'policy', [semconv.ATTR_DECISION]: 'abort' });
    expect(logs.getFinishedLogRecords()).toHaveLength(1);
  });

  it('leaves alone records without an event name, outside a recording span, or of another span', () => {
    const bridge = new EventToSpanEventProcessor();
    const span = tracing.tracer.startSpan('parent');
    const other = tracing.tracer.startSpan('other');
    const inSpan = trace.setSpan(context.active(), span);
    const base = { attributes: { a: 1 }, hrTime: [1, 0] as [number, number] };
    bridge.onEmit({ ...base, spanContext: span.spanContext() }, inSpan);
    bridge.onEmit({ ...base, eventName: '', spanContext: span.spanContext() }, inSpan);
    bridge.onEmit({ ...base, eventName: 'x' }, inSpan);
    bridge.onEmit({ ...base, eventName: 'x', spanContext: other.spanContext() }, inSpan);
    bridge.onEmit({ ...base, eventName: 'x', spanContext: span.spanContext() });
    bridge.onEmit({ ...base, eventName: 'kept', spanContext: span.spanContext() }, inSpan);
    span.end();
    other.end();
    bridge.onEmit({ ...base, eventName: 'after end', spanContext: span.spanContext() }, inSpan);
    expect(eventsOf(tracing.onlySpan('parent')).map((event) => event.name)).toEqual(['kept']);
  });

  it('never throws, even for a span whose addEvent throws', async () => {
    const bridge = new EventToSpanEventProcessor();
    const hostile = { isRecording: () => true, spanContext: () => ({ traceId: 't', spanId: 's', traceFlags: 1 }), addEvent: () => { throw new Error('boom'); } };
    const ctx = trace.setSpan(context.active(), hostile as never);
    expect(() => bridge.onEmit({ eventName: 'x', spanContext: { traceId: 't', spanId: 's', traceFlags: 1 }, attributes: {}, hrTime: [0, 0] }, ctx)).not.toThrow();
    await expect(bridge.forceFlush()).resolves.toBeUndefined();
    await expect(bridge.shutdown()).resolves.toBeUndefined();
  });
});

describe("conventions: { guardrail: true }", () => {
  it('pins every name of the draft it follows (a rename there is one edit in semconv.ts)', () => {
    expect({
      verdict: semconv.ATTR_GUARDRAIL_VERDICT_TYPE,
      reason: semconv.ATTR_GUARDRAIL_VERDICT_REASON,
      action: semconv.ATTR_GUARDRAIL_ACTION_TYPE,
      component: semconv.ATTR_GUARDRAIL_COMPONENT_NAME,
      targetType: semconv.ATTR_GUARDRAIL_TARGET_TYPE,
      targetSubtype: semconv.ATTR_GUARDRAIL_TARGET_SUBTYPE,
      targetId: semconv.ATTR_GUARDRAIL_TARGET_ID,
      policyId: semconv.ATTR_GUARDRAIL_POLICY_ID,
      ruleId: semconv.ATTR_GUARDRAIL_POLICY_RULE_ID,
      inputHash: semconv.ATTR_GUARDRAIL_CONTENT_INPUT_HASH,
      operation: semconv.GEN_AI_OPERATION_RUN_GUARDRAIL,
    }).toEqual({
      verdict: 'gen_ai.guardrail.verdict.type',
      reason: 'gen_ai.guardrail.verdict.reason',
      action: 'gen_ai.guardrail.action.type',
      component: 'gen_ai.guardrail.component.name',
      targetType: 'gen_ai.guardrail.target.type',
      targetSubtype: 'gen_ai.guardrail.target.subtype',
      targetId: 'gen_ai.guardrail.target.id',
      policyId: 'gen_ai.guardrail.security.policy.id',
      ruleId: 'gen_ai.guardrail.security.policy.rule.id',
      inputHash: 'gen_ai.guardrail.security.content.input.hash',
      operation: 'run_guardrail',
    });
  });

  it('describes a blocking phase: verdict per hook on its event, the action the runner took on the span', async () => {
    await run([cache, deny, watcher], { conventions: { guardrail: true } }, 'shell');
    const span = phase();
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'run_guardrail',
      'gen_ai.guardrail.target.type': 'input',
      'gen_ai.guardrail.target.subtype': 'tool_call',
      'gen_ai.guardrail.target.id': 'call_1',
      'gen_ai.guardrail.verdict.type': 'deny',
      'gen_ai.guardrail.action.type': 'block',
      'gen_ai.guardrail.component.name': 'policy',
      'gen_ai.guardrail.verdict.reason': 'no shell',
    });
    const verdicts = eventsOf(span).map((event) => [event.name, event.attributes[semconv.ATTR_HOOK_NAME], event.attributes['gen_ai.guardrail.verdict.type'], event.attributes['gen_ai.guardrail.action.type']]);
    expect(verdicts).toEqual([
      [EVENT_HOOK_DECISION, 'cache', 'deny', undefined],
      [EVENT_HOOK_DECISION, 'policy', 'deny', undefined],
      [EVENT_HOOK_DECISION_SHADOWED, 'cache', 'deny', undefined],
      [EVENT_HOOK_DECISION, 'watcher', 'deny', 'audit'],
    ]);
  });

  it("says 'audit' when only an audit hook would have changed the call, 'modify' for a Redirect, 'escalate' for an Ask, 'allow' otherwise", async () => {
    await run([watcher], { conventions: { guardrail: true } });
    expect(phase().attributes['gen_ai.guardrail.action.type']).toBe('audit');
    expect(phase().attributes['gen_ai.guardrail.verdict.type']).toBe('allow');
    tracing.reset();
    await run([{ name: 'sandbox', beforeTool: () => redirect({ newArgs: { q: 'safe' } }) }], { conventions: { guardrail: true } });
    expect(phase().attributes['gen_ai.guardrail.action.type']).toBe('modify');
    tracing.reset();
    await run([{ name: 'gate', beforeTool: () => ask('check') }], { conventions: { guardrail: true }, approver: () => ({ approved: true }) });
    expect(phase().attributes).toMatchObject({ 'gen_ai.guardrail.action.type': 'escalate', 'gen_ai.guardrail.verdict.type': 'escalate', 'gen_ai.guardrail.component.name': 'gate' });
    tracing.reset();
    await run([{ name: 'ok', beforeTool: () => CONTINUE }, broken], { conventions: { guardrail: true } });
    expect(phase().attributes['gen_ai.guardrail.action.type']).toBe('allow');
    expect(eventsOf(phase(), EVENT_HOOK_ERROR)[0]?.attributes['gen_ai.guardrail.verdict.type']).toBe('warn');
  });

  it("names a policy hook's policy and determining rules in the draft's words", async () => {
    const policyHook: ToolHook = {
      name: 'opa',
      beforeTool: () => withDecisionAttributes(abort('denied by policy'), { 'toolhooks.policy.engine': 'opa-wasm', 'toolhooks.policy.digest': 'ab12', 'toolhooks.policy.ids': ['no_rm', 'no_curl'] }),
    };
    await run([policyHook, cache], { conventions: { guardrail: true } }, 'shell');
    const [opa, other] = eventsOf(phase(), EVENT_HOOK_DECISION).map((event) => event.attributes);
    expect(opa).toMatchObject({ 'gen_ai.guardrail.security.policy.id': 'ab12', 'gen_ai.guardrail.security.policy.rule.id': 'no_rm,no_curl' });
    expect(other?.['gen_ai.guardrail.security.policy.id']).toBeUndefined();
  });

  it('adds nothing by default', async () => {
    await run([deny], {}, 'shell');
    const names = [...Object.keys(phase().attributes), ...eventsOf(phase()).flatMap((event) => Object.keys(event.attributes))];
    expect(names.filter((name) => name.startsWith('gen_ai.guardrail') || name === 'gen_ai.operation.name')).toEqual([]);
  });
});

describe("abortStatus: 'unset'", () => {
  it('keeps an aborted call UNSET, without error.type, and marks it blocked', async () => {
    await run([deny], { abortStatus: 'unset' }, 'shell');
    const span = call('shell');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(span.attributes[ATTR_BLOCKED]).toBe(true);
    expect(span.attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('marks a denied call blocked too; a tool that fails is still an error', async () => {
    await run([{ name: 'gate', beforeTool: () => ask('check') }], { abortStatus: 'unset', approver: () => ({ approved: false }) });
    expect(call().attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_BLOCKED]: true });
    tracing.reset();
    const runner = tracing.runner([], { abortStatus: 'unset' });
    await executeTool({ hooks: runner, toolName: 'search', args: {}, execute: () => { throw new TypeError('bad'); } }).catch(() => undefined);
    expect(call().status.code).toBe(SpanStatusCode.ERROR);
    expect(call().attributes[ATTR_ERROR_TYPE]).toBe('TypeError');
    expect(call().attributes[ATTR_BLOCKED]).toBeUndefined();
  });

  it("by default ('error') an abort is an error, as it always was", async () => {
    await run([deny], {}, 'shell');
    expect(call('shell').status.code).toBe(SpanStatusCode.ERROR);
    expect(call('shell').attributes[ATTR_ERROR_TYPE]).toBe('HookAbortError');
    expect(call('shell').attributes[ATTR_BLOCKED]).toBeUndefined();
  });
});

describe('vendorHints', () => {
  it('marks phase spans with each vendor\'s guardrail kind', async () => {
    await run([cache], { vendorHints: ['openinference', 'langfuse'] });
    expect(phase().attributes).toMatchObject({ 'openinference.span.kind': 'GUARDRAIL', 'langfuse.observation.type': 'guardrail' });
    tracing.reset();
    await run([cache], { vendorHints: ['langfuse'] });
    expect(phase().attributes['openinference.span.kind']).toBeUndefined();
  });
});

describe('the options, misspelt or of the wrong type', () => {
  it('are TypeErrors naming the option and the fix', () => {
    expect(() => tracing.runner([], { decisionRecord: 'both' } as never)).toThrow(/decisionRecords/);
    expect(() => tracing.runner([], { decisionRecords: 'logs' } as never)).toThrow(/decisionRecords must be 'span-events' or 'log-events' or 'both', got the string "logs"/);
    expect(() => tracing.runner([], { abortStatus: 'ok' } as never)).toThrow(/abortStatus must be 'error' or 'unset'/);
    expect(() => tracing.runner([], { conventions: { guardrails: true } } as never)).toThrow(/guardrail/);
    expect(() => tracing.runner([], { conventions: { guardrail: 'yes' } } as never)).toThrow(/guardrail must be true or false/);
    expect(() => tracing.runner([], { vendorHints: ['datadog'] } as never)).toThrow(/vendorHints must be an array of 'openinference' and 'langfuse', got the string "datadog"/);
    expect(() => tracing.runner([], { vendorHints: 'langfuse' } as never)).toThrow(/vendorHints must be an array/);
  });
});
