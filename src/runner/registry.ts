/**
 * Which core each HookRunner has: how a flow or an adapter, given a runner, reaches its compiled
 * configuration. One map for the package's ESM and CommonJS builds (both may be loaded in one process),
 * so either build's flows accept either build's HookRunner.
 * @internal
 */
import { processWide } from '../internal/brand.js';
import { typeName } from '../internal/describe.js';
import { VERSION } from '../version.js';
import type { RunnerCore } from './core.js';

/** Named for this version: another version of the package keeps its own (its core may differ). */
const cores = processWide(`toolhooks.runner-cores@${VERSION}`, () => new WeakMap<object, RunnerCore<never>>());

/** Links a runner to its core. */
export function attachCore<S>(runner: object, core: RunnerCore<S>): void {
  cores.set(runner, core as RunnerCore<never>);
}

/** The core of a runner; a TypeError naming `hooks` for anything that is not a runner. */
export function runnerCore<S = unknown>(runner: unknown, where: string): RunnerCore<S> {
  const found = typeof runner === 'object' && runner !== null ? cores.get(runner) : undefined;
  if (found === undefined) {
    const hint = Array.isArray(runner) ? ' (wrap it: new HookRunner(hooks))' : '';
    throw new TypeError(`${where}: hooks must be a HookRunner (new HookRunner([...hooks]) from 'toolhooks'), got ${typeName(runner)}${hint}`);
  }
  return found as unknown as RunnerCore<S>;
}
