/**
 * How toolhooksPlugin hands an Ask to ADK's tool confirmation (`approvals: 'framework'`): the asking
 * call requests a confirmation pinned to its function call (`toolContext.requestConfirmation`), ADK
 * pauses the run with an `adk_request_confirmation` call, and the run that carries the user's answer
 * runs the pinned call again with `toolContext.toolConfirmation` set — in this process or another.
 * A confirmation is bound to the call it was asked for: one for another tool or other arguments is
 * refused (the call is denied) and recorded.
 * @internal
 */
import type { ApprovalHandoff, HandoffRequest } from '../../runner/handoff.js';
import { ToolCall } from '../../flows/tool-call.js';
import { brandAcrossBuilds } from '../../internal/brand.js';
import { setBounded } from '../../internal/bounded-map.js';
import type { ToolArgs } from '../../hook.js';
import type { RunnerCore } from '../../runner/core.js';
import { ApprovalLedger, alreadyResolved, askedInOf, callDigest } from '../approval-ledger.js';
import { jsonOf } from '../json-text.js';
import type { AdkEvent, AdkInvocationContext, AdkPart, AdkToolContext } from './types.js';

/** ADK's name for the function call that asks the user to confirm a tool call. */
const REQUEST_CONFIRMATION = 'adk_request_confirmation';

/** What ADK's FunctionTool answers while a call waits for its confirmation; the model does not see it before the answer. */
export const AWAITING_CONFIRMATION = 'This tool call requires confirmation, please approve or reject.';

/** Why a confirmation does not belong to the call it came back to (ADK's own reasons, where ADK has one). */
type Mismatch = 'tool_name_mismatch' | 'arguments_mismatch';

/**
 * The error a refused confirmation is recorded with (`error.type` = `AdkConfirmationRefused`): the
 * answer was for another tool or other arguments than the call it came back to.
 *
 * @example
 * ```ts
 * // An alert on refused confirmations (someone answered for a call the agent did not make):
 * // error.type = "AdkConfirmationRefused" on execute_tool spans.
 * const refused = new AdkConfirmationRefused('arguments_mismatch', 'shell');
 * console.log(refused.message); // tool confirmation refused for shell: arguments_mismatch
 * ```
 */
export class AdkConfirmationRefused extends Error {
  static {
    brandAcrossBuilds(this, 'AdkConfirmationRefused');
  }

  override readonly name = 'AdkConfirmationRefused';
  readonly reason: Mismatch;

  constructor(reason: Mismatch, toolName: string) {
    super(`tool confirmation refused for ${toolName}: ${reason}`);
    this.reason = reason;
  }
}

/** What a call asked about, by function call id: the requested tool and its arguments as JSON. */
interface Asked {
  readonly toolName: string;
  readonly args: string | undefined;
}

/** The in-process memory of one plugin's confirmations: who asked (for the link) and what about (for binding). */
export class AdkApprovals {
  readonly ledger = new ApprovalLedger('toolhooksPlugin (ADK confirmation)');
  readonly #asked = new Map<string, Asked>();

  /**
   * The hand-off of one call: asking, it requests ADK's confirmation for the call; answered (the
   * call's context carries ADK's confirmation), the answer settles the Ask — refused when it was
   * asked about another tool or other arguments. `state.pending` is set when the call asked.
   */
  handoff(toolName: string, args: ToolArgs, toolContext: AdkToolContext, state: { pending?: HandoffRequest; refused?: string }): ApprovalHandoff | undefined {
    const id = toolContext.functionCallId;
    if (id === undefined || id === '') return undefined; // ADK pins a confirmation to a call id: without one, the runner's approver decides
    const confirmation = toolContext.toolConfirmation;
    if (confirmation === undefined) {
      return {
        id,
        onPending: (pending) => {
          state.pending = pending;
          setBounded(this.#asked, id, { toolName, args: jsonOf(args) }, 10_000);
          this.ledger.asked(id, callDigest(toolName, args), pending.spanContext);
          toolContext.requestConfirmation({ hint: pending.reason, payload: { toolhooks: { hook: pending.hook, tool: pending.toolName, args: pending.args } } });
          if (toolContext.actions !== undefined) toolContext.actions.skipSummarization = true;
        },
      };
    }
    // ADK's own reason when this process asked about another call under the id; the ledger decides the rest.
    const named = this.#mismatch(id, toolName, args);
    const resolution = this.ledger.resolve(id, callDigest(toolName, args));
    if (resolution.kind === 'resolved') {
      state.refused = alreadyResolved(id);
      return { id, answer: { response: { approved: false, reason: state.refused } } };
    }
    const mismatch = named ?? (resolution.kind === 'differs' ? 'arguments_mismatch' : undefined);
    const response = mismatch !== undefined ? { approved: false as const, reason: `tool confirmation refused: ${mismatch}` } : confirmation.confirmed === true ? { approved: true as const } : { approved: false as const, reason: 'rejected in the tool confirmation' };
    return { id, answer: { response, askedIn: askedInOf(resolution) } };
  }

  /** Whether the call `id` is the one this process asked about (another process's ask is not known here and is bound by ADK). */
  #mismatch(id: string, toolName: string, args: ToolArgs): Mismatch | undefined {
    const asked = this.#asked.get(id);
    if (asked === undefined) return undefined;
    this.#asked.delete(id);
    if (asked.toolName !== toolName) return 'tool_name_mismatch';
    return asked.args === jsonOf(args) ? undefined : 'arguments_mismatch';
  }
}

/**
 * Records the confirmations of the run about to start that ADK will refuse itself (its
 * `IntentMismatchError`: the pinned call is not the call the agent made): each as a `failed` call of
 * the pinned tool with `error.type` `AdkConfirmationRefused`. ADK then fails the run as it does.
 */
export async function recordRefusedConfirmations(core: RunnerCore, invocation: AdkInvocationContext | undefined): Promise<void> {
  const events = invocation?.session?.events ?? [];
  const latest = [...events].reverse().find((event) => event.author === 'user');
  if (latest === undefined) return;
  const answered = new Set<string>();
  for (const part of latest.content?.parts ?? []) {
    const response = part.functionResponse;
    if (response?.name === REQUEST_CONFIRMATION && response.id !== undefined) answered.add(response.id);
  }
  if (answered.size === 0) return;
  const agentName = invocation?.agent?.name;
  const made = callsBy(events, agentName);
  for (const gate of made.values()) {
    if (gate.name !== REQUEST_CONFIRMATION || gate.id === undefined || !answered.has(gate.id)) continue;
    const pinned = gate.args?.originalFunctionCall as { id?: unknown; name?: unknown; args?: unknown } | undefined;
    if (pinned === undefined || typeof pinned.id !== 'string' || typeof pinned.name !== 'string') continue;
    const original = made.get(pinned.id);
    if (original === undefined) continue;
    const reason: Mismatch | undefined = original.name !== pinned.name ? 'tool_name_mismatch' : canonical(original.args ?? {}) === canonical(pinned.args ?? {}) ? undefined : 'arguments_mismatch';
    if (reason === undefined) continue;
    const args = (typeof pinned.args === 'object' && pinned.args !== null ? pinned.args : {}) as ToolArgs;
    await new ToolCall({ core, toolName: pinned.name, args, callId: pinned.id, state: undefined }).recordFailure(new AdkConfirmationRefused(reason, pinned.name));
  }
}

/** The function calls an agent made in a session, by id. */
function callsBy(events: readonly AdkEvent[], agentName: string | undefined): Map<string, { id?: string; name?: string; args?: Record<string, unknown> }> {
  const calls = new Map<string, { id?: string; name?: string; args?: Record<string, unknown> }>();
  for (const event of events) {
    if (event.author !== agentName) continue;
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.id !== undefined) calls.set(call.id, call);
    }
  }
  return calls;
}

/** JSON with object keys sorted, so that two equal argument objects compare equal whatever their key order (as ADK's deep equality does). */
function canonical(value: unknown): string | undefined {
  return jsonOf(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}

/**
 * The confirmation request event ADK yields for a paused call, with the call's interim response added
 * for each call whose confirmation the hooks asked for (marked `toolhooks` in its payload); undefined
 * when there is none to add. ADK resumes a confirmation a plugin requested only for a call whose
 * response an agent event carries, and yields the request event instead of the response event.
 */
export function withInterimResponses<E extends AdkEvent>(event: E | undefined): E | undefined {
  const parts = event?.content?.parts;
  if (event === undefined || parts === undefined) return undefined;
  const answered = new Set(parts.map((part) => part.functionResponse?.id));
  const added: AdkPart[] = [];
  for (const part of parts) {
    const gate = part.functionCall;
    if (gate?.name !== REQUEST_CONFIRMATION) continue;
    const pinned = gate.args?.originalFunctionCall as { id?: unknown; name?: unknown } | undefined;
    const payload = (gate.args?.toolConfirmation as { payload?: { toolhooks?: unknown } } | undefined)?.payload;
    if (payload?.toolhooks === undefined || typeof pinned?.id !== 'string' || typeof pinned.name !== 'string' || answered.has(pinned.id)) continue;
    answered.add(pinned.id);
    added.push({ functionResponse: { id: pinned.id, name: pinned.name, response: { error: AWAITING_CONFIRMATION } } });
  }
  if (added.length === 0) return undefined;
  return { ...event, content: { ...event.content, parts: [...parts, ...added] } };
}
