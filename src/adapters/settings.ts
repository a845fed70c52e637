/**
 * An adapter's settings: the runner and the options every adapter shares (`AdapterOptions`), checked
 * once when the adapter is built, each error naming the parameter and the fix.
 * @internal
 */
import { quoteValue, typeName } from '../internal/describe.js';
import type { RunnerCore } from '../runner/core.js';
import { runnerCore } from '../runner/registry.js';
import { optionalCount, rejectUnknownOptions } from '../internal/validate.js';

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

/** Whether a value is a HookRunner (an adapter that takes `(runner, options)` names a runner passed as its options). */
export function isHookRunner(value: unknown, where: string): boolean {
  try {
    runnerCore(value, where);
    return true;
  } catch {
    return false;
  }
}

/** The executeTool limits an adapter forwards, checked once when the adapter is built. */
export interface CallLimits {
  readonly maxRetries: number;
  readonly maxReexecutions: number;
}

/**
 * What every call through one adapter shares: the runner's core, the hooks' state, the flow limits and
 * its framework approval flow. An adapter's own settings extend it.
 */
export interface AdapterSettings<S, A> {
  readonly core: RunnerCore<S>;
  readonly state: S | undefined;
  readonly limits: CallLimits;
  /** The framework's approval flow (`approvals: 'framework'`); undefined with the runner's approver. */
  readonly approvals: A | undefined;
}

/** The settings of an adapter built on `core` with the options `raw` (already checked by {@link requireOptionsObject}). */
export function adapterSettings<S, A>(core: RunnerCore<S>, raw: Record<string, unknown>, where: string, approvals: A | undefined): AdapterSettings<S, A> {
  return { core, state: raw.state as S | undefined, limits: readLimits(raw, where), approvals };
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
