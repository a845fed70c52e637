/**
 * The `tools` map an adapter hands to executeTool: the names a Redirect's `newTool` may name,
 * listed when a hook redirects, each resolved to the one executor of the call (which is told the
 * effective tool name). Nothing is built per tool or per call beyond the Proxy. Free of framework
 * imports, so any adapter may use it.
 * @internal
 */
import type { Executor } from '../../index.js';

export function executorsByName(self: string, names: () => Iterable<string>, executor: Executor): Record<string, Executor> {
  let cached: string[] | undefined;
  const list = (): string[] => (cached ??= [...names()].filter((name) => name !== self));
  const known = (key: string | symbol): key is string => typeof key === 'string' && list().includes(key);
  return new Proxy<Record<string, Executor>>(
    {},
    {
      ownKeys: () => list(),
      getOwnPropertyDescriptor: (_target, key) => (known(key) ? { value: executor, enumerable: true, configurable: true, writable: false } : undefined),
      get: (_target, key) => (known(key) ? executor : undefined),
      has: (_target, key) => known(key),
    },
  );
}
