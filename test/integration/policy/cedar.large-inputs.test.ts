/**
 * cedarPolicy with the real `@cedar-policy/cedar-wasm` deciding a hostile input through policyHook: 100k
 * keys, a cycle, a 50 MB string (the unit tests of src/policy/cedar.ts are in test/unit/policy/cedar.test.ts).
 * In the integration tier for its size, which the unit loop should not pay for.
 */
import { describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { policyHook } from '../../../src/policy/index.js';
import { cedarGate } from '../../support/cedar-gate.js';


const engine = cedarGate;

describe('cedarPolicy on a large input', () => {
  it('decides a hostile input through policyHook: 100k keys, a cycle, a 50 MB string', async () => {
    const cedar = await engine();
    const huge: Record<string, unknown> = {};
    for (let index = 0; index < 100_000; index += 1) huge[`k${index}`] = index;
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const runner = new HookRunner({ hooks: [policyHook(cedar)], agentName: 'ops-bot' });
    await expect(
      executeTool({ hooks: runner, toolName: 'shell', args: { cmd: `rm -rf ${'x'.repeat(50 * 1024 * 1024)}`, huge, cyclic }, execute: () => 'ran' }),
    ).rejects.toThrow('destructive shell command');
  });
});
