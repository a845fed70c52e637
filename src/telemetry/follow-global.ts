/**
 * Re-fetching what is built from a global OTel provider when the global provider changes, so that a
 * hook built before `startTelemetry()` (or before the app's own SDK registers its providers) still
 * records into the providers registered later.
 * @internal
 */

/**
 * A value built from the current global provider and kept until that provider changes (by identity).
 *
 * @example
 * ```ts
 * const logger = new FollowGlobal(() => logs.getLoggerProvider(), (provider) => provider.getLogger('toolhooks'));
 * logger.get().emit({ body: 'hello' }); // getLogger() runs again only after a new provider is registered
 * ```
 */
export class FollowGlobal<P, T> {
  readonly #current: () => P;
  readonly #build: (provider: P) => T;
  #provider: P | undefined;
  #built: { value: T } | undefined;

  constructor(current: () => P, build: (provider: P) => T) {
    this.#current = current;
    this.#build = build;
  }

  /** The value for the provider registered now; built again when the provider changed since the last call. */
  get(): T {
    const provider = this.#current();
    if (this.#built === undefined || provider !== this.#provider) {
      this.#built = { value: this.#build(provider) };
      this.#provider = provider;
    }
    return this.#built.value;
  }
}
