/**
 * The benchmark's scenarios: each is one tool call, run again and again, and names the baseline it is
 * compared with (measured in the same process run).
 */
import type { Tracer } from '@opentelemetry/api';
import { ProxyTracerProvider, TraceFlags, context, metrics, trace } from '@opentelemetry/api';
import pino from 'pino';
import type { Approver, ToolArgs, ToolHook } from '../src/index.js';
import { INSTRUMENTATION_NAME } from '../src/telemetry/semconv.js';
import { VERSION } from '../src/version.js';
import { handWrittenCall, handWrittenDroppedRoot, handWrittenDroppedRootSync } from './hand-written.js';
import { DiscardingDestination, handWrittenTelemetry } from './hand-written-telemetry.js';
import type { Library } from './library.js';
import type { CallObserver } from './hand-written.js';
import type { PlainHook } from './workload.js';
import { limitScenarios } from './limits.js';
import type { Guards } from './guarded.js';
import { guardedDroppedRootSync } from './guarded.js';
import { sampledOutTracer } from './sdk.js';
import { fileReceipts, handWrittenChain, memoryReceiptSink } from './receipts.js';
import { ARGS, CALL_ID, NESTED_ARGS, TOOL_NAME, continueHooks, nonMatchingHooks, plainHooks, syncTool, tool } from './workload.js';

/** Which process-wide telemetry a scenario needs; scenarios run grouped in this order. */
export type Setting = 'no-sdk' | 'sdk';

/** One benchmarked call and what it is compared with. */
export interface Scenario {
  /** Stable id, used in JSON results and `--compare`. */
  readonly id: string;
  readonly label: string;
  readonly setting: Setting;
  /** The id of the scenario this one is compared with; none for a floor. */
  readonly baseline?: string;
  /** Whether this is the toolhooks side of a comparison (the hand-written side and `bare` are not). */
  readonly library: boolean;
  /** The target, when the issue sets one. */
  readonly target?: { readonly maxRatio?: number; readonly maxAddedNs?: number };
  /**
   * Whether its ratio is measured side by side with its baseline (`samplePaired`: short alternating
   * batches) rather than from the rounds: for a target close to 1×, where the rounds' time apart matters.
   */
  readonly paired?: boolean;
  /**
   * False for a scenario whose heap is not measured: the forced GCs of the heap measurement crash V8 22's
   * deoptimizer inside `@cedar-policy/cedar-wasm` 4.13 (the Cedar policy rows; docs/performance.md).
   */
  readonly heap?: false;
  /** Another scenario, measured earlier in the same run (another setting), it is also reported against. */
  readonly reference?: string;
  readonly call: () => Promise<unknown>;
}

/** SDK scenarios also reported against a no-SDK scenario of the same run: id → the no-SDK scenario's id. */
export const REFERENCES = {
  'sdk.sampled-out': 'nosdk.hooks-2',
  'sdk.sampled-out.in-trace': 'nosdk.hooks-2',
} as const satisfies Readonly<Record<string, string>>;

/** toolhooks' view of the plain hooks: the very same functions, registered on a runner. */
export function libraryHooks(hooks: readonly PlainHook[]): ToolHook[] {
  return hooks.map((hook) => {
    const registered: ToolHook = { name: hook.name, beforeTool: hook.before };
    return hook.tools === undefined ? registered : { ...registered, tools: hook.tools };
  });
}

/**
 * A call made inside the agent's request span that the app's sampler dropped (a non-recording span
 * with a real trace id, as the SDK gives for a sampled-out root): the common production case at a low
 * sampling rate.
 */
function inDroppedTrace(call: () => Promise<unknown>): () => Promise<unknown> {
  const dropped = trace.wrapSpanContext({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.NONE });
  const parent = trace.setSpan(context.active(), dropped);
  return () => context.with(parent, call);
}

function libraryCall(
  lib: Library,
  hooks: ToolHook[],
  tracer?: Tracer,
  approver?: Approver,
  args = ARGS,
  options: object = {},
  execute: (args: ToolArgs) => unknown = tool,
): () => Promise<unknown> {
  const runner = new lib.HookRunner({ ...options, hooks, ...(tracer === undefined ? {} : { tracer }), ...(approver === undefined ? {} : { approver }) });
  const { executeTool } = lib;
  return () => executeTool({ hooks: runner, toolName: TOOL_NAME, args, execute, callId: CALL_ID });
}

/** A call built at its first use, so a run measuring an older build (`--dist`) can still list the scenario. */
function lazily(build: () => () => Promise<unknown>): () => Promise<unknown> {
  let call: (() => Promise<unknown>) | undefined;
  return () => (call ??= build())();
}

/** An approver that answers at once: what an approval costs the call itself, with no wait. */
const approveAtOnce: Approver = () => ({ approved: true, approver: 'bench' });

/** The 2-hook workload plus a gate that asks for every call, approved at once. */
function approvedCall(lib: Library, decision: ReturnType<Library['redirect']>, tracer?: Tracer): () => Promise<unknown> {
  // Built at the first call, so that a run measuring an older build (`--dist`, without Ask) can still
  // list the scenario and filter it out.
  let call: (() => Promise<unknown>) | undefined;
  return () => {
    if (call === undefined) {
      const asked = lib.ask('the bench asks for every call');
      const gate: ToolHook = { name: 'gate', beforeTool: () => asked };
      call = libraryCall(lib, [...libraryHooks(plainHooks(2, decision)), gate], tracer, approveAtOnce);
    }
    return call();
  };
}

/** The policy's Redirect, built once with the library under test. */
function capLimit(lib: Library): ReturnType<Library['redirect']> {
  return lib.redirect({ newArgs: { limit: 10 }, reason: 'limit capped at 10' });
}

function handWritten(hooks: readonly PlainHook[], observer?: CallObserver): () => Promise<unknown> {
  const call = handWrittenCall(trace.getTracer(INSTRUMENTATION_NAME, VERSION), hooks, tool, observer);
  return () => call(TOOL_NAME, ARGS, CALL_ID);
}

function droppedRootByHand(hooks: readonly PlainHook[]): () => Promise<unknown> {
  const call = handWrittenDroppedRoot(sampledOutTracer().tracer, hooks, tool);
  return () => call(TOOL_NAME, ARGS, CALL_ID);
}

/** The guarded baseline of the commonest call, and `continueCall` (the `sdk.dropped-root.continue` call) against it. */
function guardedRows(guards: Guards, decision: ReturnType<typeof capLimit>, continueCall: () => Promise<unknown>): Scenario[] {
  const guarded = guardedDroppedRootSync(guards, sampledOutTracer().tracer, libraryHooks(continueHooks(2, decision)));
  return [
    {
      id: 'sdk.dropped-root.continue.guarded',
      label: 'SDK, sampled out: hand-written with the checks, read-only args and guarded hook calls of the build + 2 Continue hooks + sync tool',
      setting: 'sdk',
      baseline: 'sdk.dropped-root.continue.hand',
      library: false,
      paired: true,
      call: () => guarded({ toolName: TOOL_NAME, args: ARGS, execute: syncTool, callId: CALL_ID }),
    },
    {
      id: 'sdk.dropped-root.continue.beyond-guards',
      label: 'SDK, sampled out (the dropped root): executeTool, 2 Continue hooks, sync tool; against the guarded hand-written call',
      setting: 'sdk',
      baseline: 'sdk.dropped-root.continue.guarded',
      library: true,
      target: { maxRatio: 1.1 },
      paired: true,
      call: continueCall,
    },
  ];
}

function droppedRootSyncByHand(hooks: readonly PlainHook[]): () => Promise<unknown> {
  const call = handWrittenDroppedRootSync(sampledOutTracer().tracer, hooks, syncTool);
  return () => call(TOOL_NAME, ARGS, CALL_ID);
}

/** Where the metrics-and-logging scenarios' pino loggers write: one destination per side. */
export const logDestinations = { library: new DiscardingDestination(), hand: new DiscardingDestination() };

function logger(destination: DiscardingDestination): pino.Logger {
  return pino({ name: INSTRUMENTATION_NAME, level: 'info' }, destination);
}

/** The floor and the scenarios that run with only the API's no-op tracer (no SDK registered). */
export function noSdkScenarios(lib: Library): Scenario[] {
  const decision = capLimit(lib);
  const added = { maxAddedNs: 1_000 };
  return [
    { id: 'bare', label: 'bare: await tool(args)', setting: 'no-sdk', library: false, call: () => tool(ARGS) },
    ...[0, 1, 2, 5].map(
      (count): Scenario => ({
        id: `nosdk.hooks-${count}`,
        label: `no SDK: executeTool, ${count} hook${count === 1 ? '' : 's'}`,
        setting: 'no-sdk',
        baseline: 'bare',
        library: true,
        target: added,
        call: libraryCall(lib, libraryHooks(plainHooks(count, decision))),
      }),
    ),
    // Hooks get a frozen copy of the arguments, never the caller's object: what that costs grows with the
    // arguments, so the same call with larger ones (against the same tool with them) shows it.
    { id: 'bare.nested-args', label: 'bare: await tool(nested args, 1.2 KB)', setting: 'no-sdk', library: false, call: () => tool(NESTED_ARGS) },
    {
      id: 'nosdk.hooks-2.nested-args',
      label: 'no SDK: executeTool, 2 hooks, nested args (1.2 KB)',
      setting: 'no-sdk',
      baseline: 'bare.nested-args',
      library: true,
      call: libraryCall(lib, libraryHooks(plainHooks(2, decision)), undefined, undefined, NESTED_ARGS),
    },
    ...receiptScenarios(lib, decision),
    {
      id: 'nosdk.approved',
      label: 'no SDK: executeTool, 2 hooks + an Ask approved at once',
      setting: 'no-sdk',
      baseline: 'nosdk.hooks-2',
      library: true,
      call: approvedCall(lib, decision),
    },
    ...limitScenarios(lib),
  ];
}

/** The scenarios that run with the tracing SDK registered; call after `installTracingSdk()`. */
export function sdkScenarios(lib: Library, guards?: Guards): Scenario[] {
  const decision = capLimit(lib);
  // The commonest call: its own row against plain hand-written code, and the row against the guarded code.
  const continueCall = libraryCall(lib, libraryHooks(continueHooks(2, decision)), sampledOutTracer().tracer, undefined, ARGS, {}, syncTool);
  const pair = (id: string, what: string, hooks: readonly PlainHook[], maxRatio?: number): Scenario[] => [
    { id: `sdk.${id}.hand`, label: `SDK: hand-written OTel, ${what}`, setting: 'sdk', library: false, call: handWritten(hooks) },
    {
      id: `sdk.${id}`,
      label: `SDK: executeTool, ${what}`,
      setting: 'sdk',
      baseline: `sdk.${id}.hand`,
      library: true,
      ...(maxRatio === undefined ? {} : { target: { maxRatio } }),
      call: libraryCall(lib, libraryHooks(hooks)),
    },
  ];
  return [
    ...pair('hooks-2', '2 hooks (1 redirects)', plainHooks(2, decision), 1.15),
    ...pair('hooks-10', '10 hooks (1 redirects)', plainHooks(10, decision)),
    // The cost of an approval on the call path (an approver that answers at once, so no wait is
    // measured), against the same two hooks without the Ask.
    {
      id: 'sdk.approved',
      label: 'SDK: executeTool, 2 hooks + an Ask approved at once',
      setting: 'sdk',
      baseline: 'sdk.hooks-2',
      library: true,
      call: approvedCall(lib, decision),
    },
    ...pair('no-hook-invoked', '2 hooks, none matches the tool', nonMatchingHooks(2, decision)),
    // Decision records as log-based events (through the registered LoggerProvider, batched) instead of span
    // events: what a decision costs one way against the other, on the same workload.
    {
      id: 'sdk.log-events',
      label: "SDK: executeTool, 2 hooks, decisionRecords: 'log-events'",
      setting: 'sdk',
      baseline: 'sdk.hooks-2',
      library: true,
      call: lazily(() => libraryCall(lib, libraryHooks(plainHooks(2, decision)), undefined, undefined, ARGS, { decisionRecords: 'log-events' })),
    },
    // A call the app's sampler drops, against the no-SDK path measured in the same rounds: a runner
    // whose tracer is the API's no-op one (what every call gets with no SDK registered).
    {
      id: 'sdk.sampled-out.noop',
      label: 'no-op tracer (the no-SDK path): executeTool, 2 hooks',
      setting: 'sdk',
      library: false,
      call: libraryCall(lib, libraryHooks(plainHooks(2, decision)), new ProxyTracerProvider().getTracer(INSTRUMENTATION_NAME, VERSION)),
    },
    {
      id: 'sdk.sampled-out',
      label: 'SDK, sampled out by ParentBased(AlwaysOff): executeTool, 2 hooks',
      setting: 'sdk',
      baseline: 'sdk.sampled-out.noop',
      reference: REFERENCES['sdk.sampled-out'],
      library: true,
      target: { maxRatio: 2 },
      call: libraryCall(lib, libraryHooks(plainHooks(2, decision)), sampledOutTracer().tracer),
    },
    // The dropped root again, against the least hand-written code for the same span on the same kind of
    // tracer: tracer.startSpan + context.with + the hooks + the tool. The SDK's startSpan is the floor.
    {
      id: 'sdk.dropped-root.hand',
      label: 'SDK, sampled out: hand-written startSpan + context.with + hooks + tool',
      setting: 'sdk',
      library: false,
      call: droppedRootByHand(plainHooks(2, decision)),
    },
    {
      id: 'sdk.dropped-root',
      label: 'SDK, sampled out (the call is the dropped root): executeTool, 2 hooks',
      setting: 'sdk',
      baseline: 'sdk.dropped-root.hand',
      library: true,
      target: { maxRatio: 1.1 },
      paired: true,
      call: libraryCall(lib, libraryHooks(plainHooks(2, decision)), sampledOutTracer().tracer),
    },
    // The commonest call there is: dropped by the app's sampler, two hooks that both let it go on, a
    // synchronous tool; against the least hand-written code for the same span on the same kind of tracer.
    {
      id: 'sdk.dropped-root.continue.hand',
      label: 'SDK, sampled out: hand-written startSpan + context.with + 2 Continue hooks + sync tool',
      setting: 'sdk',
      library: false,
      call: droppedRootSyncByHand(continueHooks(2, decision)),
    },
    {
      id: 'sdk.dropped-root.continue',
      label: 'SDK, sampled out (the dropped root): executeTool, 2 hooks that Continue, sync tool',
      setting: 'sdk',
      baseline: 'sdk.dropped-root.continue.hand',
      library: true,
      paired: true,
      call: continueCall,
    },
    // The same call against hand-written code that keeps the promises toolhooks makes for it (its options
    // checked, hooks given a read-only copy, each hook called guarded and its answer checked; bench/guarded.ts):
    // the guarded row says what those promises cost, the next what the one call path costs beyond them.
    ...(guards === undefined ? [] : guardedRows(guards, decision, continueCall)),
    // The same, inside the agent's request span that the sampler dropped: the call's span would be a
    // child of a dropped span, so none is started. The baseline makes the same context switch.
    {
      id: 'sdk.sampled-out.in-trace.noop',
      label: 'no-op tracer inside a dropped trace: executeTool, 2 hooks',
      setting: 'sdk',
      library: false,
      call: inDroppedTrace(libraryCall(lib, libraryHooks(plainHooks(2, decision)), new ProxyTracerProvider().getTracer(INSTRUMENTATION_NAME, VERSION))),
    },
    {
      id: 'sdk.sampled-out.in-trace',
      label: 'SDK, inside a trace the sampler dropped: executeTool, 2 hooks',
      setting: 'sdk',
      baseline: 'sdk.sampled-out.in-trace.noop',
      reference: REFERENCES['sdk.sampled-out.in-trace'],
      library: true,
      target: { maxRatio: 2 },
      call: inDroppedTrace(libraryCall(lib, libraryHooks(plainHooks(2, decision)), sampledOutTracer().tracer)),
    },
    {
      id: 'sdk.metrics-logs.hand',
      label: 'SDK: hand-written OTel + metrics + pino, 2 hooks',
      setting: 'sdk',
      library: false,
      call: handWritten(
        plainHooks(2, decision),
        handWrittenTelemetry(metrics.getMeter('hand-written', VERSION), logger(logDestinations.hand)),
      ),
    },
    {
      id: 'sdk.metrics-logs',
      label: 'SDK: executeTool + MetricsHook + LoggingHook, 2 hooks',
      setting: 'sdk',
      baseline: 'sdk.metrics-logs.hand',
      library: true,
      target: { maxRatio: 1.15 },
      call: libraryCall(lib, [
        ...libraryHooks(plainHooks(2, decision)),
        new lib.MetricsHook(),
        new lib.LoggingHook({ logger: logger(logDestinations.library) }),
      ]),
    },
  ];
}

/**
 * Receipts (3 records a call: the 2 hooks' decisions and the outcome): the receipt hook against a
 * hand-written SHA-256 chain of the same records, both into memory; then into a file per fsync mode, each
 * call awaiting its records' write. Listed only for a build that has toolhooks/receipts.
 */
function receiptScenarios(lib: Library, decision: ReturnType<Library['redirect']>): Scenario[] {
  const { receiptHook } = lib;
  if (receiptHook === undefined) return [];
  const hooks = (): ToolHook[] => libraryHooks(plainHooks(2, decision));
  const file = (fsync: 'always' | 'head' | 'never'): Scenario => {
    let call: (() => Promise<unknown>) | undefined;
    return {
      id: `nosdk.receipts.file-${fsync}`,
      label: `no SDK: executeTool, 2 hooks + receipts to a file (fsync '${fsync}'), each call awaiting its write`,
      setting: 'no-sdk',
      baseline: 'nosdk.receipts',
      library: true,
      call: () => {
        if (call === undefined) {
          // Made at the first call, so that a filtered-out row opens no file.
          const { hook, after } = fileReceipts(lib, fsync);
          const run = libraryCall(lib, [...hooks(), hook]);
          call = () => run().then(after);
        }
        return call();
      },
    };
  };
  return [
    {
      id: 'nosdk.receipts.hand',
      label: 'no SDK: executeTool, 2 hooks + a hand-written SHA-256 chain of the same records',
      setting: 'no-sdk',
      baseline: 'nosdk.hooks-2',
      library: false,
      call: libraryCall(lib, [...hooks(), handWrittenChain()]),
    },
    {
      id: 'nosdk.receipts',
      label: 'no SDK: executeTool, 2 hooks + receiptHook (memory sink)',
      setting: 'no-sdk',
      baseline: 'nosdk.receipts.hand',
      library: true,
      target: { maxRatio: 1.3 },
      paired: true,
      call: libraryCall(lib, [...hooks(), receiptHook({ sink: memoryReceiptSink() })]),
    },
    file('never'),
    file('head'),
    file('always'),
  ];
}
