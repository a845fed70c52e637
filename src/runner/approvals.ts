/**
 * Approvals: what a before_tool phase in which a hook asked turns into once the approver has answered
 * (or the adapter's framework has: the hand-off protocol of `handoff.ts`).
 * The wait is its own span (`toolhooks.approval`, a child of the call's span), its own observer event,
 * and it fails closed: every outcome but an approval denies the call. The approver is user code and
 * is called through the guard, like hooks.
 * @internal
 */
import type { Attributes, Context } from '@opentelemetry/api';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import type { Ask, Continue, HookDecision, Redirect } from '../decisions.js';
import { isPlainObject, mergeArgs, redirect, skip } from '../decisions.js';
import type { ApprovalEvent, ApprovalOutcome, ApprovalRequest, Approver, ToolArgs } from '../hook.js';
import { quoteValue } from '../internal/describe.js';
import { errorTypeOf } from '../telemetry/error-type.js';
import {
  ATTR_APPROVAL_APPROVER,
  ATTR_APPROVAL_DENIAL_REASON,
  ATTR_APPROVAL_EDITED,
  ATTR_APPROVAL_HOOK,
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_DECISION_REASON,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  SPAN_APPROVAL,
} from '../telemetry/semconv.js';
import { activeSpanContext, endSpan, setSpanAttributes, startSpan } from '../telemetry/span.js';
import { warnVisibly } from '../telemetry/warn-once.js';
import type { RunnerCore } from './core.js';
import type { HandoffRequest } from './handoff.js';
import type { Settled } from './guard.js';
import { callUser } from './guard.js';
import type { PhaseRequest } from './phase-request.js';

/**
 * What a before_tool phase whose hooks asked leaves to settle: the first Ask, its hook, and the
 * decision E to approve.
 */
export class ApprovalToSettle {
  constructor(
    readonly ask: Ask,
    readonly hook: string,
    /** What the call would do when approved: Continue, or the phase's Redirect. */
    readonly effective: Continue | Redirect,
  ) {}
}

/** How an approval ended, for the flow that made the call (its outcome, its arguments, its result). */
export interface ApprovalRecord {
  readonly outcome: ApprovalOutcome;
  readonly id: string;
  /** The decision the approval was about (the flow applies it when approved). */
  readonly effective: Continue | Redirect;
  /** The approver's argument edits, merged over the arguments after E; undefined when none. */
  readonly edits: Readonly<ToolArgs> | undefined;
  /** A pending approval's framework suspension (what the adapter's approver threw), rethrown by the flow. */
  readonly suspension?: { readonly error: unknown } | undefined;
}

/** The approver's answer, read once and checked. */
interface Answer {
  readonly outcome: ApprovalOutcome;
  readonly approver?: string | undefined;
  readonly denialReason?: string | undefined;
  readonly edits?: Readonly<ToolArgs> | undefined;
  readonly error?: unknown;
  /** Set for a pending answer whose approver threw the framework's suspension. */
  readonly suspension?: { readonly error: unknown } | undefined;
}

const NO_APPROVER: Answer = { outcome: 'no_approver' };
const EXPIRED: Answer = { outcome: 'expired' };
const PENDING: Answer = { outcome: 'pending' };

/**
 * Waits for the approval a phase asked for and returns what the phase decides with it: E when
 * approved (a Redirect carrying the approver's edits when there are any), else a Skip whose stub is
 * the denial result — so that code reading only Continue/Skip/Redirect can never run a denied call.
 * The flow reads the full record from the call's tally. Never rejects.
 *
 * `outer` is the context the phase was called in: the approval span is the phase span's sibling.
 */
export function settleApproval<S>(core: RunnerCore<S>, request: PhaseRequest, toSettle: ApprovalToSettle, outer: Context | undefined): Promise<HookDecision> {
  if (outer === undefined) return waitForApproval(core, request, toSettle);
  return context.with(outer, waitForApproval, undefined, core, request, toSettle);
}

async function waitForApproval<S>(core: RunnerCore<S>, request: PhaseRequest, toSettle: ApprovalToSettle): Promise<HookDecision> {
  const started = performance.now();
  const handoff = request.handoff;
  const id = handoff?.id ?? globalThis.crypto.randomUUID();
  const { effective, ask, hook } = toSettle;
  const toolName = effective.kind === 'redirect' && effective.newTool !== undefined ? effective.newTool : request.toolName;
  const args = effective.kind === 'redirect' && effective.newArgs !== undefined ? mergeArgs(request.args, effective.newArgs) : mergeArgs(request.args);
  const capture = core.capture;
  const reason = capture.limit(ask.reason);
  const span =
    request.traced === false
      ? undefined
      : startSpan(core.tracer, SPAN_APPROVAL, {
          [ATTR_GEN_AI_TOOL_NAME]: toolName,
          [ATTR_APPROVAL_ID]: id,
          [ATTR_APPROVAL_HOOK]: hook,
          [ATTR_DECISION_REASON]: reason,
        });

  // Handed to the framework: its answer (the continuation), or nobody waited for (the call that asks).
  let answer: Answer =
    handoff?.answer !== undefined
      ? readResponse(handoff.answer.response)
      : handoff?.onPending !== undefined
        ? handOff(handoff.onPending, { id, toolName, args, reason: ask.reason, hook, deniedResult: ask.deniedResult })
        : await askApprover(request.approver ?? core.approver, core.approvalTimeoutMs, request, {
            id,
            toolName,
            args,
            redactedArgs: capture.serialize(args),
            reason: ask.reason,
            hook,
            callId: request.callId,
          });
  if (answer.outcome === 'error' && handoff?.isSuspension !== undefined && isSuspension(handoff.isSuspension, answer.error)) {
    answer = { outcome: 'pending', suspension: { error: answer.error } };
  }
  const durationMs = performance.now() - started;
  const edited = answer.edits !== undefined && Object.keys(answer.edits).length > 0;
  const denialReason = answer.denialReason === undefined ? undefined : capture.limit(answer.denialReason);
  // The approver's reference comes from the app's client (a resume value, a DeferredApprovals answer):
  // bounded like every other recorded string.
  const approver = answer.approver === undefined ? undefined : capture.limit(answer.approver);

  if (span !== undefined) {
    const attributes: Attributes = { [ATTR_APPROVAL_OUTCOME]: answer.outcome, [ATTR_APPROVAL_EDITED]: edited };
    if (approver !== undefined) attributes[ATTR_APPROVAL_APPROVER] = approver;
    if (denialReason !== undefined && denialReason !== '') attributes[ATTR_APPROVAL_DENIAL_REASON] = denialReason;
    if (answer.outcome === 'error') attributes[ATTR_ERROR_TYPE] = errorTypeOf(answer.error);
    setSpanAttributes(span, 'toolhooks.approval attributes', attributes);
  }
  if (core.hasObservers) {
    const event: Mutable<ApprovalEvent> = { type: 'approval', toolName, id, hook, reason, outcome: answer.outcome, edited, durationMs };
    if (approver !== undefined) event.approver = approver;
    if (denialReason !== undefined) event.denialReason = denialReason;
    if (answer.error !== undefined) {
      event.error = answer.error;
      // An approver's error can quote the arguments it was shown: scrubbed like a hook's failure.
      const scrubber = request.scrubber ?? core.capture.scrubber([request.args]);
      scrubber.add(args);
      event.exception = scrubber.describe(answer.error);
    }
    if (request.callId !== undefined) event.callId = request.callId;
    // Delivered inside the approval span, so a log record of it carries the span's ids.
    if (span === undefined) core.notify(event, toolName, undefined, args);
    else context.with(trace.setSpan(context.active(), span), () => core.notify(event, toolName, span, args));
  }
  if (span !== undefined) endSpan(span);

  const approved = answer.outcome === 'approved';
  const record: ApprovalRecord = { outcome: answer.outcome, id, effective, edits: edited ? answer.edits : undefined, suspension: answer.suspension };
  if (request.tally !== undefined) request.tally.approval = record;
  if (answer.outcome === 'pending') return skip(`Tool call pending approval ${id}`, ask.deniedResult !== undefined ? ask.deniedResult : `Tool call pending approval ${id}`);
  const why = answer.denialReason !== undefined && answer.denialReason !== '' ? answer.denialReason : answer.outcome;
  // The denial result travels as the Skip's stub: the flows return it like any stub.
  if (!approved) return skip(`Tool call denied: ${why}`, ask.deniedResult !== undefined ? ask.deniedResult : `Tool call denied: ${why}`);
  if (record.edits === undefined) return effective;
  return effective.kind === 'redirect'
    ? redirect({ newArgs: mergeArgs(effective.newArgs ?? {}, record.edits), newTool: effective.newTool, reason: effective.reason })
    : redirect({ newArgs: mergeArgs(record.edits), reason: `approval ${id} edited the arguments` });
}

let noApproverSaid = false;

/**
 * An Ask with nobody to answer it is denied by design (a gate never fails open), but a runner built
 * without `approver` usually means it was forgotten: said once per process, naming the option.
 */
function sayNoApprover(hook: string, toolName: string): void {
  if (noApproverSaid) return;
  noApproverSaid = true;
  warnVisibly(
    `toolhooks: hook "${hook}" asked for approval of ${toolName}, but nobody can answer: the call is denied (no_approver), ` +
      'and so is every Ask after it. Give the runner an approver: new HookRunner({ hooks, approver }) ' +
      "(terminalApprover() from toolhooks/node asks on the terminal), or use the adapter's approvals: 'framework'",
    'TOOLHOOKS_NO_APPROVER',
  );
}

/**
 * Asks the approver, within the timeout and the call's signal; what it does becomes an Answer. The
 * timer is this wait's own (cleared as soon as the wait ends, however it ends), so a cancelled call
 * never leaves a timer keeping the process alive.
 */
function askApprover(
  approver: Approver | undefined,
  timeoutMs: number,
  request: PhaseRequest,
  fields: Omit<ApprovalRequest, 'signal' | 'callId'> & { readonly callId: string | undefined },
): Promise<Answer> {
  if (approver === undefined) {
    sayNoApprover(fields.hook, fields.toolName);
    return Promise.resolve(NO_APPROVER);
  }
  const callSignal = request.signal;
  if (callSignal?.aborted === true) return Promise.resolve(EXPIRED);
  const controller = new AbortController();
  const { callId, ...rest } = fields;
  const approvalRequest: ApprovalRequest = Object.freeze(
    callId === undefined ? { ...rest, signal: controller.signal } : { ...rest, callId, signal: controller.signal },
  );
  // No timeout in the guard: the wait's timer is below, next to the call's signal.
  const settled = callUser(callApprover, approver, approvalRequest, undefined);
  if (!(settled instanceof Promise)) return Promise.resolve(readSettled(settled));
  return new Promise<Answer>((resolve) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (answer: Answer, why?: unknown): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      callSignal?.removeEventListener('abort', onAbort);
      // The approver is told to stop asking when the wait ended without its answer.
      if (why !== undefined) controller.abort(why);
      resolve(answer);
    };
    const onAbort = (): void => finish(EXPIRED, callSignal?.reason ?? new Error('the call was cancelled'));
    if (timeoutMs > 0) {
      // Not unref()'d: the caller awaits this call, and the timer is what ends a wait nobody answers.
      timer = setTimeout(() => finish(EXPIRED, new Error(`the approval expired after ${timeoutMs} ms`)), timeoutMs);
    }
    callSignal?.addEventListener('abort', onAbort, { once: true });
    void settled.then((result) => finish(readSettled(result)));
  });
}

/**
 * Gives the hand-off request to the adapter that hands it to its framework (through the guard: an
 * adapter's callback that throws is an `error`, and the call is denied).
 */
function handOff(onPending: (request: HandoffRequest) => void, fields: Omit<HandoffRequest, 'spanContext'>): Answer {
  // The phase runs in the call's context: its span is the asking span the continuation links to.
  const active = activeSpanContext();
  const spanContext = active !== undefined && isSpanContextValid(active) ? active : undefined;
  const request: HandoffRequest = Object.freeze({ ...fields, spanContext });
  const settled = callUser(callOnPending, onPending, request, undefined);
  if (settled instanceof Promise) return { outcome: 'error', error: new TypeError('onPending must not return a promise') };
  return settled.ok ? PENDING : { outcome: 'error', error: settled.error };
}

function callOnPending(onPending: (request: HandoffRequest) => void, request: HandoffRequest): unknown {
  onPending(request);
  return undefined;
}

/** Whether what an approver threw is its framework's suspension; a predicate that throws says no. */
function isSuspension(predicate: (error: unknown) => boolean, error: unknown): boolean {
  try {
    return predicate(error) === true;
  } catch {
    return false;
  }
}

function callApprover(approver: Approver, request: ApprovalRequest): unknown {
  return approver(request);
}

function readSettled(settled: Settled): Answer {
  if (settled.ok) return readResponse(settled.value);
  return settled.kind === 'timeout' ? EXPIRED : { outcome: 'error', error: settled.error };
}

/**
 * Checks an approver's answer, reading each field once (a getter that throws is an error, not a
 * crash). Only `{ approved: true }` approves; junk is an `error` whose TypeError describes it.
 */
function readResponse(value: unknown): Answer {
  try {
    if (value === null || typeof value !== 'object') return junk(quoteValue(value));
    const response = value as Record<string, unknown>;
    const approved = response.approved;
    const approver = response.approver;
    if (approver !== undefined && typeof approver !== 'string') return junk(`an approver ref that is ${quoteValue(approver)}, not a string`);
    if (approved === true) {
      const args = response.args;
      if (args === undefined) return { outcome: 'approved', approver };
      if (!isPlainObject(args)) return junk(`an approval with args that are ${quoteValue(args)}, not a plain object of arguments`);
      return { outcome: 'approved', approver, edits: Object.freeze(mergeArgs(args)) };
    }
    if (approved === false) {
      const reason = response.reason;
      if (reason !== undefined && typeof reason !== 'string') return junk(`a denial whose reason is ${quoteValue(reason)}, not a string`);
      return { outcome: 'denied', approver, denialReason: reason };
    }
    return junk(`an object whose approved is ${quoteValue(approved)}, not true or false`);
  } catch (error) {
    return { outcome: 'error', error };
  }
}

function junk(what: string): Answer {
  return {
    outcome: 'error',
    error: new TypeError(`the approver answered ${what}; answer { approved: true } or { approved: false, reason } (the call is denied)`),
  };
}


type Mutable<T> = { -readonly [K in keyof T]: T[K] };
