/**
 * cedarPolicy with the real `@cedar-policy/cedar-wasm` deciding a hostile input through policyHook: 100k
 * keys, a cycle, a 50 MB string (the unit tests of src/policy/cedar.ts are in test/unit/policy/cedar.test.ts).
 * In the integration tier for its size, which the unit loop should not pay for.
 */
import { describe, expect, it } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { cedarPolicy, policyHook } from '../../../src/policy/index.js';
import type { PolicyEngine } from '../../../src/policy/index.js';

const POLICIES = `
@id("no-rm") @reason("destructive shell command")
forbid (principal, action == Action::"shell", resource) when { context.args.cmd like "rm -rf*" };

@id("mail-outside") @decision("requires-approval")
permit (principal, action == Action::"send_email", resource) unless { context.args.to like "*@example.com" };

@id("mail-inside")
permit (principal, action == Action::"send_email", resource) when { context.args.to like "*@example.com" };

@id("ops-shell")
permit (principal in Group::"ops", action == Action::"shell", resource);

@id("prod-only")
forbid (principal, action, resource) when { context has env && context.env == "staging" && context.phase == "before_tool" };
`;

const ENTITIES = [
  { uid: { type: 'Agent', id: 'ops-bot' }, attrs: {}, parents: [{ type: 'Group', id: 'ops' }] },
  { uid: { type: 'Group', id: 'ops' }, attrs: {}, parents: [] },
];

async function engine(): Promise<PolicyEngine> {
  return cedarPolicy({ policies: POLICIES, entities: ENTITIES, principal: (i) => `Agent::"${i.agent ?? 'anonymous'}"` });
}

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
