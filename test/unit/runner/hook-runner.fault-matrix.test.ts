/**
 * The hook fault matrix (issue 6): every way a hook can misbehave × both failure modes × the three
 * phases, each through executeTool, checked for what docs/protocol.md and docs/flows.md promise:
 * - fail-open: the call proceeds as if the hook had returned Continue;
 * - fail-closed: HookAbortError(`hook <name> failed: <message>`, sourceHook, cause = the hook's error);
 * - an observer (`onEvent`) that throws never changes the result, in either mode;
 * - one `toolhooks.hook.error` event with the right kind and failure mode, one `diag.warn`, and no
 *   unhandled rejection or process warning, even for a hook that rejects after its timeout.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FailureMode, HookContext, HookDecision, HookErrorKind, Phase, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookAbortError, HookRunner, executeTool, redirect } from '../../../src/index.js';
import {
  ATTR_DECISION,
  ATTR_ERROR_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_TYPE,
  ATTR_FAILURE_MODE,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_NAME,
  ATTR_OUTCOME,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE_TOOL_PREFIX,
  SPAN_ON_ERROR,
} from '../../../src/telemetry/semconv.js';
import { createTestTracing, eventsOf } from '../../support/tracing.js';
import { recordDiag } from '../../support/diag.js';

const HOOK = 'faulty';
const TIMEOUT_MS = 20;
const TOOL = 'read_file';
const TOOL_RESULT = 'file contents';

class ToolFailure extends Error {
  override name = 'ToolFailure';
}

/** One way a hook can misbehave, set up fresh for each test so identities can be checked. */
interface FaultInstance {
  /** The body of the phase method (or, for an observer fault, of onEvent). */
  behave(ctx: HookContext): unknown;
  /** Resolves once everything the fault set in motion has happened (a late rejection). */
  readonly finished?: Promise<void>;
  /** Checks `HookAbortError.cause` of a fail-closed call. */
  expectCause(cause: unknown): void;
}

interface Fault {
  readonly title: string;
  /** The failure is in `onEvent`, not in a decision method. */
  readonly observer: boolean;
  readonly kind: HookErrorKind;
  readonly exceptionType: string;
  /** What `exception.message` records and what follows `hook faulty failed: ` in a fail-closed reason. */
  readonly message: string;
  setup(): FaultInstance;
}

const FAULTS: readonly Fault[] = [
  {
    title: 'throws an Error',
    observer: false,
    kind: 'threw',
    exceptionType: 'Error',
    message: 'hook exploded',
    setup() {
      const error = new Error('hook exploded');
      return {
        behave: () => {
          throw error;
        },
        expectCause: (cause) => expect(cause).toBe(error),
      };
    },
  },
  {
    title: 'throws a non-Error',
    observer: false,
    kind: 'threw',
    exceptionType: 'string',
    message: 'plain string thrown',
    setup() {
      return {
        behave: () => {
          throw 'plain string thrown';
        },
        expectCause: (cause) => expect(cause).toBe('plain string thrown'),
      };
    },
  },
  {
    title: 'rejects',
    observer: false,
    kind: 'threw',
    exceptionType: 'TypeError',
    message: 'async failure',
    setup() {
      const error = new TypeError('async failure');
      return { behave: () => Promise.reject(error), expectCause: (cause) => expect(cause).toBe(error) };
    },
  },
  {
    title: 'never settles',
    observer: false,
    kind: 'timeout',
    exceptionType: 'HookTimeoutError',
    message: `timed out after ${TIMEOUT_MS} ms`,
    setup() {
      return {
        behave: () => new Promise<never>(() => undefined),
        expectCause: (cause) => expect(cause).toMatchObject({ name: 'HookTimeoutError', timeoutMs: TIMEOUT_MS }),
      };
    },
  },
  {
    title: 'rejects after its timeout',
    observer: false,
    kind: 'timeout',
    exceptionType: 'HookTimeoutError',
    message: `timed out after ${TIMEOUT_MS} ms`,
    setup() {
      let lateRejected!: () => void;
      const finished = new Promise<void>((resolve) => (lateRejected = resolve));
      return {
        // A hook that honours ctx.signal the usual way: its work rejects once the signal aborts,
        // which is after the runner has stopped waiting for it.
        behave: (ctx) =>
          new Promise<never>((_resolve, reject) => {
            ctx.signal.addEventListener('abort', () => {
              setTimeout(() => {
                reject(new Error('late: aborted by the timeout'));
                lateRejected();
              }, 5);
            });
          }),
        finished,
        expectCause: (cause) => expect(cause).toMatchObject({ name: 'HookTimeoutError', timeoutMs: TIMEOUT_MS }),
      };
    },
  },
  {
    title: 'returns junk',
    observer: false,
    kind: 'invalid_decision',
    exceptionType: 'InvalidHookDecisionError',
    message: `hook "${HOOK}" returned a boolean instead of a decision; return a decision from skip(), redirect() or abort(), or nothing to continue`,
    setup() {
      return {
        behave: () => true,
        expectCause: (cause) => expect(cause).toMatchObject({ name: 'InvalidHookDecisionError' }),
      };
    },
  },
  {
    title: 'returns a redirect with neither target',
    observer: false,
    kind: 'invalid_decision',
    exceptionType: 'InvalidHookDecisionError',
    message: `hook "${HOOK}" returned a redirect decision that needs newArgs or newTool: redirect({ newArgs: {...} }) or redirect({ newTool: "name" })`,
    setup() {
      return {
        behave: () => ({ kind: 'redirect', reason: 'somewhere else' }),
        expectCause: (cause) => expect(cause).toMatchObject({ name: 'InvalidHookDecisionError' }),
      };
    },
  },
  {
    title: 'redirects to an unknown tool',
    observer: false,
    kind: 'invalid_redirect_target',
    exceptionType: 'InvalidRedirectTargetError',
    message: 'redirect to unknown tool "no_such_tool"',
    setup() {
      return {
        behave: () => redirect({ newTool: 'no_such_tool', reason: 'try elsewhere' }),
        expectCause: (cause) => expect(cause).toMatchObject({ name: 'InvalidRedirectTargetError', target: 'no_such_tool' }),
      };
    },
  },
  {
    title: 'throws inside onEvent',
    observer: true,
    kind: 'threw',
    exceptionType: 'Error',
    message: 'observer exploded',
    setup() {
      return {
        behave: () => {
          throw new Error('observer exploded');
        },
        expectCause: () => {
          throw new Error('an observer failure never aborts a call');
        },
      };
    },
  },
];

const MODES: readonly FailureMode[] = ['open', 'closed'];
const PHASES: readonly Phase[] = ['before_tool', 'after_tool', 'on_error'];
const PHASE_SPAN: Record<Phase, string> = {
  before_tool: SPAN_BEFORE_TOOL,
  after_tool: SPAN_AFTER_TOOL,
  on_error: SPAN_ON_ERROR,
};

/** A hook with only the given phase's method, whose body is `body`. */
function phaseHook(phase: Phase, body: (ctx: HookContext) => unknown): ToolHook {
  const decide = (ctx: HookContext): HookDecision | void => body(ctx) as HookDecision | void;
  switch (phase) {
    case 'before_tool':
      return { name: HOOK, beforeTool: (_tool, _args, _state, ctx) => decide(ctx) };
    case 'after_tool':
      return { name: HOOK, afterTool: (_tool, _args, _result, _state, _duration, ctx) => decide(ctx) };
    case 'on_error':
      return { name: HOOK, onError: (_tool, _args, _error, _state, ctx) => decide(ctx) };
  }
}

/** The faulty hook: a failing decision method, or a Continue method plus an onEvent that fails on that phase's event. */
function faultyHook(fault: Fault, instance: FaultInstance, phase: Phase): ToolHook {
  if (!fault.observer) return phaseHook(phase, (ctx) => instance.behave(ctx));
  let seen: HookContext | undefined;
  const hook = phaseHook(phase, (ctx) => {
    seen = ctx;
    return undefined;
  });
  const onEvent = (event: ToolHookEvent): void => {
    if (event.type === 'phase' && event.phase === phase) instance.behave(seen as HookContext);
  };
  return { ...hook, onEvent };
}

const tracing = createTestTracing();
const diagRecorder = recordDiag();
const warnings = diagRecorder.messages;
const leaks: string[] = [];
const onUnhandledRejection = (reason: unknown): void => void leaks.push(`unhandledRejection: ${String(reason)}`);
const onWarning = (warning: Error): void => void leaks.push(`warning: ${warning.name}: ${warning.message}`);

beforeEach(() => {
  tracing.reset();
  leaks.length = 0;
  diagRecorder.start();
  process.on('unhandledRejection', onUnhandledRejection);
  process.on('warning', onWarning);
});
afterEach(() => {
  diagRecorder.stop();
  process.off('unhandledRejection', onUnhandledRejection);
  process.off('warning', onWarning);
});

/** Lets Node run its unhandled-rejection and warning processing (both happen after the microtask queue). */
async function drainProcessEvents(): Promise<void> {
  for (let i = 0; i < 3; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

function only(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `spans named ${name}`).toHaveLength(1);
  return found[0]!;
}

const MATRIX = FAULTS.flatMap((fault) =>
  MODES.flatMap((mode) => PHASES.map((phase) => ({ name: `a hook that ${fault.title}, fail-${mode}, in ${phase}`, mode, phase, fault }))),
);

describe('hook fault matrix: {fault} × {fail-open, fail-closed} × {phase}, through executeTool', () => {
  it('covers every fault, mode and phase', () => {
    expect(MATRIX).toHaveLength(FAULTS.length * MODES.length * PHASES.length);
    expect(new Set(FAULTS.map((fault) => fault.kind))).toEqual(new Set(['threw', 'timeout', 'invalid_decision', 'invalid_redirect_target']));
  });

  it.each(MATRIX.map((entry) => [entry.name, entry] as const))('%s', async (_name, { fault, mode, phase }) => {
    const instance = fault.setup();
    const toolError = new ToolFailure('disk on fire');
    const execute = vi.fn(() => {
      if (phase === 'on_error') throw toolError;
      return TOOL_RESULT;
    });
    const hooks = new HookRunner({
      hooks: [faultyHook(fault, instance, phase)],
      tracer: tracing.tracer,
      failureMode: mode,
      timeoutMs: TIMEOUT_MS,
    });

    const settled = await executeTool({ hooks, toolName: TOOL, args: { path: '/tmp/a' }, execute, tools: { other_tool: () => 'other' } }).then(
      (value: unknown) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );

    // The result: docs/protocol.md (swallowed → Continue, or Abort when closed) and §3 (what Continue means per phase).
    const aborts = mode === 'closed' && !fault.observer;
    if (aborts) {
      expect(settled.ok).toBe(false);
      const error = (settled as { error: unknown }).error;
      expect(error).toBeInstanceOf(HookAbortError);
      const abortError = error as HookAbortError;
      expect(abortError.reason).toBe(`hook ${HOOK} failed: ${fault.message}`);
      expect(abortError.message).toBe(abortError.reason);
      expect(abortError.sourceHook).toBe(HOOK);
      instance.expectCause(abortError.cause);
    } else if (phase === 'on_error') {
      // Continue in on_error rethrows the tool's own error object.
      expect(settled).toEqual({ ok: false, error: toolError });
      expect((settled as { error: unknown }).error).toBe(toolError);
    } else {
      expect(settled).toEqual({ ok: true, value: TOOL_RESULT });
    }
    // A fail-closed before_tool hook stops the tool from running; everything else runs it exactly once.
    expect(execute).toHaveBeenCalledTimes(aborts && phase === 'before_tool' ? 0 : 1);

    // The telemetry: one hook.error event, on the phase span, with the right kind and failure mode.
    const spans = tracing.spans();
    const phaseSpan = only(spans, PHASE_SPAN[phase]);
    const errorEvents = spans.flatMap((span) => eventsOf(span, EVENT_HOOK_ERROR).map((event) => ({ span: span.name, ...event })));
    expect(errorEvents).toHaveLength(1);
    expect(errorEvents[0]).toMatchObject({
      span: PHASE_SPAN[phase],
      attributes: {
        [ATTR_HOOK_NAME]: HOOK,
        [ATTR_HOOK_ERROR_KIND]: fault.kind,
        // Failure modes do not apply to observers: their failures are always recorded as open.
        [ATTR_FAILURE_MODE]: fault.observer ? 'open' : mode,
        [ATTR_EXCEPTION_TYPE]: fault.exceptionType,
        [ATTR_EXCEPTION_MESSAGE]: fault.message,
      },
    });
    expect(phaseSpan.attributes[ATTR_HOOK_ERRORS]).toBe(fault.observer ? 0 : 1);
    expect(phaseSpan.attributes[ATTR_DECISION]).toBe(aborts ? 'abort' : 'continue');
    // A handled hook error is not a span error.
    expect(phaseSpan.status.code).toBe(SpanStatusCode.UNSET);

    const root = only(spans, `${SPAN_EXECUTE_TOOL_PREFIX} ${TOOL}`);
    const outcome = aborts ? 'aborted' : phase === 'on_error' ? 'failed' : 'completed';
    expect(root.attributes[ATTR_OUTCOME]).toBe(outcome);
    if (outcome === 'completed') expect(root.status.code).toBe(SpanStatusCode.UNSET);
    else expect(root.attributes[ATTR_ERROR_TYPE]).toBe(aborts ? 'HookAbortError' : 'ToolFailure');

    // Reported once through diag, naming the hook and what went wrong.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`"${HOOK}"`);
    expect(warnings[0]).toContain(fault.message);
    if (!fault.observer) expect(warnings[0]).toContain(`${fault.kind}:`);

    // Nothing leaks to the process, not even a rejection that happens after the runner stopped waiting.
    await instance.finished;
    await drainProcessEvents();
    expect(leaks).toEqual([]);
  });
});
