/**
 * The Ask handed to the AI SDK's own approval flow (`withHooks(…, { approvals: 'framework' })`).
 *
 * The SDK asks whether a call needs approval (`toolApproval`, or a tool's `needsApproval` on `ai` 6)
 * before it runs the tool, and before `@ai-sdk/otel` starts the call's `execute_tool` span. So the
 * before_tool phase runs there, once (`runBeforeAhead`):
 * - it asks: the call is recorded at once as `pending` (toolhooks' own `execute_tool` span: the SDK
 *   records none for a call it holds back), and the SDK sends the app its `tool-approval-request`;
 * - it does not: its decision is held for the `execute` the SDK makes next in the same step, which
 *   records the call (on the SDK's span when there is one) without running the hooks again.
 * The continuation (the app's `tool-approval-response` in the next `generateText` / `streamText`):
 * approved, the approval check resolves the approval once (a replay is denied through the SDK) and
 * the call runs in `execute`, its hooks answered by the app's response; denied, the SDK never calls
 * a tool, so the denial is recorded from the run's `onStart` event.
 * @internal
 */
import type { Context, Span, SpanContext } from '@opentelemetry/api';
import { context } from '@opentelemetry/api';
import type { ApprovalResponse } from '../../hook.js';
import type { HeldBefore } from '../../flows/before-ahead.js';
import { isPendingBefore } from '../../flows/before-ahead.js';
import type { ApprovalHandoff, HandoffRequest } from '../../runner/handoff.js';
import { endSpan, isRecording } from '../../telemetry/span.js';
import type { Resolution } from '../approval-ledger.js';
import { ApprovalLedger, PER_ID_CAPACITY, alreadyResolved, askedInOf, callDigest, goesOn, notAskedAbout } from '../approval-ledger.js';
import { jsonOf } from '../json-text.js';
import { answerFor, deniedCalls } from './approval-messages.js';
import { setBounded } from '../../internal/bounded-map.js';
import type { ToolApprovalOptions, ToolApprovalStatus } from './types.js';

/** One call the approval flow handles: the tool's key in the set, the model's input and the SDK's call id. */
export interface ApprovalCall {
  readonly toolName: string;
  readonly input: unknown;
  readonly toolCallId: string;
}

/** How the approval flow runs a call through the hooked tool set (with-hooks.ts provides it). */
export interface CallRunner {
  /** The tool by name, when the set hooked it (with the tool's own `needsApproval`, if any). */
  hooked(name: string): { readonly needsApproval: unknown } | undefined;
  /** Runs the before_tool phase of a call ahead of it. */
  ahead(call: ApprovalCall, handoff: ApprovalHandoff): Promise<HeldBefore>;
  /** Records a call that does not run the tool (pending, or denied by the app). */
  record(call: ApprovalCall, parts: { readonly before?: HeldBefore; readonly handoff?: ApprovalHandoff; readonly span?: Span | undefined }): Promise<unknown>;
  /** Records a continuation refused because its call is not the one asked about: `denied`, no hook runs. */
  refuse(call: ApprovalCall, approvalId: string, resolution: Resolution): Promise<void>;
  /** Starts a call's `execute_tool` span in `parent`, with the start attributes of every call span. */
  startAskingSpan(call: ApprovalCall, parent: Context): Span | undefined;
}

/** What `execute` takes from the approval check that came before it in the same step. */
type Prepared =
  | { readonly kind: 'held'; readonly before: HeldBefore }
  | { readonly kind: 'approved'; readonly approvalId: string; readonly askedIn: SpanContext | undefined }
  | Refused;

/** A continuation that must not run: its approval was already resolved, or it is not the call asked about. */
interface Refused {
  readonly kind: 'replayed' | 'refused';
  readonly approvalId: string;
}

/** What one approval check found: the SDK's answer, whether it was the continuation's check, and why a continuation is refused. */
interface CheckResult {
  readonly status: ToolApprovalStatus;
  readonly continuation: boolean;
  readonly refused?: Refused;
}

/**
 * How many call ids have prepared calls waiting for their `execute` at most (a step the SDK never
 * executes leaves some behind); each id holds at most {@link PER_ID_CAPACITY} of them.
 */
const PREPARED_CAPACITY = 1_000;

/** A checked call's preparation, with the input it was checked with. */
interface PreparedCall {
  readonly input: unknown;
  readonly prepared: Prepared;
}
/** How many asking spans are remembered for a continuation's link (as many as the ledger remembers ids). */
const ASKING_CAPACITY = 10_000;

/** The AI SDK approval flow of one hooked tool set (`withHooks(…, { approvals: 'framework' })`). */
export class AiSdkApprovals {
  readonly #runner: CallRunner;
  /** Resolutions, by the SDK's approvalId (unique, unlike a provider's tool call ids across conversations). */
  readonly #ledger: ApprovalLedger;
  /**
   * What each checked call's `execute` runs with, by tool call id, each with the input it was checked
   * with: two runs of one hooked set whose providers number their calls alike ("call_0") hold theirs
   * side by side, and each `execute` takes the one for its own input.
   */
  readonly #prepared = new Map<string, PreparedCall[]>();
  /**
   * The calls that asked here, by tool call id (the SDK has no approvalId yet when it asks) and the
   * digest of the call: the asking span for the continuation's link, and what the approval is about.
   * Asks alone: a response for a call not asked here leaves nothing in it.
   */
  readonly #asking: ApprovalLedger;

  constructor(runner: CallRunner, where: string) {
    this.#runner = runner;
    this.#ledger = new ApprovalLedger(where);
    this.#asking = new ApprovalLedger(where, ASKING_CAPACITY, { replays: false });
  }

  /** The `toolApproval` function for `generateText` / `streamText` / `ToolLoopAgent`. */
  readonly toolApproval = async (options: ToolApprovalOptions): Promise<ToolApprovalStatus> => {
    const { toolCallId, toolName, input } = options.toolCall;
    const hooked = this.#runner.hooked(toolName);
    if (hooked === undefined) {
      // A function toolApproval replaces every tool's own needsApproval: keep theirs for the tools not hooked.
      const tools = options.tools as Record<string, { needsApproval?: unknown } | undefined> | undefined;
      return (await ownApproval(tools?.[toolName]?.needsApproval, toolName, input, toolCallId, options)) ? 'user-approval' : 'not-applicable';
    }
    const decided = await this.check({ toolName, input, toolCallId }, hooked.needsApproval, options);
    return decided.refused !== undefined ? { type: 'denied', reason: refusal(decided.refused) } : decided.status;
  };

  /**
   * Records the app's denials from a run's start event (`onStart`): the SDK calls no tool for them.
   * Only a denial of a call this process asked about (its id and input) is recorded: the client writes
   * the messages, and a denial of anything else is not a decision of ours — it runs no hook, counts in
   * no metric and leaves nothing in memory.
   */
  readonly onStart = async (event: { readonly messages?: readonly unknown[] } | undefined): Promise<void> => {
    for (const denied of deniedCalls(event?.messages)) {
      if (this.#runner.hooked(denied.toolName) === undefined) continue;
      const asked = this.#asking.resolve(denied.toolCallId, callDigest(denied.toolName, denied.input));
      if (asked.kind !== 'asked') continue;
      const response: ApprovalResponse = denied.reason === undefined ? { approved: false } : { approved: false, reason: denied.reason };
      await this.#runner.record(denied, { handoff: { id: denied.approvalId, answer: { response, askedIn: asked.askedIn } } });
    }
  };

  /**
   * The approval check of one hooked call (toolApproval, or the hooked tool's needsApproval). A
   * continuation resolves its approval here; a new call runs its before_tool phase here.
   */
  async check(call: ApprovalCall, ownNeedsApproval: unknown, options: { readonly messages?: readonly unknown[] | undefined; readonly toolsContext?: unknown }): Promise<CheckResult> {
    const answer = answerFor(options.messages, call.toolCallId);
    if (answer !== undefined) {
      // The continuation: the SDK checks an approved call again before it runs it.
      if (!answer.approved) return { status: 'not-applicable', continuation: true };
      const continuation = await this.#continuation(call, answer.approvalId);
      // A refused continuation stores nothing: the SDK denies it without an `execute` to take it.
      if (continuation.kind !== 'approved') return { status: 'not-applicable', continuation: true, refused: continuation };
      this.#prepare(call, continuation);
      return { status: 'not-applicable', continuation: true };
    }
    if (await ownApproval(ownNeedsApproval, call.toolName, call.input, call.toolCallId, options)) return { status: 'user-approval', continuation: false };
    let pending: HandoffRequest | undefined;
    const before = await this.#runner.ahead(call, { id: call.toolCallId, onPending: (asked) => (pending = asked) });
    if (pending === undefined || !isPendingBefore(before)) {
      this.#prepare(call, { kind: 'held', before });
      return { status: 'not-applicable', continuation: false };
    }
    const askedIn = await this.#recordPending(call, before);
    this.#asking.asked(call.toolCallId, callDigest(call.toolName, call.input), askedIn ?? pending.spanContext);
    return { status: { type: 'user-approval', reason: pending.reason }, continuation: false };
  }

  /**
   * What `execute` runs with: the held before_tool decision, the app's approval, or a replay (the
   * call must not run). Reads the conversation itself when no approval check came first (`ai` 6
   * does not check approved calls again). A preparation is used once, and only by a call with the input
   * it was checked with.
   */
  async forExecute(call: ApprovalCall | undefined, messages: unknown): Promise<Prepared | undefined> {
    if (call === undefined) return undefined;
    const prepared = this.#take(call.toolCallId, call.input);
    if (prepared !== undefined) return prepared;
    const answer = answerFor(messages, call.toolCallId);
    if (answer === undefined || !answer.approved) return undefined;
    return this.#continuation(call, answer.approvalId);
  }

  /**
   * An approved continuation: resolved once (a replay is refused), and only for the call that was
   * asked about when this process asked under its id (another call is refused and recorded `denied`).
   */
  async #continuation(call: ApprovalCall, approvalId: string): Promise<Extract<Prepared, { kind: 'approved' }> | Refused> {
    if (!goesOn(this.#ledger.resolve(approvalId, undefined))) return { kind: 'replayed', approvalId };
    const asked = this.#asking.resolve(call.toolCallId, callDigest(call.toolName, call.input));
    if (!goesOn(asked)) {
      await this.#runner.refuse(call, approvalId, asked);
      return { kind: 'refused', approvalId };
    }
    return { kind: 'approved', approvalId, askedIn: askedInOf(asked) };
  }

  /**
   * The asking call, on an `execute_tool` span of toolhooks' own (its context is what the continuation
   * links to), started with the start attributes of every call span (a sampler sees them).
   */
  async #recordPending(call: ApprovalCall, before: HeldBefore): Promise<SpanContext | undefined> {
    const span = this.#runner.startAskingSpan(call, context.active());
    const askedIn = span !== undefined && isRecording(span) ? span.spanContext() : undefined;
    try {
      await this.#runner.record(call, { before, span });
    } finally {
      if (span !== undefined) endSpan(span);
    }
    return askedIn;
  }

  #prepare(call: ApprovalCall, prepared: Prepared): void {
    const held = this.#prepared.get(call.toolCallId) ?? [];
    held.push({ input: call.input, prepared });
    if (held.length > PER_ID_CAPACITY) held.shift();
    setBounded(this.#prepared, call.toolCallId, held, PREPARED_CAPACITY);
  }

  /** How many prepared calls wait for their `execute` (for tests of the bound). @internal */
  get preparedCount(): number {
    let count = 0;
    for (const held of this.#prepared.values()) count += held.length;
    return count;
  }

  /**
   * The preparation of the call `toolCallId` checked with `input`: the very object the SDK checked and
   * now executes (it passes the same tool call to both), else one with equal JSON (an SDK that copies the
   * input between the two); none for a call of another run that only shares the id.
   */
  #take(toolCallId: string, input: unknown): Prepared | undefined {
    const held = this.#prepared.get(toolCallId);
    if (held === undefined) return undefined;
    let index = held.findIndex((entry) => entry.input === input);
    if (index < 0) {
      const json = jsonOf(input);
      if (json !== undefined) index = held.findIndex((entry) => jsonOf(entry.input) === json);
    }
    if (index < 0) return undefined;
    const [entry] = held.splice(index, 1);
    if (held.length === 0) this.#prepared.delete(toolCallId);
    return entry?.prepared;
  }
}

/** The text the model reads for a refused continuation. */
function refusal(refused: Refused): string {
  return refused.kind === 'replayed' ? alreadyResolved(refused.approvalId) : notAskedAbout(refused.approvalId);
}

/** A tool's own `needsApproval` (boolean, or the SDK's function of the input), read as the SDK reads it; what it throws reaches the SDK. */
async function ownApproval(
  needsApproval: unknown,
  toolName: string,
  input: unknown,
  toolCallId: string,
  options: { readonly messages?: readonly unknown[] | undefined; readonly toolsContext?: unknown },
): Promise<boolean> {
  if (typeof needsApproval === 'boolean') return needsApproval;
  if (typeof needsApproval !== 'function') return false;
  const context = (options.toolsContext as Record<string, unknown> | undefined)?.[toolName];
  const answer: unknown = await (needsApproval as (input: unknown, options: unknown) => unknown)(input, { toolCallId, messages: options.messages ?? [], context });
  return answer === true;
}
