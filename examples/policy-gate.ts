/**
 * Policies as code: a policy the security team owns decides every tool call, and each decision names the
 * policy on the trace. Offline, no OPA CLI needed. Run: npx tsx examples/policy-gate.ts
 *
 * The policy is Cedar (`cedarPolicy`, in process): Rego must first be compiled to wasm by the `opa` CLI,
 * which a newcomer's machine may not have. The same policy in Rego, for `opaWasm` once compiled
 * (`opa build -t wasm -e toolhooks/decision policy.rego`):
 *
 *   package toolhooks
 *   default decision := {"decision": "allow"}
 *   decision := {"decision": "deny", "reason": "destructive command", "policies": ["no-rm"]} if {
 *     input.tool == "shell"; contains(input.args.cmd, "rm -rf") }
 *   decision := {"decision": "redirect", "tool": "sandbox_shell", "reason": "network goes through the sandbox",
 *     "policies": ["sandbox-network"]} if { input.tool == "shell"; startswith(input.args.cmd, "curl ") }
 *   decision := {"decision": "requires-approval", "reason": "mail leaves the company", "policies": ["mail-outside"]} if {
 *     input.tool == "send_email"; not endswith(input.args.to, "@example.com") }
 *
 * Cedar answers allow or deny only; the redirect is toolhooks' extension, so this example's engine
 * wraps Cedar and turns a deny by the `sandbox-network` policy into a redirect to the sandbox tool
 * (a Rego policy answers `{"decision": "redirect", …}` itself).
 */
import type { ApprovalRequest, ToolArgs } from 'toolhooks';
import { HookAbortError, HookRunner, executeTool } from 'toolhooks';
import { startTelemetry } from 'toolhooks/node';
import type { PolicyEngine, PolicyInput, PolicyResult } from 'toolhooks/policy';
import { cedarPolicy, policyHook } from 'toolhooks/policy';

// Prints each trace as a tree; without `console`, startTelemetry exports over OTLP instead.
const telemetry = await startTelemetry({ console: 'tree' });

const POLICIES = `
@id("no-rm") @reason("destructive command")
forbid (principal, action == Action::"shell", resource) when { context.args.cmd like "*rm -rf*" };

@id("sandbox-network") @reason("network goes through the sandbox")
forbid (principal, action == Action::"shell", resource) when { context.args.cmd like "curl *" };

@id("mail-outside") @decision("requires-approval") @reason("mail leaves the company")
permit (principal, action == Action::"send_email", resource) unless { context.args.to like "*@example.com" };

@id("default")
permit (principal, action, resource) unless { action == Action::"send_email" && !(context.args.to like "*@example.com") };
`;

const cedar = await cedarPolicy({ policies: POLICIES, principal: (input) => `Agent::"${input.agent ?? 'anonymous'}"` });

/** Cedar, with a deny by `sandbox-network` turned into a redirect to the sandbox tool. */
const engine: PolicyEngine = {
  name: cedar.name,
  ...(cedar.digest === undefined ? {} : { digest: cedar.digest }),
  async evaluate(input: PolicyInput, options: { readonly signal: AbortSignal }): Promise<PolicyResult> {
    const result = await cedar.evaluate(input, options);
    if (result.decision !== 'deny' || result.policies?.includes('sandbox-network') !== true) return result;
    return { ...result, decision: 'redirect', tool: 'sandbox_shell' };
  },
};

const tools = {
  shell: (args: ToolArgs) => `ran ${String(args.cmd)}`,
  sandbox_shell: (args: ToolArgs) => `sandbox ran: ${String(args.cmd)}`,
  send_email: (args: ToolArgs) => `sent to ${String(args.to)}`,
};

const hooks = new HookRunner({
  hooks: [policyHook(engine)],
  agentName: 'ops-bot',
  // Whoever is on call answers; this one approves nothing that leaves the company.
  approver: (request: ApprovalRequest) => ({ approved: false, reason: `on call says no (${request.reason})`, approver: 'on-call' }),
});

const calls: [keyof typeof tools, ToolArgs][] = [
  ['shell', { cmd: 'ls' }],
  ['shell', { cmd: 'rm -rf /' }],
  ['shell', { cmd: 'curl https://example.com' }],
  ['send_email', { to: 'ann@example.com' }],
  ['send_email', { to: 'eve@elsewhere.org' }],
];
for (const [toolName, args] of calls) {
  try {
    const result = await executeTool({ hooks, toolName, args, tools, execute: tools[toolName] });
    console.log(`${toolName} ${JSON.stringify(args)}: ${String(result)}\n`);
  } catch (error) {
    if (!(error instanceof HookAbortError)) throw error;
    console.log(`${toolName} ${JSON.stringify(args)}: refused (${error.reason})\n`);
  }
}
await telemetry.shutdown();
