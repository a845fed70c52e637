/** The HookContext a hook receives: phase, attempt, call id, and a signal that aborts when it should. */
import { describe, expect, it } from 'vitest';
import { InvocationContext } from '../../../src/runner/context.js';

describe('InvocationContext', () => {
  it('carries the phase, attempt and call id, and no callId when none was given', () => {
    const ctx = new InvocationContext('before_tool', 2, 'call-1', undefined);
    expect([ctx.phase, ctx.attempt, ctx.callId]).toEqual(['before_tool', 2, 'call-1']);
    expect('callId' in new InvocationContext('after_tool', 1, undefined, undefined)).toBe(false);
  });

  it("carries the agent's name when known, and no agentName otherwise", () => {
    expect(new InvocationContext('before_tool', 1, undefined, undefined, 'ops-bot').agentName).toBe('ops-bot');
    expect('agentName' in new InvocationContext('before_tool', 1, undefined, undefined)).toBe(false);
  });

  it("reaches hooks from the flow's agentName, else the runner's, also through the run methods", async () => {
    const { HookRunner, executeTool } = await import('../../../src/index.js');
    const seen: (string | undefined)[] = [];
    const runner = new HookRunner({ hooks: [{ beforeTool: (_tool, _args, _state, ctx) => void seen.push(ctx.agentName) }], agentName: 'runner-agent' });
    await executeTool({ hooks: runner, toolName: 't', args: {}, execute: () => 1 });
    await executeTool({ hooks: runner, toolName: 't', args: {}, agentName: 'flow-agent', execute: () => 1 });
    await runner.runBefore('t', {}, undefined);
    expect(seen).toEqual(['runner-agent', 'flow-agent', 'runner-agent']);
  });

  it('gives the same signal on every read, not aborted until the runner aborts it', () => {
    const ctx = new InvocationContext('before_tool', 1, undefined, undefined);
    const signal = ctx.signal;
    expect(ctx.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    ctx.abort('timed out');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('timed out');
  });

  it('gives an aborted signal when the abort came before the hook first read it', () => {
    const ctx = new InvocationContext('before_tool', 1, undefined, undefined);
    ctx.abort('too late');
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBe('too late');
  });

  it("aborts with the caller's signal", () => {
    const parent = new AbortController();
    const ctx = new InvocationContext('on_error', 1, undefined, parent.signal);
    const signal = ctx.signal;
    expect(signal.aborted).toBe(false);
    parent.abort('agent cancelled');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('agent cancelled');
  });

  it("aborts with its own reason when a caller's signal is given too, whether read before or after", () => {
    const early = new InvocationContext('before_tool', 1, undefined, new AbortController().signal);
    early.abort('timed out');
    expect(early.signal.aborted).toBe(true);
    expect(early.signal.reason).toBe('timed out');
    const late = new InvocationContext('before_tool', 1, undefined, new AbortController().signal);
    const signal = late.signal;
    late.abort('timed out');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('timed out');
  });
});
