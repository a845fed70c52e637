/**
 * Values that throw when read, for the tests of what toolhooks does with hostile arguments and results:
 * a Proxy that throws on every trap, a revoked Proxy, a getter that throws what it is given; and the
 * check, after each test that feeds `__proto__` keys, that no object gained the attacker's property.
 */
import { afterEach, expect } from 'vitest';

/** A Proxy whose every trap throws: the handler itself answers every trap name with a thrower. */
export function throwingProxy<T extends object>(target: T): T {
  const handler = new Proxy(
    {},
    {
      get: (_handler, trap) => () => {
        throw new Error(`trap ${String(trap)}`);
      },
    },
  );
  return new Proxy(target, handler);
}

/** A revoked Proxy: every operation on it throws a TypeError. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** An object whose one enumerable property `key` throws `thrown` when read. */
export function throwingGetter(key: string, thrown: unknown): object {
  return Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      throw thrown;
    },
  });
}

/**
 * After each of the calling file's tests, whatever the test did: no object anywhere may have gained
 * `property` (the key the file's hostile `__proto__` / `constructor.prototype` payloads try to set).
 *
 * @example
 * ```ts
 * expectNoPollutionAfterEach('isAdmin');
 * it('keeps __proto__ as data', () => {
 *   const args = JSON.parse('{"__proto__":{"isAdmin":true}}') as ToolArgs;
 *   expect(Object.hasOwn(args, '__proto__')).toBe(true);
 * });
 * ```
 */
export function expectNoPollutionAfterEach(property: string): void {
  afterEach(() => {
    expect(Object.prototype).not.toHaveProperty(property);
    expect(({} as Record<string, unknown>)[property]).toBeUndefined();
  });
}
