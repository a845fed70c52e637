/**
 * Copies of a framework's tool objects with the hooked function in place of the tool's own, the
 * originals left as they were.
 * @internal
 */

/**
 * A copy of a framework's tool object (same prototype, every own property — symbol keys too — as it
 * was) with one property replaced: the hooked function.
 */
export function copyWith(tool: object, key: string, value: unknown): object {
  const copy = Object.create(Object.getPrototypeOf(tool) as object | null, Object.getOwnPropertyDescriptors(tool)) as object;
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
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
