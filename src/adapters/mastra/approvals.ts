/**
 * Mastra's own approval flow for hooked tools (`withHooks(tools, runner, { approvals: 'framework' })`):
 * a before_tool Ask suspends the agent's run the way a `requireApproval` tool does, and the app's
 * `approveToolCall` / `declineToolCall` (or their `…Generate` forms) answers it.
 *
 * The Ask is raised from inside the hooked `execute`, through the tool context's `suspend(…, {
 * requireToolApproval })`: Mastra then emits its `tool-call-approval` chunk, ends the run with
 * `finishReason: 'suspended'` and keeps it in storage, exactly as for a `requireApproval` tool.
 * A `requireApproval` predicate cannot carry the hooks: Mastra calls it with the model's raw
 * arguments and no tool call id, once while planning the step and again when the run resumes, so the
 * hooks would run twice per pass and their decision could not be tied to the call that executes.
 *
 * Each asked call leaves a mark in the run's request context, which Mastra stores with the suspended
 * run: on resume Mastra runs `execute` again only when the call was approved, and the mark tells the
 * hooked `execute` that this is the approved continuation (also in another process), with the asking
 * span's context for the link. The mark names the run, and stays for the run's life (what a tool
 * changes in the request context after the run's first suspension is not stored again): a tool that
 * suspends itself after the approval is resumed as the approved call, not asked about again.
 *
 * A declined call never reaches `execute`; Mastra's `tool-output-denied` chunk is where it can be
 * seen, so `recordDeclinedCalls` records it from an output processor.
 * @internal
 */
import type { SpanContext } from '@opentelemetry/api';
import { isSpanContextValid } from '@opentelemetry/api';
import type { ApprovalResponse } from '../../hook.js';
import type { CallPlan, Executor } from '../../flows/execute-tool.js';
import { runToolCall } from '../../flows/execute-tool.js';
import type { RunnerCore } from '../../runner/core.js';
import type { HandoffRequest } from '../../runner/handoff.js';
import type { Resolution } from '../approval-ledger.js';
import { ApprovalLedger, alreadyResolved, approvalId, askedInOf, callDigest, notAskedAbout } from '../approval-ledger.js';
import { recordDeniedCall } from '../denied-call.js';
import { ERROR_TYPE } from '../../telemetry/error-type.js';

/** The request-context key of an asked call: the run's id and Mastra's tool call id follow. */
const MARK_PREFIX = 'toolhooks.approval:';

function markKey(runId: string, toolCallId: string): string {
  return `${MARK_PREFIX}${runId}:${toolCallId}`;
}

/** What Mastra's `RequestContext` offers, as far as this uses it. */
interface RequestContextLike {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

/** The parts of a tool's execution context inside an agent run that the approval flow needs. */
interface AgentRun {
  readonly runId: string;
  readonly toolCallId: string;
  /** What the app resumed a tool's own suspension with; undefined for an approval. */
  readonly resumeData: unknown;
  readonly suspend: (payload: unknown, options: object) => Promise<unknown>;
  readonly requestContext: RequestContextLike;
}

/** The mark an asked call leaves in the request context: JSON, since Mastra's storage serialises it. */
interface Mark {
  /** The digest of the call asked about: a continuation with another call is refused, in any process. */
  readonly about?: string;
  readonly traceId?: string;
  readonly spanId?: string;
  readonly traceFlags?: number;
}

/** One withHooks record's approvals: the in-process ledger and the two passes of an asked call. */
export class MastraApprovals {
  readonly #ledger: ApprovalLedger;

  constructor(where: string) {
    this.#ledger = new ApprovalLedger(where);
  }

  /**
   * Runs a hooked call. Outside an agent run (no `suspend` in the context) nothing can be handed to
   * Mastra, so the runner's approver decides as without this flow. `gated`: the tool has Mastra's own
   * `requireApproval: true`, so Mastra asked for this call before running `execute`.
   */
  run<S>(plan: CallPlan<S>, context: unknown, gated: boolean): Promise<unknown> {
    const run = agentRunOf(context);
    if (run === undefined) return runToolCall(plan);
    const key = markKey(run.runId, run.toolCallId);
    const mark = run.requestContext.get(key);
    // Marked (these hooks asked) or gated (Mastra asked): Mastra runs `execute` only once it is approved.
    if (mark === undefined && !gated) return this.#ask(plan, run, key);
    // With resume data, the approved call suspended itself afterwards (`suspend()` / `resumeSchema`) and
    // is resumed now: still the approved call, not a new one to ask about.
    return run.resumeData === undefined ? this.#continue(plan, run, mark) : this.#resumed(plan, run, mark);
  }

  /**
   * Records the continuation of a call Mastra's `declineToolCall` declined (its `tool-output-denied`
   * chunk): the before_tool phase runs again and the decline settles its Ask as `denied`. The tool
   * never runs; Mastra has already given the model its decline.
   */
  async declined<S>(plan: CallPlan<S>, requestContext: RequestContextLike, runId: string, toolCallId: string, reason: string | undefined): Promise<void> {
    const key = markKey(runId, toolCallId);
    const mark = requestContext.get(key);
    if (mark === undefined) return; // not asked by these hooks: Mastra's own requireApproval declined it
    // The decline names the run and the call: the ask it answers is that one's, whatever its arguments.
    const resolution = this.#ledger.resolve(approvalId(runId, toolCallId), undefined);
    if (resolution.kind === 'resolved') return;
    const response: ApprovalResponse = reason === undefined ? { approved: false } : { approved: false, reason };
    const notRun = declinedExecutor(toolCallId);
    const answer = { response, askedIn: askedInOf(resolution) ?? spanContextOf(mark) };
    await runToolCall({ ...plan, execute: notRun, redirectExecutor: (name) => (plan.redirectExecutor(name) === undefined ? undefined : notRun), handoff: { id: toolCallId, answer } });
  }

  /** Pass 1: the hooks decide; an Ask becomes Mastra's tool-call approval and suspends the run. */
  async #ask<S>(plan: CallPlan<S>, run: AgentRun, key: string): Promise<unknown> {
    let pending: HandoffRequest | undefined;
    const result = await runToolCall({ ...plan, handoff: { id: run.toolCallId, onPending: (asked) => void (pending = asked) } });
    if (pending === undefined) return result;
    const about = callDigest(plan.toolName, plan.args);
    this.#ledger.asked(approvalId(run.runId, run.toolCallId), about, pending.spanContext);
    // Marked before suspending: Mastra stores the request context with the suspended run, and an eager
    // (streamed) execution's suspend throws so that Mastra raises the approval itself, later.
    run.requestContext.set(key, markOf(pending.spanContext, about));
    // Mastra shows the app what would run: a Redirect's tool and merged arguments when a hook made one.
    await run.suspend(undefined, { requireToolApproval: { toolName: pending.toolName, args: pending.args } });
    return undefined;
  }

  /** Pass 2: Mastra runs `execute` again only for an approved call; the approval settles the Ask. */
  async #continue<S>(plan: CallPlan<S>, run: AgentRun, mark: unknown): Promise<unknown> {
    const about = callDigest(plan.toolName, plan.args);
    if (!isAbout(mark, about)) return this.#refused(plan, run, { kind: 'differs' });
    const resolution = this.#ledger.resolve(approvalId(run.runId, run.toolCallId), about);
    if (resolution.kind === 'resolved') return alreadyResolved(run.toolCallId);
    if (resolution.kind === 'differs') return this.#refused(plan, run, resolution);
    const answer = { response: APPROVED, askedIn: askedInOf(resolution) ?? spanContextOf(mark) };
    return runToolCall({ ...plan, handoff: { id: run.toolCallId, answer } });
  }

  /** An approved call that suspended itself, resumed: its approval settles the Ask again. */
  #resumed<S>(plan: CallPlan<S>, run: AgentRun, mark: unknown): Promise<unknown> {
    if (!isAbout(mark, callDigest(plan.toolName, plan.args))) return this.#refused(plan, run, { kind: 'differs' });
    return runToolCall({ ...plan, handoff: { id: run.toolCallId, answer: { response: APPROVED, askedIn: spanContextOf(mark) } } });
  }

  /** A continuation whose call is not the one asked about: recorded as `denied`, never run; the model reads why. */
  async #refused<S>(plan: CallPlan<S>, run: AgentRun, resolution: Resolution): Promise<unknown> {
    await recordDeniedCall(plan.core as RunnerCore, { toolName: plan.toolName, callId: run.toolCallId, approvalId: run.toolCallId, args: plan.args, resolution });
    return notAskedAbout(run.toolCallId);
  }
}

const APPROVED: ApprovalResponse = { approved: true };

/** The tool context of a call inside an agent run, or undefined (a tool called directly). */
function agentRunOf(context: unknown): AgentRun | undefined {
  if (context === null || typeof context !== 'object') return undefined;
  const { agent, requestContext, runId } = context as { agent?: unknown; requestContext?: unknown; runId?: unknown };
  if (agent === null || typeof agent !== 'object' || !isRequestContext(requestContext) || typeof runId !== 'string') return undefined;
  const { toolCallId, suspend, resumeData } = agent as { toolCallId?: unknown; suspend?: unknown; resumeData?: unknown };
  if (typeof toolCallId !== 'string' || typeof suspend !== 'function') return undefined;
  return { runId, toolCallId, resumeData, suspend: suspend as AgentRun['suspend'], requestContext };
}

/** Whether a value is a Mastra `RequestContext` (or anything with its get and set). */
export function isRequestContext(value: unknown): value is RequestContextLike {
  if (value === null || typeof value !== 'object') return false;
  const { get, set } = value as Record<string, unknown>;
  return typeof get === 'function' && typeof set === 'function';
}

function markOf(spanContext: SpanContext | undefined, about: string | undefined): Mark {
  const asked: Mark = about === undefined ? {} : { about };
  return spanContext === undefined ? asked : { ...asked, traceId: spanContext.traceId, spanId: spanContext.spanId, traceFlags: spanContext.traceFlags };
}

/**
 * Whether the call continuing is the one its mark was asked about. A mark without a digest (Mastra's
 * own approval, arguments that are not JSON, a mark of an older version) accepts any.
 */
function isAbout(mark: unknown, about: string | undefined): boolean {
  const asked = mark !== null && typeof mark === 'object' ? (mark as Mark).about : undefined;
  return typeof asked !== 'string' || asked === about;
}

/** The asking span from a mark, when it names a valid one (a mark read back from storage). */
function spanContextOf(mark: unknown): SpanContext | undefined {
  if (mark === null || typeof mark !== 'object') return undefined;
  const { traceId, spanId, traceFlags } = mark as Mark;
  if (typeof traceId !== 'string' || typeof spanId !== 'string' || typeof traceFlags !== 'number') return undefined;
  const spanContext: SpanContext = { traceId, spanId, traceFlags, isRemote: true };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}

/**
 * The executor of a declined call's record. It runs only when the hooks no longer ask for the call:
 * the tool must not run (Mastra declined it), so the call is recorded as failed.
 */
function declinedExecutor(toolCallId: string): Executor {
  return () => {
    throw new DeclinedCallError(toolCallId);
  };
}

/** A declined call the hooks no longer asked about when its decline was recorded. */
class DeclinedCallError extends Error {
  readonly [ERROR_TYPE] = 'ToolCallDeclined';

  constructor(toolCallId: string) {
    super(`tool call ${toolCallId} was declined in Mastra; it does not run`);
    this.name = 'DeclinedCallError';
  }
}
