/**
 * The approval hand-off, as an adapter uses it: the call that asks ends as `pending` without running
 * the tool; the continuation carries the framework's answer, its id, and a link to the asking span; a
 * framework that suspends by throwing gets its error back; the ledger refuses a second resolution.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalEvent, ToolEvent, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookRunner, ask, replaceResult, skip } from '../../../src/index.js';
import {
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_ERROR_TYPE,
  ATTR_OUTCOME,
  SPAN_AFTER_TOOL,
  SPAN_APPROVAL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
} from '../../../src/telemetry/semconv.js';
import type { CallPlan } from '../../../src/flows/execute-tool.js';
import { runToolCall } from '../../../src/flows/execute-tool.js';
import type { ApprovalHandoff, HandoffRequest } from '../../../src/runner/handoff.js';
import { runnerCore } from '../../../src/runner/registry.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();
afterEach(() => vi.restoreAllMocks());

const gate: ToolHook = { name: 'mail-gate', beforeTool: () => ask('outgoing mail') };

function setup(hooks: ToolHook[], approver = vi.fn(() => ({ approved: true as const }))) {
  const events: ToolHookEvent[] = [];
  const runner = new HookRunner({ hooks: [...hooks, { name: 'rec', onEvent: (event) => void events.push(event) }], tracer: tracing.tracer, approver });
  const execute = vi.fn((args: Record<string, unknown>) => `sent to ${String(args.to)}`);
  const plan = (handoff: ApprovalHandoff): CallPlan<unknown> => ({
    core: runnerCore(runner, 'test'),
    toolName: 'send_email',
    args: { to: 'ops@example.com' },
    state: undefined,
    callId: 'call_1',
    execute,
    redirectExecutor: () => undefined,
    maxReexecutions: 0,
    maxRetries: 0,
    handoff,
  });
  return { events, execute, approver, plan };
}

describe('the call that asks', () => {
  it('ends as pending, runs neither the tool nor after_tool, and tells the adapter what to ask', async () => {
    const after = vi.fn();
    const { events, execute, approver, plan } = setup([gate, { name: 'audit', afterTool: after }]);
    const pending: HandoffRequest[] = [];
    await runToolCall(plan({ id: 'approval-7', onPending: (p) => void pending.push(p) }));
    expect(execute).not.toHaveBeenCalled();
    expect(after).not.toHaveBeenCalled();
    expect(approver).not.toHaveBeenCalled();

    const root = tracing.onlySpan('execute_tool send_email');
    expect(tracing.childNames(root)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL]);
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'pending', [ATTR_APPROVAL_OUTCOME]: 'pending', [ATTR_APPROVAL_ID]: 'approval-7' });
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes).toMatchObject({ [ATTR_APPROVAL_OUTCOME]: 'pending', [ATTR_APPROVAL_ID]: 'approval-7' });
    expect(tracing.spansNamed(SPAN_AFTER_TOOL)).toHaveLength(0);

    expect(pending).toEqual([
      expect.objectContaining({ id: 'approval-7', toolName: 'send_email', args: { to: 'ops@example.com' }, reason: 'outgoing mail', hook: 'mail-gate' }),
    ]);
    expect(pending[0]!.spanContext?.spanId).toBe(root.spanContext().spanId);
    const approval = events.find((e): e is ApprovalEvent => e.type === 'approval');
    expect(approval).toMatchObject({ outcome: 'pending', id: 'approval-7' });
    expect(events.find((e): e is ToolEvent => e.type === 'tool')).toMatchObject({ outcome: 'pending', approval: 'pending' });
  });

  it('is denied (fail closed) when the adapter’s callback throws', async () => {
    const { execute, plan } = setup([gate]);
    const result = await runToolCall(plan({ onPending: () => { throw new Error('ui is down'); } }));
    expect(result).toBe('Tool call denied: error');
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.onlySpan('execute_tool send_email').attributes).toMatchObject({ [ATTR_OUTCOME]: 'denied', [ATTR_APPROVAL_OUTCOME]: 'error' });
  });

  it('runs as the hooks decide when none asks: the hand-off is not used', async () => {
    const { execute, plan } = setup([]);
    const onPending = vi.fn();
    expect(await runToolCall(plan({ onPending }))).toBe('sent to ops@example.com');
    expect(onPending).not.toHaveBeenCalled();
    expect(execute).toHaveBeenCalledTimes(1);
  });
});

describe('the continuation', () => {
  it('runs the approved call once, with the framework’s id and a link to the asking span', async () => {
    const { execute, approver, plan } = setup([gate, { name: 'rewrite', afterTool: () => replaceResult('rewritten') }]);
    let asked: HandoffRequest | undefined;
    await runToolCall(plan({ id: 'approval-8', onPending: (p) => (asked = p) }));
    tracing.reset();

    const result = await runToolCall(plan({ id: 'approval-8', answer: { response: { approved: true, approver: 'user' }, askedIn: asked?.spanContext } }));
    expect(result).toBe('rewritten');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(approver).not.toHaveBeenCalled();
    const root = tracing.onlySpan('execute_tool send_email');
    expect(tracing.childNames(root)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL, SPAN_EXECUTE, SPAN_AFTER_TOOL]);
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: 'approval-8' });
    expect(root.links.map((link) => link.context.spanId)).toEqual([asked?.spanContext?.spanId]);
    expect(root.links[0]?.attributes).toEqual({ [ATTR_APPROVAL_ID]: 'approval-8' });
  });

  it('applies the framework’s edits, and records a denial as denied without running the tool', async () => {
    const { execute, plan } = setup([gate]);
    expect(await runToolCall(plan({ id: 'a', answer: { response: { approved: true, args: { to: 'team@example.com' } } } }))).toBe('sent to team@example.com');
    expect(await runToolCall(plan({ id: 'b', answer: { response: { approved: false, reason: 'not today' } } }))).toBe('Tool call denied: not today');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(tracing.outcomesOf('send_email')).toEqual(['completed', 'denied']);
  });

  it('treats a malformed answer as an approver error: denied', async () => {
    const { execute, plan } = setup([gate]);
    const response = { approved: 'yes' } as unknown as { approved: true };
    expect(await runToolCall(plan({ answer: { response } }))).toBe('Tool call denied: error');
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes[ATTR_ERROR_TYPE]).toBe('TypeError');
  });
});

describe('a framework that suspends by throwing', () => {
  class Interrupt extends Error {}

  it('gets its error back, and the call ends once, as pending', async () => {
    const { execute, plan } = setup([gate]);
    const interrupt = new Interrupt('waiting for a person');
    const handoff: ApprovalHandoff = { id: 'call_1', isSuspension: (error) => error instanceof Interrupt };
    await expect(runToolCall({ ...plan(handoff), approver: () => { throw interrupt; } })).rejects.toBe(interrupt);
    expect(execute).not.toHaveBeenCalled();
    const root = tracing.onlySpan('execute_tool send_email');
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'pending', [ATTR_APPROVAL_OUTCOME]: 'pending' });
    expect(root.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
  });

  it('a suspension thrown by the tool itself: the call ends as pending, no on_error, the error is rethrown', async () => {
    const onError = vi.fn(() => skip('swallowed', 'stub'));
    const afterTool = vi.fn();
    const { plan } = setup([{ name: 'recover', onError, afterTool }]);
    const interrupt = new Interrupt('the tool asks a person');
    const execute = vi.fn(async () => {
      await Promise.resolve();
      throw interrupt;
    });
    await expect(runToolCall({ ...plan({ isSuspension: (error) => error instanceof Interrupt }), execute })).rejects.toBe(interrupt);
    expect(onError).not.toHaveBeenCalled();
    expect(afterTool).not.toHaveBeenCalled();
    const root = tracing.onlySpan('execute_tool send_email');
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'pending' });
    expect(root.attributes[ATTR_ERROR_TYPE]).toBeUndefined();
    expect(tracing.onlySpan(SPAN_EXECUTE).status.code).toBe(SpanStatusCode.UNSET);
    // Any other error the tool throws is a failure as always.
    tracing.reset();
    const failing = vi.fn(() => {
      throw new RangeError('boom');
    });
    expect(await runToolCall({ ...plan({ isSuspension: (error) => error instanceof Interrupt }), execute: failing })).toBe('stub');
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it('still fails closed on any other error the approver throws', async () => {
    const { execute, plan } = setup([gate]);
    const handoff: ApprovalHandoff = { isSuspension: (error) => error instanceof Interrupt };
    expect(await runToolCall({ ...plan(handoff), approver: () => { throw new Error('boom'); } })).toBe('Tool call denied: error');
    expect(execute).not.toHaveBeenCalled();
  });
});
