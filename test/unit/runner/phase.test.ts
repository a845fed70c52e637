/**
 * How a phase folds its hooks' decisions into one (moved from hook-runner.test.ts): the first non-Continue
 * decision wins, Abort short-circuits, failures are swallowed or abort by failure mode — through the
 * public run methods.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import type { HookDecision } from '../../../src/index.js';
import { CONTINUE, HookAbortError, HookRunner, abort, redirect, skip } from '../../../src/index.js';
import {
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISION_WINNER,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_STACKTRACE,
  ATTR_EXCEPTION_TYPE,
  ATTR_FAILURE_MODE,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_NAME,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
} from '../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';
import { useDiagRecorder } from '../../support/diag.js';
import { before } from '../../support/hooks.js';

const tracing = useTestTracing();
const diagRecorder = useDiagRecorder();
const warnings = diagRecorder.messages;

const runner = tracing.runner;

const onlySpan = (name: string) => tracing.onlySpan(name);

describe('HookRunner aggregation (Orqest parity)', () => {
  it('returns Continue with no hooks', async () => {
    expect(await runner([]).runBefore('t', {}, undefined)).toBe(CONTINUE);
  });

  it('passes a single hook decision through', async () => {
    const decision = skip('cached', 'stub');
    expect(await runner([before('a', () => decision)]).runBefore('t', {}, undefined)).toBe(decision);
  });

  it('treats undefined and null as Continue', async () => {
    const r = runner([before('a', () => undefined), { name: 'b', beforeTool: () => null as unknown as void }]);
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
  });

  it('first non-Continue decision wins and later hooks still run', async () => {
    const third = vi.fn(() => redirect({ newArgs: { x: 1 } }));
    const r = runner([before('a', () => CONTINUE), before('b', () => skip('first', 1)), before('c', third)]);
    const decision = await r.runBefore('t', {}, undefined);
    expect(decision).toEqual(skip('first', 1));
    expect(third).toHaveBeenCalledOnce();
  });

  it('abort short-circuits: later hooks do not run', async () => {
    const later = vi.fn();
    const r = runner([before('gate', () => abort('nope')), before('later', later)]);
    await expect(r.runBefore('t', {}, undefined)).rejects.toMatchObject({
      name: 'HookAbortError',
      reason: 'nope',
      sourceHook: 'gate',
    });
    expect(later).not.toHaveBeenCalled();
  });

  it('abort wins even after an earlier skip', async () => {
    const r = runner([before('cache', () => skip('hit')), before('gate', () => abort('denied'))]);
    const error = await r.runBefore('t', {}, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HookAbortError);
    expect((error as HookAbortError).sourceHook).toBe('gate');
    const span = onlySpan(SPAN_BEFORE_TOOL);
    expect(span.attributes[ATTR_DECISION]).toBe('abort');
    expect(span.attributes[ATTR_DECISION_HOOK]).toBe('gate');
    const shadowed = eventsOf(span, EVENT_HOOK_DECISION_SHADOWED);
    expect(shadowed).toEqual([
      {
        name: EVENT_HOOK_DECISION_SHADOWED,
        attributes: {
          [ATTR_HOOK_NAME]: 'cache',
          [ATTR_DECISION]: 'skip',
          [ATTR_DECISION_REASON]: 'hit',
          [ATTR_DECISION_WINNER]: 'gate',
        },
      },
    ]);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('coerces a winning Skip in after_tool to Continue, with a warning', async () => {
    const r = new HookRunner({ hooks: [{ name: 'late', afterTool: () => skip('too late') }], tracer: tracing.tracer });
    expect(await r.runAfter('t', {}, 'result', undefined, 5)).toBe(CONTINUE);
    expect(warnings.some((w) => w.includes('"late" returned Skip in after_tool'))).toBe(true);
    const span = onlySpan(SPAN_AFTER_TOOL);
    expect(span.attributes[ATTR_DECISION]).toBe('continue');
    expect(span.attributes[ATTR_DECISION_HOOK]).toBeUndefined();
    expect(eventsOf(span, EVENT_HOOK_DECISION)[0]?.attributes[ATTR_DECISION]).toBe('skip');
  });

  it('does not invoke a hook that lacks the phase method, and records nothing for it', async () => {
    const r = runner([{ name: 'afterOnly', afterTool: () => abort('x') }]);
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
    expect(tracing.spans()).toHaveLength(0);
  });

  it('swallows a crashing hook and goes on (fail-open)', async () => {
    const r = runner([
      before('crashy', () => {
        throw new Error('boom');
      }),
      before('next', () => skip('fine')),
    ]);
    expect(await r.runBefore('t', {}, undefined)).toEqual(skip('fine'));
    const span = onlySpan(SPAN_BEFORE_TOOL);
    const [error] = eventsOf(span, EVENT_HOOK_ERROR);
    expect(error?.attributes).toMatchObject({
      [ATTR_HOOK_NAME]: 'crashy',
      [ATTR_HOOK_ERROR_KIND]: 'threw',
      [ATTR_EXCEPTION_TYPE]: 'Error',
      [ATTR_EXCEPTION_MESSAGE]: 'boom',
      [ATTR_FAILURE_MODE]: 'open',
    });
    expect(String(error?.attributes[ATTR_EXCEPTION_STACKTRACE])).toContain('boom');
    expect(span.attributes[ATTR_HOOK_ERRORS]).toBe(1);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(warnings.some((w) => w.includes('"crashy" failed in before_tool') && w.includes('boom'))).toBe(true);
  });

  it('treats a non-decision return value as an invalid_decision error and Continue', async () => {
    const r = runner([{ name: 'junk', beforeTool: () => 'skip' as unknown as HookDecision }]);
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
    const [error] = eventsOf(onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_ERROR);
    expect(error?.attributes[ATTR_HOOK_ERROR_KIND]).toBe('invalid_decision');
    expect(error?.attributes[ATTR_EXCEPTION_MESSAGE]).toMatch(/hook "junk" returned the string "skip"; return skip\('reason', stub\) instead/);
  });

  it('treats a Redirect literal with neither target as invalid_decision', async () => {
    const r = runner([{ name: 'r', beforeTool: () => ({ kind: 'redirect', reason: 'x' }) as unknown as HookDecision }]);
    expect(await r.runBefore('t', {}, undefined)).toBe(CONTINUE);
    const [error] = eventsOf(onlySpan(SPAN_BEFORE_TOOL), EVENT_HOOK_ERROR);
    expect(error?.attributes[ATTR_HOOK_ERROR_KIND]).toBe('invalid_decision');
  });

  it('accepts well-formed plain literals and returns them frozen', async () => {
    const r = runner([{ name: 'lit', beforeTool: () => ({ kind: 'skip', reason: 'r' }) as HookDecision }]);
    const decision = await r.runBefore('t', {}, undefined);
    expect(decision).toEqual({ kind: 'skip', reason: 'r', stubResult: '' });
    expect(Object.isFrozen(decision)).toBe(true);
  });
});
