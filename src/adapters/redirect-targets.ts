/**
 * The Redirect targets of an adapter (docs/architecture.md, "Redirect targets"): the tools a Redirect's
 * `newTool` may name, and the executor a Redirect to one runs — looked up when a hook names one, never
 * listed per call.
 * @internal
 */
import type { Executor } from '../flows/execute-tool.js';

/** The tools a Redirect's `newTool` may name, and the executor a Redirect to one runs (a call plan's two fields). */
interface RedirectTargets {
  readonly isRedirectTarget: (tool: string) => boolean;
  readonly redirectExecutor: (tool: string) => Executor | undefined;
}

/** An adapter's tools by name: a Map, or a framework's registry looked up by name. */
export type ToolsByName<T> = Pick<ReadonlyMap<string, T>, 'get' | 'has'>;

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
