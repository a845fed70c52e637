/**
 * The guarded baseline of the commonest call (dropped by the app's sampler, two hooks that Continue, a
 * synchronous tool): the least hand-written code that keeps the promises toolhooks makes for that call,
 * with the build's own pieces for each promise — and none of the call machinery (no call object, no
 * decision loop, no phase run or fold). Its options are checked as `executeTool` checks them (the
 * build's checks, each option read once), hooks get the build's read-only copy of the arguments, each
 * hook is called as the build calls one (guarded, with its own `HookContext`, its answer checked), the
 * executor gets its `ExecutorContext`, and no tracer call can throw into the call.
 *
 * Measured against the plain hand-written code (`sdk.dropped-root.continue.hand`), it says what those
 * promises cost; the library measured against it says what the one call path costs beyond them
 * (docs/performance.md, "Twelfth round").
 */
import type { Span, Tracer } from '@opentelemetry/api';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ToolArgs, ToolHook } from '../src/index.js';
import type * as Decisions from '../src/decisions.js';
import type * as HookCall from '../src/runner/hook-call.js';
import type * as HookEntryModule from '../src/runner/hook-entry.js';
import type * as ReadOnlyArgs from '../src/runner/read-only-args.js';
import type * as Validate from '../src/internal/validate.js';
import type * as VerdictModule from '../src/runner/verdict.js';
import type { PhaseRequest } from '../src/runner/phase-request.js';
import type { HookEntry } from '../src/runner/hook-entry.js';
import type { Matched } from '../src/runner/phase-hooks.js';
import { ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_GEN_AI_TOOL_NAME, ATTR_GEN_AI_TOOL_TYPE } from '../src/telemetry/semconv.js';
import type { Build } from './library.js';

/** The build's guard pieces the baseline is written with. */
export interface Guards {
  readonly CONTINUE: (typeof Decisions)['CONTINUE'];
  readonly invoke: (typeof HookCall)['invoke'];
  readonly createHookEntry: (typeof HookEntryModule)['createHookEntry'];
  readonly hookArgs: (typeof ReadOnlyArgs)['hookArgs'];
  readonly HookFailed: (typeof VerdictModule)['HookFailed'];
  readonly validate: typeof Validate;
}

/** The guard pieces of the build being measured; undefined for an older build without them (its row is left out). */
export async function loadGuards(build: Build, distDir: string | undefined): Promise<Guards | undefined> {
  if (build === 'src') {
    const [decisions, hookCall, hookEntry, readOnly, validate, verdict] = await Promise.all([
      import('../src/decisions.js'),
      import('../src/runner/hook-call.js'),
      import('../src/runner/hook-entry.js'),
      import('../src/runner/read-only-args.js'),
      import('../src/internal/validate.js'),
      import('../src/runner/verdict.js'),
    ]);
    return guardsOf(decisions, hookCall, hookEntry, readOnly, validate, verdict);
  }
  const dir = distDir === undefined ? new URL('./.dist/', import.meta.url) : new URL(`file://${join(process.cwd(), distDir)}/`);
  const load = async <T>(path: string): Promise<T | undefined> => {
    const url = new URL(`${path}.js`, dir);
    // An older build (`--dist`) may not have a module: its guarded rows are left out.
    return existsSync(fileURLToPath(url)) ? ((await import(url.href)) as T) : undefined;
  };
  const [decisions, hookCall, hookEntry, readOnly, validate, verdict] = await Promise.all([
    load<typeof Decisions>('decisions'),
    load<typeof HookCall>('runner/hook-call'),
    load<typeof HookEntryModule>('runner/hook-entry'),
    load<typeof ReadOnlyArgs>('runner/read-only-args'),
    load<typeof Validate>('internal/validate'),
    load<typeof VerdictModule>('runner/verdict'),
  ]);
  if (decisions === undefined || hookCall === undefined || hookEntry === undefined || readOnly === undefined || validate === undefined || verdict === undefined) return undefined;
  return guardsOf(decisions, hookCall, hookEntry, readOnly, validate, verdict);
}

function guardsOf(
  decisions: typeof Decisions,
  hookCall: typeof HookCall,
  hookEntry: typeof HookEntryModule,
  readOnly: typeof ReadOnlyArgs,
  validate: typeof Validate,
  verdict: typeof VerdictModule,
): Guards | undefined {
  // An older build whose pieces are named otherwise: its guarded rows are left out.
  if (typeof hookCall.invoke !== 'function' || typeof readOnly.hookArgs !== 'function' || typeof verdict.HookFailed !== 'function') return undefined;
  return { CONTINUE: decisions.CONTINUE, invoke: hookCall.invoke, createHookEntry: hookEntry.createHookEntry, hookArgs: readOnly.hookArgs, HookFailed: verdict.HookFailed, validate };
}

/** What the guarded call is given: `executeTool`'s options for this call, with the hooks as the call's own. */
export interface GuardedOptions {
  readonly toolName: string;
  readonly args: ToolArgs;
  readonly execute: (args: ToolArgs, ctx: { toolName: string; attempt: number }) => unknown;
  readonly callId?: string;
}

/** One hook call's input, as the build's `invoke` reads it. */
interface GuardedRun {
  readonly request: PhaseRequest;
  readonly matched: Matched<unknown>;
  readonly args: ToolArgs;
}

/** The options the guarded call takes, checked as `executeTool` checks its own. */
const OPTIONS: ReadonlySet<string> = new Set(['toolName', 'args', 'execute', 'callId']);

/**
 * The guarded call: `call({ toolName, args, execute, callId })` runs `hooks` (which must Continue: this
 * is the baseline of that workload; a hook that fails stands for Continue, as a fail-open hook does) and
 * the tool in one `execute_tool` span started as the library starts it. A hook that decides anything
 * else throws: the baseline has no path for it.
 */
export function guardedDroppedRootSync(guards: Guards, tracer: Tracer, hooks: readonly ToolHook[]): (options: GuardedOptions) => Promise<unknown> {
  const { CONTINUE, invoke, hookArgs, HookFailed } = guards;
  const validate: typeof Validate = guards.validate;
  const entries = hooks.map((hook, index) => guards.createHookEntry(hook, index, { timeoutMs: 0, failureMode: 'open' })) as HookEntry<unknown>[];
  const matched: Matched<unknown> = { entries, matcherErrors: undefined, enforced: true };
  function inSpan(run: GuardedRun, execute: GuardedOptions['execute']): unknown {
    for (const entry of entries) {
      const verdict = invoke(run, entry);
      // A hook that fails is the hook's failure, never the call's: it stands for Continue (fail-open).
      if (verdict !== CONTINUE && !(verdict instanceof HookFailed)) throw new Error('the guarded baseline runs hooks that Continue only');
    }
    return execute(run.args, { toolName: run.request.toolName, attempt: 1 });
  }
  return async function call(options: GuardedOptions): Promise<unknown> {
    validate.requireObject(options, 'call(options)');
    for (const key in options) if (!OPTIONS.has(key)) validate.rejectUnknownOptions(options, OPTIONS, 'call');
    const toolName = options.toolName;
    validate.requireToolName(toolName, 'call: toolName');
    const args = options.args;
    validate.requireArgs(args, 'call: args');
    const execute = options.execute;
    validate.requireFunction(execute, 'call: execute');
    const callId = validate.optionalString(options.callId, 'call: callId');
    const request: PhaseRequest = { phase: 'before_tool', toolName, args, state: undefined, callId, attempt: 1 };
    const run: GuardedRun = { request, matched, args: hookArgs(args, undefined) };
    let span: Span | undefined;
    try {
      span = tracer.startSpan(`execute_tool ${toolName}`, {
        kind: SpanKind.INTERNAL,
        attributes: { [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool', [ATTR_GEN_AI_TOOL_NAME]: toolName, [ATTR_GEN_AI_TOOL_TYPE]: 'function', [ATTR_GEN_AI_TOOL_CALL_ID]: callId },
      });
    } catch {
      span = undefined;
    }
    if (span === undefined) return inSpan(run, execute);
    try {
      return context.with(trace.setSpan(context.active(), span), inSpan, undefined, run, execute);
    } finally {
      try {
        span.end();
      } catch {
        // a tracer's failure never reaches the call
      }
    }
  };
}
