/**
 * The Cedar policy set the cedarPolicy tests decide with (unit and integration): a destructive shell
 * command forbidden, mail outside example.com asked about, shell for the ops group, nothing before_tool on
 * staging; the agent is the principal.
 */
import { cedarPolicy } from '../../src/policy/index.js';
import type { PolicyEngine } from '../../src/policy/index.js';

export const CEDAR_POLICIES = `
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

export const CEDAR_ENTITIES = [
  { uid: { type: 'Agent', id: 'ops-bot' }, attrs: {}, parents: [{ type: 'Group', id: 'ops' }] },
  { uid: { type: 'Group', id: 'ops' }, attrs: {}, parents: [] },
];

/** A cedarPolicy over {@link CEDAR_POLICIES} and {@link CEDAR_ENTITIES}, the input's agent as the principal. */
export function cedarGate(): Promise<PolicyEngine> {
  return cedarPolicy({ policies: CEDAR_POLICIES, entities: CEDAR_ENTITIES, principal: (i) => `Agent::"${i.agent ?? 'anonymous'}"` });
}
