/**
 * A before_tool phase run ahead of its call (a framework that asks for approval before it runs the
 * tool): the hooks run once, the call that follows uses their decision, and an Abort held from the
 * phase ends that call as aborted.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, ask, redirect } from '../../../src/index.js';
import { ATTR_APPROVAL_OUTCOME, ATTR_OUTCOME, ATTR_REDIRECTED, SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import type { CallPlan } from '../../../src/flows/execute-tool.js';
import { runToolCall } from '../../../src/flows/execute-tool.js';
import type { CallSpec } from '../../../src/flows/call-spec.js';
import { isPendingBefore, runBeforeAhead } from '../../../src/flows/before-ahead.js';
import { runnerCore } from '../../../src/runner/registry.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

function setup(hook: ToolHook) {
  const runner = new HookRunner({ hooks: [hook], tracer: tracing.tracer });
  const execute = vi.fn((args: Record<string, unknown>) => `read ${String(args.path)}`);
  const spec: CallSpec<unknown> = { core: runnerCore(runner, 'test'), toolName: 'read_file', args: { path: '/a' }, state: undefined, callId: 'call_1' };
  const plan = (extra: Partial<CallPlan<unknown>>): CallPlan<unknown> => ({ ...spec, execute, redirectExecutor: () => undefined, maxRetries: 0, maxReexecutions: 0, ...extra });
  return { spec, plan, execute };
}

describe('runBeforeAhead', () => {
  it('runs the hooks once; the call uses their decision', async () => {
    const beforeTool = vi.fn(() => redirect({ newArgs: { path: '/b' } }));
    const { spec, plan, execute } = setup({ name: 'sandbox', beforeTool });
    const held = await runBeforeAhead(spec);
    expect(isPendingBefore(held)).toBe(false);
    expect(await runToolCall(plan({ before: held }))).toBe('read /b');
    expect(beforeTool).toHaveBeenCalledTimes(1);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(1);
    expect(tracing.onlySpan('execute_tool read_file').attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_REDIRECTED]: true });
  });

  it('holds an Abort for the call, which ends as aborted', async () => {
    const { spec, plan, execute } = setup({ name: 'policy', beforeTool: () => abort('no') });
    const held = await runBeforeAhead(spec);
    await expect(runToolCall(plan({ before: held }))).rejects.toBeInstanceOf(HookAbortError);
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.onlySpan('execute_tool read_file').attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('hands an Ask over; the pending call carries the approval outcome', async () => {
    const { spec, plan, execute } = setup({ name: 'gate', beforeTool: () => ask('check') });
    const onPending = vi.fn();
    const held = await runBeforeAhead({ ...spec, handoff: { id: 'call_1', onPending } });
    expect(isPendingBefore(held)).toBe(true);
    expect(onPending).toHaveBeenCalledTimes(1);
    await runToolCall(plan({ before: held }));
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.onlySpan('execute_tool read_file').attributes).toMatchObject({ [ATTR_OUTCOME]: 'pending', [ATTR_APPROVAL_OUTCOME]: 'pending' });
  });
});
