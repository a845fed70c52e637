/**
 * Class identity across the package's two builds. An app may load both the ESM and the CommonJS build
 * (an ESM app with a CommonJS dependency that requires toolhooks): each build has its own classes, so a
 * plain `instanceof` would fail for an error made by the other one, and a `catch` that tests
 * `error instanceof HookAbortError` would swallow an abort silently. A branded class answers
 * `instanceof` by a registry symbol both builds share (`Symbol.for`), carried on its prototype; state that
 * must be one per process (not one per build) lives on a global slot named the same way.
 * @internal
 */

/**
 * Makes `instanceof cls` hold for any instance of the class of that name from either build (and their
 * subclasses). A subclass keeps the ordinary `instanceof` for itself. Reading the brand never throws: a
 * thrown Proxy with hostile traps is simply not an instance.
 *
 * @example
 * ```ts
 * export class HookAbortError extends Error {
 *   static {
 *     brandAcrossBuilds(this, 'HookAbortError');
 *   }
 * }
 * ```
 */
export function brandAcrossBuilds(cls: abstract new (...args: never[]) => object, name: string): void {
  const brand = Symbol.for(`toolhooks.class.${name}`);
  Object.defineProperty(cls.prototype, brand, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      if (this !== cls) return ordinaryInstanceOf(this, value);
      return hasBrand(value, brand);
    },
  });
}

function hasBrand(value: unknown, brand: symbol): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  try {
    return (value as Record<symbol, unknown>)[brand] === true;
  } catch {
    return false;
  }
}

function ordinaryInstanceOf(target: unknown, value: unknown): boolean {
  try {
    return typeof target === 'function' && (Function.prototype[Symbol.hasInstance] as (this: unknown, value: unknown) => boolean).call(target, value);
  } catch {
    return false;
  }
}

/**
 * The process-wide value named `name`, made by `create` the first time either build asks for it: state that
 * both builds must share (which runner has which core, which hook names were warned about).
 *
 * @example
 * ```ts
 * const warned = processWide('toolhooks.hook-failure-warned', () => new Set<string>());
 * ```
 */
export function processWide<T extends object>(name: string, create: () => T): T {
  const slots = globalThis as Record<symbol, unknown>;
  const slot = Symbol.for(name);
  const existing = slots[slot];
  if (typeof existing === 'object' && existing !== null) return existing as T;
  const created = create();
  slots[slot] = created;
  return created;
}
