/**
 * Ask through the Agents SDK's own approvals (`approvals: 'framework'`): the hooked `needsApproval`
 * asks (pass 1, the run interrupts), the app answers with `state.approve` / `state.reject`, and the
 * resumed run invokes the approved call (pass 2) or reports the rejection — which the adapter sees
 * only through the Runner's `toolErrorFormatter` ({@link approvalRejections}).
 */
import { typeName } from '../../internal/describe.js';
import type { RunnerCore } from '../../runner/core.js';
import type { ApprovalHandoff } from '../../runner/handoff.js';
import type { ToolArgs } from '../../hook.js';
import { ApprovalLedger, alreadyResolved, askedInOf, callDigest, notAskedAbout } from '../approval-ledger.js';
import { HeldCalls } from './held-calls.js';
import { recordDeniedCall } from '../denied-call.js';
import type { ApprovalRejectionsOptions, ToolErrorFormatter } from './types.js';

/** The Agents SDK approvals of one `withHooks(…, { approvals: 'framework' })`. @internal */
export class AgentsSdkApprovals {
  readonly ledger: ApprovalLedger;
  readonly held: HeldCalls;

  constructor(
    readonly core: RunnerCore,
    where: string,
  ) {
    this.ledger = new ApprovalLedger(where);
    // The SDK's approvals outlive the process (RunState.toString()) and carry no run id: an approval is
    // kept under its call id, with the digest of the call it is about.
    this.held = new HeldCalls((pending, about) => this.ledger.asked(pending.id, about, pending.spanContext));
  }

  /** Marks a hooked tool as one of these approvals' (for {@link approvalRejections}). */
  register(tool: object, name: string): void {
    registry.set(tool, { approvals: this, name });
  }

  /**
   * The hand-off of a call the SDK invokes: the app's approval when its run state approved the call
   * (`undefined` when it did not — the call runs as the hooks decide, a new Ask with the runner's
   * approver), or the text the model reads instead when the call must not run: its approval was
   * already used here, or this process asked about another call under its id (other arguments).
   * The latter is recorded as a `denied` call.
   */
  async continuation(runContext: unknown, toolName: string, callId: string, args: ToolArgs): Promise<ApprovalHandoff | string | undefined> {
    if (approvalOf(runContext, toolName, callId) !== true) return undefined;
    const resolution = this.ledger.resolve(callId, callDigest(toolName, args));
    if (resolution.kind === 'resolved') return alreadyResolved(callId);
    if (resolution.kind === 'differs') {
      await recordDeniedCall(this.core, { toolName, callId, approvalId: callId, args, resolution });
      return notAskedAbout(callId);
    }
    return { id: callId, answer: { response: { approved: true }, askedIn: askedInOf(resolution) } };
  }
}

/** The SDK's decision for a call in its run context: true approved, false rejected, undefined none. */
function approvalOf(runContext: unknown, toolName: string, callId: string): boolean | undefined {
  if (runContext === null || typeof runContext !== 'object') return undefined;
  try {
    const isToolApproved = (runContext as { isToolApproved?: unknown }).isToolApproved;
    if (typeof isToolApproved !== 'function') return undefined;
    const decision: unknown = isToolApproved.call(runContext, { toolName, callId });
    return typeof decision === 'boolean' ? decision : undefined;
  } catch {
    return undefined;
  }
}

/** Builds the approvals of one `withHooks`. @internal */
export function agentsSdkApprovals<S>(core: RunnerCore<S>, where: string): AgentsSdkApprovals {
  return new AgentsSdkApprovals(core as RunnerCore, where);
}

/** Hooked tools (with `approvals: 'framework'`) and whose approvals they are. */
const registry = new WeakMap<object, { readonly approvals: AgentsSdkApprovals; readonly name: string }>();

/**
 * A `toolErrorFormatter` for the Agents SDK's `Runner` that records each call of the given hooked
 * tools (`withHooks(…, { approvals: 'framework' })`) the app rejected with `state.reject(item)`:
 * the SDK never invokes a rejected tool nor asks its `needsApproval` again, and this formatter is
 * the one place it reports the rejection. Each is recorded as a `denied` call (`execute_tool` span
 * with `toolhooks.approval.id` = the call id, a link to the asking span when this process asked).
 * The model reads your `formatter`'s message when it gives one, else the SDK's rejection text with
 * a sentence saying the tool did not run (the SDK sends rejected calls with `status: 'completed'`).
 * A rejection with its own message (`state.reject(item, { message })`) never reaches a formatter:
 * the SDK sends that message and the rejection is not recorded.
 *
 * @example
 * ```ts
 * const tools = withHooks([sendEmail], runner, { approvals: 'framework' });
 * const agent = new Agent({ name: 'mail', tools });
 * const sdk = new Runner({ toolErrorFormatter: approvalRejections(tools) });
 * let result = await sdk.run(agent, 'Email the team');
 * for (const item of result.interruptions) result.state.reject(item);
 * result = await sdk.run(agent, result.state); // recorded as denied; the model reads the rejection
 * ```
 */
export function approvalRejections(tools: readonly unknown[], options?: ApprovalRejectionsOptions): ToolErrorFormatter {
  const where = 'approvalRejections';
  if (!Array.isArray(tools)) throw new TypeError(`${where}: tools must be the array withHooks returned, got ${typeName(tools)}`);
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    throw new TypeError(`${where}: options must be an object, got ${typeName(options)}`);
  }
  const formatter = options?.formatter;
  if (formatter !== undefined && typeof formatter !== 'function') {
    throw new TypeError(`${where}: options.formatter must be a toolErrorFormatter function, got ${typeName(formatter)}`);
  }
  const byName = new Map<string, AgentsSdkApprovals>();
  for (const tool of tools as readonly unknown[]) {
    const entry = tool !== null && typeof tool === 'object' ? registry.get(tool) : undefined;
    if (entry !== undefined && !byName.has(entry.name)) byName.set(entry.name, entry.approvals);
  }
  if (byName.size === 0) {
    throw new TypeError(`${where}: tools holds no tool of withHooks(tools, runner, { approvals: 'framework' }); pass the array withHooks returned`);
  }
  return async (args) => {
    const own = formatter === undefined ? undefined : await formatter(args);
    const approvals = args.kind === 'approval_rejected' && args.toolType === 'function' ? byName.get(args.toolName) : undefined;
    if (approvals === undefined) return own;
    // The SDK tells the call id, not the arguments: the oldest ask of the id is the one rejected.
    const resolution = approvals.ledger.resolve(args.callId, undefined);
    if (resolution.kind !== 'resolved') await recordDeniedCall(approvals.core, { toolName: args.toolName, callId: args.callId, approvalId: args.callId, resolution });
    return own ?? `${args.defaultMessage} The tool "${args.toolName}" was not run.`;
  };
}
