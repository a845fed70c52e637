/**
 * The baseline the library is measured against: the same spans, attributes and events as toolhooks
 * records for a call, written directly against the OpenTelemetry API the way a careful engineer would —
 * one `context.with` per span level that runs code which may trace (the phase runs the hooks, the
 * execute span runs the tool), attributes given at span start where they are known, no closures per
 * call (`context.with` passes the arguments through), nothing computed that is not recorded.
 *
 * What it leaves out, because a hand-written integration of trusted code would: validating options and
 * hook return values, timeouts, the failure-mode machinery, and guarding telemetry calls.
 */
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { HookDecision, ToolArgs } from '../src/index.js';
import {
  ATTR_ATTEMPT,
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISIONS_SHADOWED,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_INDEX,
  ATTR_HOOK_NAME,
  ATTR_HOOKS_INVOKED,
  ATTR_OUTCOME,
  ATTR_PHASE,
  ATTR_REDIRECT_ARG_KEYS,
  ATTR_REDIRECTED,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  ATTR_TOOL_EFFECTIVE_NAME,
  EVENT_HOOK_DECISION,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
} from '../src/telemetry/semconv.js';
import type { PlainHook } from './workload.js';

/** What the hand-written call reports besides its spans (the metrics/logging baseline uses it). */
export interface CallObserver {
  /** One invoked hook's decision, with the phase span. */
  decision(span: Span, toolName: string, hookName: string, decision: HookDecision, durationMs: number, callId: string): void;
  /** The call's end, with the execute_tool span. */
  outcome(span: Span, toolName: string, outcome: 'completed' | 'failed', durationMs: number, callId: string, error: unknown): void;
}

type Tool = (args: ToolArgs) => Promise<unknown>;

/** A hand-instrumented tool call with `hooks` run before the tool. */
export function handWrittenCall(
  tracer: Tracer,
  hooks: readonly PlainHook[],
  tool: Tool,
  observer?: CallObserver,
): (toolName: string, args: ToolArgs, callId: string) => Promise<unknown> {
  async function inToolSpan(span: Span, toolName: string, args: ToolArgs, callId: string): Promise<unknown> {
    const started = performance.now();
    let toolArgs = args;
    let redirected = false;
    if (applies(hooks, toolName)) {
      const phase = tracer.startSpan(SPAN_BEFORE_TOOL, {
        kind: SpanKind.INTERNAL,
        attributes: { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_PHASE]: 'before_tool' },
      });
      const decision = context.with(trace.setSpan(context.active(), phase), runBefore, undefined, phase, toolName, args, callId);
      if (decision !== undefined && decision.kind === 'redirect' && decision.newArgs !== undefined) {
        toolArgs = { ...args, ...decision.newArgs };
        redirected = true;
      }
    }
    const execute = tracer.startSpan(SPAN_EXECUTE, {
      kind: SpanKind.INTERNAL,
      attributes: { [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_ATTEMPT]: 1 },
    });
    let result: unknown;
    try {
      result = await context.with(trace.setSpan(context.active(), execute), tool, undefined, toolArgs);
    } catch (error) {
      const type = error instanceof Error ? error.constructor.name : '_OTHER';
      const message = error instanceof Error ? error.message : String(error);
      execute.setAttribute(ATTR_ERROR_TYPE, type);
      execute.setStatus({ code: SpanStatusCode.ERROR, message });
      execute.end();
      span.setAttributes({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: type });
      span.setStatus({ code: SpanStatusCode.ERROR, message });
      observer?.outcome(span, toolName, 'failed', performance.now() - started, callId, error);
      throw error;
    }
    execute.end();
    const attributes: Attributes = {
      [ATTR_OUTCOME]: 'completed',
      [ATTR_REDIRECTED]: redirected,
      [ATTR_RETRIES]: 0,
      [ATTR_REEXECUTIONS]: 0,
      [ATTR_HOOK_ERRORS]: 0,
    };
    if (redirected) attributes[ATTR_TOOL_EFFECTIVE_NAME] = toolName;
    span.setAttributes(attributes);
    observer?.outcome(span, toolName, 'completed', performance.now() - started, callId, undefined);
    return result;
  }

  /** Runs the hooks that apply, one decision event each; the first non-Continue decision wins. */
  function runBefore(phase: Span, toolName: string, args: ToolArgs, callId: string): HookDecision | undefined {
    let winner: HookDecision | undefined;
    let winnerName = '';
    let invoked = 0;
    for (let index = 0; index < hooks.length; index += 1) {
      const hook = hooks[index] as PlainHook;
      if (hook.tools !== undefined && !hook.tools.includes(toolName)) continue;
      invoked += 1;
      const started = performance.now();
      const decision = hook.before(toolName, args);
      const durationMs = performance.now() - started;
      const attributes: Attributes = {
        [ATTR_HOOK_NAME]: hook.name,
        [ATTR_HOOK_INDEX]: index,
        [ATTR_DECISION]: decision === undefined ? 'continue' : decision.kind,
        [ATTR_HOOK_DURATION_MS]: durationMs,
      };
      if (decision !== undefined && decision.kind !== 'continue') {
        if (decision.reason !== '') attributes[ATTR_DECISION_REASON] = decision.reason;
        if (decision.kind === 'redirect' && decision.newArgs !== undefined) {
          attributes[ATTR_REDIRECT_ARG_KEYS] = Object.keys(decision.newArgs);
        }
        if (winner === undefined) {
          winner = decision;
          winnerName = hook.name;
        }
      }
      phase.addEvent(EVENT_HOOK_DECISION, attributes);
      observer?.decision(phase, toolName, hook.name, decision ?? CONTINUE_DECISION, durationMs, callId);
    }
    const attributes: Attributes = {
      [ATTR_DECISION]: winner === undefined ? 'continue' : winner.kind,
      [ATTR_HOOKS_INVOKED]: invoked,
      [ATTR_DECISIONS_SHADOWED]: 0,
      [ATTR_HOOK_ERRORS]: 0,
    };
    if (winner !== undefined) attributes[ATTR_DECISION_HOOK] = winnerName;
    phase.setAttributes(attributes);
    phase.end();
    return winner;
  }

  return async function call(toolName: string, args: ToolArgs, callId: string): Promise<unknown> {
    const span = startToolSpan(tracer, toolName, callId);
    try {
      return await context.with(trace.setSpan(context.active(), span), inToolSpan, undefined, span, toolName, args, callId);
    } finally {
      span.end();
    }
  };
}

/** The call's `execute_tool` span, with the attributes a sampler may look at given at start. */
function startToolSpan(tracer: Tracer, toolName: string, callId: string): Span {
  return tracer.startSpan(`execute_tool ${toolName}`, {
    kind: SpanKind.INTERNAL,
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: toolName,
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_GEN_AI_TOOL_CALL_ID]: callId,
    },
  });
}

const CONTINUE_DECISION: HookDecision = Object.freeze({ kind: 'continue' });

function applies(hooks: readonly PlainHook[], toolName: string): boolean {
  for (const hook of hooks) if (hook.tools === undefined || hook.tools.includes(toolName)) return true;
  return false;
}

/**
 * The least hand-written code for a call whose span the app's sampler drops (the call is the root): one
 * `tracer.startSpan` with the span's start attributes, one `context.with` so the hooks and the tool run
 * in it, the hooks (a Redirect's arguments applied) and the tool. Nothing else is recorded on a span
 * that is not recording, so nothing else is written.
 */
export function handWrittenDroppedRoot(tracer: Tracer, hooks: readonly PlainHook[], tool: Tool): (toolName: string, args: ToolArgs, callId: string) => Promise<unknown> {
  async function inSpan(toolName: string, args: ToolArgs): Promise<unknown> {
    let effective = args;
    for (const hook of hooks) {
      if (hook.tools !== undefined && !hook.tools.includes(toolName)) continue;
      const decision = hook.before(toolName, effective);
      if (decision?.kind === 'redirect' && decision.newArgs !== undefined) effective = { ...effective, ...decision.newArgs };
    }
    return tool(effective);
  }
  return async function call(toolName: string, args: ToolArgs, callId: string): Promise<unknown> {
    const span = startToolSpan(tracer, toolName, callId);
    try {
      return await context.with(trace.setSpan(context.active(), span), inSpan, undefined, toolName, args);
    } finally {
      span.end();
    }
  };
}

/**
 * The least hand-written code for a call whose span the app's sampler drops, around a synchronous tool:
 * one `tracer.startSpan`, one `context.with` running the hooks and the tool in it, the span ended. The call
 * is an async function, as every tool call an agent awaits is, but nothing in it waits.
 */
export function handWrittenDroppedRootSync(
  tracer: Tracer,
  hooks: readonly PlainHook[],
  tool: (args: ToolArgs) => unknown,
): (toolName: string, args: ToolArgs, callId: string) => Promise<unknown> {
  // The hook loop repeats handWrittenDroppedRoot's on purpose: shared as a function, it would add a call to
  // each measured tool call; shared as one inSpan, it would take that baseline's async step away. Either
  // way a baseline would stop being the least code for its job.
  function inSpan(toolName: string, args: ToolArgs): unknown {
    let effective = args;
    for (const hook of hooks) {
      if (hook.tools !== undefined && !hook.tools.includes(toolName)) continue;
      const decision = hook.before(toolName, effective);
      if (decision?.kind === 'redirect' && decision.newArgs !== undefined) effective = { ...effective, ...decision.newArgs };
    }
    return tool(effective);
  }
  return async function call(toolName: string, args: ToolArgs, callId: string): Promise<unknown> {
    const span = startToolSpan(tracer, toolName, callId);
    try {
      return context.with(trace.setSpan(context.active(), span), inSpan, undefined, toolName, args);
    } finally {
      span.end();
    }
  };
}
