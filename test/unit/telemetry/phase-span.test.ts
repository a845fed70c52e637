/**
 * How one runner phase is recorded: a span named for the phase, an event per decision, shadowed
 * decision and swallowed failure, and the phase's summary — with capture applied and never a throw.
 */
import type { Span, Tracer } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { CONTINUE, abort, decisionAttributesOf, redirect, skip, withDecisionAttributes } from '../../../src/decisions.js';
import { resolveCapture } from '../../../src/telemetry/capture/options.js';
import { endPhaseSpan, recordEvent, startPhaseSpan } from '../../../src/telemetry/phase-span.js';
import {
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_DECISIONS_SHADOWED,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_STACKTRACE,
  ATTR_EXCEPTION_TYPE,
  ATTR_FAILURE_MODE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_INDEX,
  ATTR_HOOK_MODE,
  ATTR_HOOK_NAME,
  ATTR_HOOKS_INVOKED,
  ATTR_PHASE,
  ATTR_REDIRECT_ARG_KEYS,
  ATTR_REDIRECT_ARGS,
  ATTR_REDIRECT_NEW_TOOL,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_ON_ERROR,
} from '../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

const off = resolveCapture(undefined);
const hook = { name: 'policy', index: 0, mode: 'enforce', failureMode: 'open' } as const;

function phaseSpan(): Span {
  const span = startPhaseSpan(tracing.tracer, 'before_tool', 'shell');
  expect(span).toBeDefined();
  return span as Span;
}

const summary = { decision: 'continue', winner: undefined, invoked: 1, shadowed: 0, errors: 0 } as const;

describe('startPhaseSpan and endPhaseSpan', () => {
  it('names the span for its phase and records the tool and phase', () => {
    for (const [phase, name] of [['before_tool', SPAN_BEFORE_TOOL], ['after_tool', SPAN_AFTER_TOOL], ['on_error', SPAN_ON_ERROR]] as const) {
      const span = startPhaseSpan(tracing.tracer, phase, 'shell');
      if (span !== undefined) endPhaseSpan(span, summary);
      expect(tracing.onlySpan(name).attributes).toMatchObject({ [ATTR_GEN_AI_TOOL_NAME]: 'shell', [ATTR_PHASE]: phase });
    }
  });

  it('ends the span with the decision, the counts and the winning hook', () => {
    endPhaseSpan(phaseSpan(), { decision: 'abort', winner: 'policy', invoked: 3, shadowed: 1, errors: 1 });
    expect(tracing.onlySpan(SPAN_BEFORE_TOOL).attributes).toMatchObject({
      [ATTR_DECISION]: 'abort',
      [ATTR_DECISION_HOOK]: 'policy',
      [ATTR_HOOKS_INVOKED]: 3,
      [ATTR_DECISIONS_SHADOWED]: 1,
      [ATTR_HOOK_ERRORS]: 1,
    });
  });

  it('names no winner when the phase continued', () => {
    endPhaseSpan(phaseSpan(), { ...summary, winner: 'policy' });
    expect(tracing.onlySpan(SPAN_BEFORE_TOOL).attributes).not.toHaveProperty(ATTR_DECISION_HOOK);
  });

  it('gives no span, and does not throw, when the tracer throws', () => {
    const broken = { startSpan: () => { throw new Error('tracer down'); } } as unknown as Tracer;
    expect(startPhaseSpan(broken, 'before_tool', 'shell')).toBeUndefined();
  });
});

describe('recordEvent', () => {
  it('records a decision with its hook, reason and redirect target, and argument key names only', () => {
    const span = phaseSpan();
    recordEvent(span, off, { type: 'decision', hook, decision: redirect({ newTool: 'safe_shell', newArgs: { cmd: 'ls', password: 'x' }, reason: 'sandboxed' }), durationMs: 2 });
    endPhaseSpan(span, summary);
    const [event] = eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_DECISION);
    expect(event?.attributes).toMatchObject({
      [ATTR_HOOK_NAME]: 'policy',
      [ATTR_HOOK_INDEX]: 0,
      [ATTR_DECISION]: 'redirect',
      [ATTR_DECISION_REASON]: 'sandboxed',
      [ATTR_REDIRECT_NEW_TOOL]: 'safe_shell',
      [ATTR_REDIRECT_ARG_KEYS]: ['cmd', 'password'],
    });
    expect(event?.attributes).not.toHaveProperty(ATTR_REDIRECT_ARGS);
    expect(event?.attributes).not.toHaveProperty(ATTR_HOOK_MODE);
  });

  it("adds a hook's own decision attributes (withDecisionAttributes), the runner's winning on a clash", () => {
    const span = phaseSpan();
    const decision = withDecisionAttributes(abort('no'), { 'toolhooks.policy.engine': 'cedar', [ATTR_HOOK_NAME]: 'forged', [ATTR_DECISION]: 'continue' });
    expect(Object.isFrozen(decision)).toBe(true);
    expect(decision).toEqual({ kind: 'abort', reason: 'no' });
    recordEvent(span, off, { type: 'decision', hook, decision, durationMs: 1 });
    endPhaseSpan(span, summary);
    const [event] = eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_DECISION);
    expect(event?.attributes).toMatchObject({ 'toolhooks.policy.engine': 'cedar', [ATTR_HOOK_NAME]: 'policy', [ATTR_DECISION]: 'abort' });
    expect(decisionAttributesOf(abort('no'))).toBeUndefined();
  });

  it('records redirect argument values only when args are captured, redacted', () => {
    const span = phaseSpan();
    recordEvent(span, resolveCapture({ args: true }), { type: 'decision', hook, decision: redirect({ newArgs: { password: 'x' } }), durationMs: 1 });
    endPhaseSpan(span, summary);
    expect(eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL))[0]?.attributes[ATTR_REDIRECT_ARGS]).toBe('{"password":"[REDACTED]"}');
  });

  it("marks an audit hook's decision and error events with its mode", () => {
    const span = phaseSpan();
    const audit = { ...hook, mode: 'audit' } as const;
    recordEvent(span, off, { type: 'decision', hook: audit, decision: abort('would deny'), durationMs: 1 });
    recordEvent(span, off, { type: 'error', hook: audit, kind: 'threw', exception: off.scrubber([]).describe(new Error('x')) });
    endPhaseSpan(span, summary);
    for (const event of eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL))) expect(event.attributes[ATTR_HOOK_MODE]).toBe('audit');
  });

  it('records a shadowed decision with the hook that won', () => {
    const span = phaseSpan();
    recordEvent(span, off, { type: 'shadowed', hook: 'cache', decision: skip('hit'), winner: 'policy' });
    recordEvent(span, off, { type: 'shadowed', hook: 'noop', decision: CONTINUE, winner: 'policy' });
    endPhaseSpan(span, summary);
    const events = eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_DECISION_SHADOWED);
    expect(events.map((event) => event.attributes)).toEqual([
      { [ATTR_HOOK_NAME]: 'cache', [ATTR_DECISION]: 'skip', [ATTR_DECISION_WINNER]: 'policy', [ATTR_DECISION_REASON]: 'hit' },
      { [ATTR_HOOK_NAME]: 'noop', [ATTR_DECISION]: 'continue', [ATTR_DECISION_WINNER]: 'policy' },
    ]);
  });

  it("records a failure with the error's class, message and stack, and a thrown non-Error by its type", () => {
    const span = phaseSpan();
    recordEvent(span, off, { type: 'error', hook: { ...hook, failureMode: 'closed' }, kind: 'timeout', exception: off.scrubber([]).describe(new RangeError('too slow')) });
    recordEvent(span, off, { type: 'error', hook, kind: 'threw', exception: off.scrubber([]).describe('a string') });
    endPhaseSpan(span, summary);
    const [first, second] = eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_ERROR);
    expect(first?.attributes).toMatchObject({
      [ATTR_HOOK_NAME]: 'policy',
      [ATTR_HOOK_ERROR_KIND]: 'timeout',
      [ATTR_FAILURE_MODE]: 'closed',
      [ATTR_EXCEPTION_TYPE]: 'RangeError',
      [ATTR_EXCEPTION_MESSAGE]: 'too slow',
    });
    expect(first?.attributes[ATTR_EXCEPTION_STACKTRACE]).toMatch(/RangeError: too slow/);
    expect(second?.attributes).toMatchObject({ [ATTR_EXCEPTION_TYPE]: 'string', [ATTR_EXCEPTION_MESSAGE]: 'a string' });
  });

  it('cuts reasons and messages to maxLength', () => {
    const span = phaseSpan();
    const short = resolveCapture({ maxLength: 4 });
    recordEvent(span, short, { type: 'decision', hook, decision: abort('forbidden'), durationMs: 1 });
    recordEvent(span, short, { type: 'error', hook, kind: 'threw', exception: short.scrubber([]).describe(new Error('exploded')) });
    endPhaseSpan(span, summary);
    const [decision, error] = eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL));
    expect(decision?.attributes[ATTR_DECISION_REASON]).toBe('forb…[truncated 5]');
    expect(error?.attributes[ATTR_EXCEPTION_MESSAGE]).toBe('expl…[truncated 4]');
  });

  it('records a failure whose thrown value is hostile, and never throws into the phase', () => {
    const span = phaseSpan();
    const hostile = new Proxy(new Error('x'), { get: () => { throw new Error('no reading'); } });
    expect(() => recordEvent(span, off, { type: 'error', hook, kind: 'threw', exception: off.scrubber([]).describe(hostile) })).not.toThrow();
    const throwing = { addEvent: () => { throw new Error('span down'); } } as unknown as Span;
    expect(() => recordEvent(throwing, off, { type: 'decision', hook, decision: CONTINUE, durationMs: 1 })).not.toThrow();
    endPhaseSpan(span, summary);
    expect(eventsOf(tracing.onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_ERROR)[0]?.attributes[ATTR_EXCEPTION_MESSAGE]).toBe('[unprintable error]');
  });
});
