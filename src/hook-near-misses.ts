/**
 * The common misspellings of a hook's members, in the types: {@link ToolHook} extends
 * {@link HookNearMisses}, so TypeScript rejects `beforeToolCall`, `preToolUse`, `failuremode`, `timeout_ms`…
 * on a class instance or a variable as well as on a fresh object literal. The runner finds the same
 * mistakes, and those the types cannot say, at run time (src/runner/misuse.ts).
 */

/** The members that make an object a hook (the runner's HOOK_METHODS). */
type HookMethod = 'beforeTool' | 'afterTool' | 'onError' | 'onEvent';

/*
 * The same misspellings in the types, as far as TypeScript can say them. A fresh object literal already
 * gets every unknown member rejected (excess property checks). For a class instance or a variable, the
 * common misspellings below are declared with the types a valid value cannot have: TypeScript cannot
 * compute edit distances or negate a string literal, so a misspelt option near `failureMode`/`mode`
 * rejects every string, one near `tools` every array, RegExp and function, and misspellings outside
 * these variants are found at run time only. `tool` and `timeout` are left out: a private member of
 * either name is common state (a redirect target, a timer), and a private member conflicts with any
 * interface member of its name whatever its type.
 */
type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Uppercase<H> ? `_${Lowercase<H>}` : H}${Snake<T>}` : S;
type Kebab<S extends string> = S extends `${infer A}_${infer B}` ? `${A}-${Kebab<B>}` : S;
type Variants<M extends string> = Lowercase<M> | Capitalize<M> | Snake<M> | Kebab<Snake<M>>;
type Primitive = string | number | boolean | bigint | symbol | null | undefined;
type NotAFunction = Primitive | (object & { readonly apply?: never });
type NotAMatcher = Primitive | (object & { readonly apply?: never; readonly exec?: never; readonly length?: never });
type NotANumber = Exclude<Primitive, number> | object;
type NotAString = Exclude<Primitive, string> | object;
type NotABoolean = Exclude<Primitive, boolean> | object;
type MethodMisspellings = Exclude<Variants<HookMethod> | `${HookMethod}s`, HookMethod> | 'beforeToolCall' | 'preToolUse' | 'afterToolCall' | 'postToolUse' | 'onToolError' | 'onToolEvent';

/**
 * The common misspellings of hook members, typed so that a value valid for the member meant does not
 * type-check: {@link ToolHook} extends it.
 *
 * @example
 * ```ts
 * class Audit implements ToolHook {
 *   beforeToolCall() {} // error: a function is not assignable to the misspelling's type
 * }
 * ```
 */
export type HookNearMisses = { readonly [K in MethodMisspellings]?: NotAFunction } & {
  readonly [K in Exclude<Variants<'tools'>, 'tools'> | 'toolNames']?: NotAMatcher;
} & { readonly [K in Exclude<Variants<'timeoutMs'>, 'timeoutMs'> | 'timeoutMS']?: NotANumber } & {
  readonly [K in Exclude<Variants<'failureMode' | 'mode'>, 'failureMode' | 'mode'>]?: NotAString;
} & { readonly failOpen?: NotABoolean };
