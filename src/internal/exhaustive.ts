/**
 * The default branch of a switch that handles every member of a union: `value` has type `never` there
 * only while every member has its case, so a member added to the union (a new decision kind) fails the
 * type check at each such switch until it is handled. Reached at run time only when the types lie (a
 * value from outside the checked code); it then throws, naming the value.
 * @internal
 * @example
 * ```ts
 * switch (decision.kind) {
 *   case 'continue': return 'allow';
 *   // … one case per kind …
 *   default: return exhaustive(decision, 'decision kind');
 * }
 * ```
 */
export function exhaustive(value: never, what = 'value'): never {
  const kind = typeof value === 'object' && value !== null && 'kind' in value ? (value as { kind: unknown }).kind : value;
  throw new TypeError(`toolhooks: unhandled ${what} ${JSON.stringify(String(kind))}`);
}
