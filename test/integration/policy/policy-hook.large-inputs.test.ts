/**
 * policyHook's input document on a large input (the unit tests of src/policy/policy-hook.ts are in
 * test/unit/policy/policy-hook.test.ts): 100k keys, a cycle and a 50 MB string reach the engine cut. In the
 * integration tier for its size, which the unit loop should not pay for.
 */
import { describe, expect, it } from 'vitest';
import { HookAbortError, executeTool } from '../../../src/index.js';
import type { ToolArgs } from '../../../src/index.js';
import { policyHook } from '../../../src/policy/index.js';
import type { PolicyEngine, PolicyInput } from '../../../src/policy/index.js';
import { MAX_INPUT_CHARS } from '../../../src/policy/input.js';
import { recordingEngine } from '../../support/policy-engine.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();


/** One call of `toolName` through policyHook(policy) on a runner with agentName ops-bot. */
async function call(policy: PolicyEngine, toolName: string, args: ToolArgs): Promise<{ result?: unknown; error?: unknown }> {
  const runner = tracing.runner([policyHook(policy)], { agentName: 'ops-bot' });
  try {
    return { result: await executeTool({ hooks: runner, toolName, args, callId: 'call-1', execute: (a) => `ran ${toolName} ${JSON.stringify(a)}` }) };
  } catch (error) {
    return { error };
  }
}

describe('policyHook: the input document, large', () => {
  it('is bounded: 100k keys, a cycle and a 50 MB string reach the engine cut, and the call is decided', async () => {
    const huge: Record<string, unknown> = {};
    for (let index = 0; index < 100_000; index += 1) huge[`k${index}`] = index;
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const args = { cmd: 'x'.repeat(50 * 1024 * 1024), huge, cyclic };
    const policy = recordingEngine((input: PolicyInput) => ({ decision: 'deny', reason: `saw ${JSON.stringify(input).length} chars` }));
    const { error } = await call(policy, 'shell', args);
    expect(error).toBeInstanceOf(HookAbortError);
    const input = policy.inputs[0] as PolicyInput;
    expect(JSON.stringify(input).length).toBeLessThanOrEqual(MAX_INPUT_CHARS);
    expect(String(input.args.cmd)).toMatch(/…\[truncated \d+\]$/);
    expect(input.tool).toBe('shell');
    expect(input.context).toEqual({});
  });

});
