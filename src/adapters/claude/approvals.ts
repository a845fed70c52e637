/**
 * How claudeAgentHooks hands an Ask to the Claude Agent SDK (`options.approvals`): `'runner'` (the
 * runner's approver inside PreToolUse, the default), `'ask'` (the SDK's own permission prompt) or a
 * {@link DeferredApprovals} (PreToolUse `defer`: the query stops, the app answers, the resumed query
 * runs the call). The `DeferredApprovals` object keeps what the app answered until the resumed
 * query's PreToolUse for that `tool_use_id` uses it.
 */
import { brandAcrossBuilds, processWide } from '../../internal/brand.js';
import { typeName } from '../../internal/describe.js';
import { VERSION } from '../../version.js';
import type { ApprovalResponse } from '../../hook.js';
import { ApprovalLedger } from '../approval-ledger.js';
import type { HandoffRequest } from '../../runner/handoff.js';
import { setBounded } from '../../internal/bounded-map.js';
import type { DeferredApprovalRequest } from './types.js';

/**
 * The answers to calls that a hook's Ask deferred (PreToolUse `permissionDecision: 'defer'`): pass it
 * as `claudeAgentHooks(runner, { approvals })`. A deferred call stops the query with a `result` message
 * whose `deferred_tool_use` names it; the app asks its user, gives the answer with {@link respond},
 * and resumes the session (`query({ prompt, options: { resume: sessionId, hooks } })`): the SDK runs
 * PreToolUse again for the same `tool_use_id`, and that call uses the answer — approved, the tool runs
 * (with the answer's `args` merged in); denied, the model reads the denial. An answer for an id that
 * was already resolved is ignored with one warning and the call is denied: the tool never runs twice.
 * Answers made in another process are accepted (the resumed session may run anywhere); the span
 * link to the asking call is made only when this object saw it ask.
 *
 * @example
 * ```ts
 * const approvals = new DeferredApprovals();
 * const hooks = claudeAgentHooks(runner, { approvals });
 * let result = await lastResult(query({ prompt, options: { hooks } }));
 * while (result.deferred_tool_use !== undefined) {
 *   const { id } = result.deferred_tool_use;
 *   approvals.respond(id, (await confirm(approvals.request(id)?.reason)) ? { approved: true, approver: 'alice' } : { approved: false, reason: 'not now' });
 *   result = await lastResult(query({ prompt: 'continue', options: { hooks, resume: result.session_id } }));
 * }
 * ```
 */
export class DeferredApprovals {
  static {
    // One made by the package's other build (an app loading both) is accepted too.
    brandAcrossBuilds(this, 'DeferredApprovals');
  }

  readonly #state: DeferredState;

  /** @param options.capacity how many ids it remembers (asked, answered, resolved); default 10,000 */
  constructor(options?: { capacity?: number }) {
    const capacity = options?.capacity ?? 10_000;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new RangeError(`DeferredApprovals: options.capacity must be a positive integer, got ${JSON.stringify(capacity) ?? typeName(capacity)}`);
    }
    this.#state = new DeferredState(capacity);
    states.set(this, this.#state);
  }

  /** What the deferred call `id` asked, while it waits for an answer; undefined otherwise. */
  request(id: string): DeferredApprovalRequest | undefined {
    return this.#state.requests.get(id);
  }

  /**
   * The app's answer for the deferred call `id`, used by the next PreToolUse for that `tool_use_id`
   * (the resumed query). A later answer for the same id, before it is used, replaces this one.
   */
  respond(id: string, response: ApprovalResponse): void {
    const where = 'DeferredApprovals.respond(id, response)';
    if (typeof id !== 'string' || id === '') throw new TypeError(`${where}: id must be the deferred tool_use_id, got ${typeName(id)}`);
    if (response === null || typeof response !== 'object' || typeof (response as { approved?: unknown }).approved !== 'boolean') {
      throw new TypeError(`${where}: response must be { approved: true, args? } or { approved: false, reason? }, got ${typeName(response)}`);
    }
    this.#state.remember(this.#state.responses, id, response);
  }
}

/** The in-process state of a DeferredApprovals; the adapter reaches it through {@link deferredState}. */
class DeferredState {
  readonly ledger: ApprovalLedger;
  readonly requests = new Map<string, DeferredApprovalRequest>();
  readonly responses = new Map<string, ApprovalResponse>();
  readonly #capacity: number;

  constructor(capacity: number) {
    this.#capacity = capacity;
    this.ledger = new ApprovalLedger('claudeAgentHooks (defer)', capacity);
  }

  /** Pass 1: the call `pending.id` was deferred; `about` is the digest of the requested call. */
  asked(pending: HandoffRequest, about: string | undefined): void {
    this.ledger.asked(pending.id, about, pending.spanContext);
    const { id, toolName, args, reason, hook } = pending;
    this.remember(this.requests, id, Object.freeze({ id, toolName, args, reason, hook }));
  }

  /** The answer for `id`, taken (it is used once); undefined when the app has not answered. */
  take(id: string): ApprovalResponse | undefined {
    const response = this.responses.get(id);
    if (response === undefined) return undefined;
    this.responses.delete(id);
    this.requests.delete(id);
    return response;
  }

  remember<V>(map: Map<string, V>, id: string, value: V): void {
    setBounded(map, id, value, this.#capacity);
  }
}

/** One map for the ESM and CommonJS builds, named for this version: either build's hooks find the state. */
const states = processWide(`toolhooks.claude.deferred-approvals@${VERSION}`, () => new WeakMap<DeferredApprovals, DeferredState>());

/** The state behind a DeferredApprovals. @internal */
export function deferredState(approvals: DeferredApprovals): DeferredState {
  const state = states.get(approvals);
  if (state === undefined) throw new TypeError('claudeAgentHooks: options.approvals is not a DeferredApprovals made by toolhooks/claude');
  return state;
}

/** How the adapter hands an Ask to the SDK. */
export type ClaudeApprovalMode = { readonly kind: 'runner' } | { readonly kind: 'ask'; readonly ledger: ApprovalLedger } | { readonly kind: 'defer'; readonly state: DeferredState };

/**
 * Reads claudeAgentHooks' `options.approvals` (`'runner'`, `'ask'` or a DeferredApprovals; the other
 * adapters' `'runner' | 'framework'` is `readApprovalsMode`); a TypeError naming it for anything else.
 */
export function readClaudeApprovalMode(value: unknown, where: string): ClaudeApprovalMode {
  if (value === undefined || value === 'runner') return { kind: 'runner' };
  if (value === 'ask') return { kind: 'ask', ledger: new ApprovalLedger(`${where} (ask)`) };
  if (value instanceof DeferredApprovals) return { kind: 'defer', state: deferredState(value) };
  throw new TypeError(`${where}: options.approvals must be 'runner', 'ask' or a DeferredApprovals, got ${typeof value === 'string' ? JSON.stringify(value) : typeName(value)}`);
}
