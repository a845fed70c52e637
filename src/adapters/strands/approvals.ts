/**
 * How toolhooksHooks hands an Ask to a Strands interrupt (`approvals: 'framework'`): the asking call
 * raises an interrupt from inside the tool's run (`toolContext.interrupt`), Strands stops the agent
 * with `stopReason: 'interrupt'` and keeps the call pending (in its snapshot too), and the invocation
 * that carries the app's `interruptResponse` runs the call again, where the same interrupt returns the
 * answer — in this process or another (a session restored from a snapshot). An answer is bound to the
 * call it was asked for: Strands pins the interrupt to the tool use id; one that comes back to another
 * tool or other arguments than this process asked about is refused (the call is denied) and recorded.
 * @internal
 */
import { isPlainObject } from '../../decisions.js';
import type { ApprovalHandoff } from '../../runner/handoff.js';
import type { ApprovalRequest, ApprovalResponse, Approver, ToolArgs } from '../../hook.js';
import { setBounded } from '../../internal/bounded-map.js';
import { quoteValue } from '../../internal/describe.js';
import { ApprovalLedger, alreadyResolved, askedInOf, callDigest, callSpanContext, linkToAsker } from '../approval-ledger.js';
import { jsonOf } from '../json-text.js';
import type { StrandsToolContext, ToolhooksInterruptReason } from './types.js';

/** The name of the interrupt an Ask raises (Strands' interrupt id is `tool:<toolUseId>:toolhooks`). */
const INTERRUPT_NAME = 'toolhooks';

/** Strands' suspension: the `InterruptError` an unanswered interrupt throws (recognised by name, without loading Strands). */
function isStrandsInterrupt(error: unknown): boolean {
  return error instanceof Error && error.name === 'InterruptError' && Array.isArray((error as { interrupts?: unknown }).interrupts);
}

/** The approver and hand-off of one call whose Ask becomes a Strands interrupt. */
interface CallApprovals {
  readonly approver: Approver;
  readonly handoff: ApprovalHandoff & { readonly isSuspension: (error: unknown) => boolean };
}

/** What this process asked about, by tool use id: the tool and its arguments as JSON. */
interface Asked {
  readonly toolName: string;
  readonly args: string | undefined;
}

/** The in-process memory of one handler's interrupts: who asked (for the link) and what about (for binding). */
export class StrandsApprovals {
  readonly ledger = new ApprovalLedger('toolhooksHooks (Strands interrupt)');
  readonly #asked = new Map<string, Asked>();

  /** The approver and hand-off of the call running with `toolContext`. */
  forCall(toolContext: StrandsToolContext): CallApprovals {
    return {
      approver: (request) => this.#ask(toolContext, request),
      handoff: { id: toolContext.toolUse.toolUseId, isSuspension: isStrandsInterrupt },
    };
  }

  #ask(toolContext: StrandsToolContext, request: ApprovalRequest): ApprovalResponse {
    const { id, toolName, args, redactedArgs, reason, hook } = request;
    let answer: unknown;
    try {
      answer = toolContext.interrupt({ name: INTERRUPT_NAME, reason: { toolhooks: { approvalId: id, toolName, args, redactedArgs, hook, reason } } satisfies ToolhooksInterruptReason });
    } catch (error) {
      if (isStrandsInterrupt(error)) {
        this.ledger.asked(id, callDigest(toolName, args), callSpanContext());
        setBounded(this.#asked, id, { toolName, args: jsonOf(args) }, 10_000);
      }
      throw error;
    }
    // Strands' own reason when this process asked about another call under the id; the ledger decides the rest.
    const named = this.#mismatch(id, toolName, args);
    const resolution = this.ledger.resolve(id, callDigest(toolName, args));
    if (resolution.kind === 'resolved') return { approved: false, reason: alreadyResolved(id) };
    const askedIn = askedInOf(resolution);
    if (askedIn !== undefined) linkToAsker(askedIn, id);
    const mismatch = named ?? (resolution.kind === 'differs' ? 'arguments_mismatch' : undefined);
    if (mismatch !== undefined) return { approved: false, reason: `interrupt response refused: ${mismatch}` };
    return readAnswer(answer);
  }

  /** Whether the call `id` is the one this process asked about (another process's ask is bound by Strands to the tool use id). */
  #mismatch(id: string, toolName: string, args: ToolArgs): 'tool_name_mismatch' | 'arguments_mismatch' | undefined {
    const asked = this.#asked.get(id);
    if (asked === undefined) return undefined;
    this.#asked.delete(id);
    if (asked.toolName !== toolName) return 'tool_name_mismatch';
    return asked.args === jsonOf(args) ? undefined : 'arguments_mismatch';
  }
}

/**
 * The app's interrupt response as an approval: toolhooks' own `{ approved, reason?, args? }`, or what
 * Strands' own `confirm` accepts (`true`, `'y'`, `'yes'` approve; `false` and other text deny).
 */
function readAnswer(answer: unknown): ApprovalResponse {
  if (answer === true) return { approved: true };
  if (answer === false) return { approved: false, reason: 'denied in the interrupt response' };
  if (typeof answer === 'string') {
    return ['y', 'yes'].includes(answer.trim().toLowerCase()) ? { approved: true } : { approved: false, reason: answer };
  }
  if (isPlainObject(answer) && typeof answer.approved === 'boolean') {
    if (answer.args !== undefined && !isPlainObject(answer.args)) throw new TypeError(`toolhooksHooks: an interrupt response's args must be a plain object, got ${quoteValue(answer.args)}`);
    return answer as unknown as ApprovalResponse;
  }
  throw new TypeError(`toolhooksHooks: an interrupt response must be true, false, 'yes', or { approved: boolean, reason?, args? }; got ${quoteValue(answer)}`);
}
