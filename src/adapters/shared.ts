/**
 * What both framework adapters need: argument checks that name the parameter, and the optional
 * executeTool settings they forward.
 * @internal
 */
import { quoteValue, typeName } from '../internal/describe.js';
import type { RunnerCore } from '../runner/core.js';
import { runnerCore } from '../runner/registry.js';
import { optionalCount, rejectUnknownOptions } from '../internal/validate.js';
import type { CallPlan, Executor } from '../flows/execute-tool.js';
import type { CallSpec } from '../flows/call-spec.js';
import { isPlainObject } from '../decisions.js';
import type { ToolArgs } from '../hook.js';

/** The runner's internals; a TypeError naming `runner` for anything that is not a HookRunner. */
export function requireRunner<S = unknown>(runner: unknown, where: string): RunnerCore<S> {
  try {
    return runnerCore<S>(runner, where);
  } catch {
    throw new TypeError(
      `${where}: runner must be a HookRunner (new HookRunner([...hooks]) from 'toolhooks'), got ${typeName(runner)}`,
    );
  }
}

/** The executeTool limits an adapter forwards, checked once when the adapter is built. */
export interface CallLimits {
  readonly maxRetries: number;
  readonly maxReexecutions: number;
}

/** What every call of one hooked tool set shares: the runner's core, the hooks' state, the flow limits and its approval flow. */
export interface HookedSetSettings<S, A> {
  readonly core: RunnerCore<S>;
  readonly state: S | undefined;
  readonly limits: CallLimits;
  /** The framework's approval flow (`approvals: 'framework'`); undefined with the runner's approver. */
  readonly approvals: A | undefined;
}

export function readLimits(options: { maxRetries?: unknown; maxReexecutions?: unknown }, where: string): CallLimits {
  return {
    maxRetries: optionalCount(options.maxRetries, 1, `${where}: options.maxRetries`),
    maxReexecutions: optionalCount(options.maxReexecutions, 1, `${where}: options.maxReexecutions`),
  };
}

/** Checks an optional options object; an option the adapter does not know is a TypeError naming it. */
export function requireOptionsObject(value: unknown, where: string, known: readonly string[]): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new TypeError(`${where}: options must be an object, got ${typeName(value)}`);
  }
  rejectUnknownOptions(value, known, `${where}: options`);
  return value as Record<string, unknown>;
}

export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/**
 * A tool call's arguments (or input) as JSON, for telling two calls apart; undefined when they have none
 * (`undefined`, a cycle, a BigInt, a getter that throws). Never throws.
 */
export function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** JSON text of a value for a model or a protocol message; never throws. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    try {
      return String(value);
    } catch {
      return '';
    }
  }
}

/** The tools a Redirect's `newTool` may name, and the executor a Redirect to one runs (a call plan's two fields). */
interface RedirectTargets {
  readonly isRedirectTarget: (tool: string) => boolean;
  readonly redirectExecutor: (tool: string) => Executor | undefined;
}

/**
 * Redirect targets for an adapter whose one executor runs any of the agent's tools (it is told the
 * effective tool name): the names are listed once, when a hook first names one, never per call.
 */
export function redirectTargetsSharing(
  self: string,
  names: () => Iterable<string>,
  executor: Executor,
): RedirectTargets {
  let known: Set<string> | undefined;
  const isRedirectTarget = (name: string): boolean => name !== self && (known ??= new Set(names())).has(name);
  return { isRedirectTarget, redirectExecutor: (name) => (isRedirectTarget(name) ? executor : undefined) };
}

/**
 * A copy of a framework's tool object (same prototype, every own property — symbol keys too — as it
 * was) with one property replaced: the hooked function.
 */
export function copyWith(tool: object, key: string, value: unknown): object {
  const copy = Object.create(Object.getPrototypeOf(tool) as object | null, Object.getOwnPropertyDescriptors(tool)) as object;
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** An adapter's tools by name: a Map, or a framework's registry looked up by name. */
export type ToolsByName<T> = Pick<ReadonlyMap<string, T>, 'get' | 'has'>;

/**
 * Redirect targets among the tools an adapter wrapped, by name: `newTool` runs the named tool's own
 * function through `executorOf`. Looked up when a hook names one, never listed per call.
 */
export function redirectTargetsAmong<T>(
  tools: ToolsByName<T>,
  executorOf: (target: T) => Executor,
): RedirectTargets {
  return {
    redirectExecutor: (name) => {
      const target = tools.get(name);
      return target === undefined ? undefined : executorOf(target);
    },
    isRedirectTarget: (name) => tools.has(name),
  };
}

/** What a call through a hooked tool set brings of its own: the tool, its input and the framework's call details. */
type SetCall = Pick<CallSpec<unknown>, 'toolName' | 'args' | 'callId' | 'toolDescription' | 'signal' | 'handoff' | 'before' | 'span'>;

/**
 * The plan of one call through a hooked tool set: the set's runner, hooks' state and limits, `tool`
 * run through `executorOf`, and the set's other tools as Redirect targets (run the same way).
 */
export function setCallPlan<S, T>(
  settings: Pick<HookedSetSettings<S, unknown>, 'core' | 'state' | 'limits'>,
  tools: ToolsByName<T>,
  tool: T,
  executorOf: (target: T) => Executor,
  call: SetCall,
): CallPlan<S> {
  return {
    ...call,
    core: settings.core,
    state: settings.state as S,
    execute: executorOf(tool),
    ...redirectTargetsAmong(tools, executorOf),
    ...settings.limits,
  };
}

/**
 * A tools record (tools by name) with each tool `hook` returns a replacement for replaced, the others
 * kept as they are. `defineProperty` keeps a tool named `__proto__` an ordinary key.
 */
export function mapToolRecord(tools: object, hook: (name: string, tool: object) => object | undefined): Record<string, unknown> {
  const hooked: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools as Record<string, object>)) {
    const value = hook(name, tool) ?? tool;
    Object.defineProperty(hooked, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return hooked;
}

/**
 * The `approvals` option of the adapters that can hand an Ask to their framework: `'runner'` (the
 * default: the runner's `approver` decides inside the call) or `'framework'`; anything else is a
 * TypeError naming the option.
 */
export function readApprovalsMode(value: unknown, where: string): 'runner' | 'framework' {
  if (value === undefined || value === 'runner') return 'runner';
  if (value === 'framework') return 'framework';
  throw new TypeError(`${where}: options.approvals must be 'runner' or 'framework', got ${quoteValue(value)}`);
}

/**
 * A tool call's arguments read once: a plain copy (each getter or Proxy trap read one time), so hooks and the
 * tool see the same values. Values JSON cannot hold are kept by reference one level down.
 */
export function argsSnapshot(args: unknown): ToolArgs {
  if (args === null || typeof args !== 'object') return {};
  try {
    const copy: unknown = JSON.parse(JSON.stringify(args));
    if (isPlainObject(copy)) return copy;
  } catch {
    // a BigInt, a cycle: a shallow copy below
  }
  try {
    return { ...(args as ToolArgs) };
  } catch {
    return {};
  }
}
