/**
 * The user code every scenario shares: one tool, its arguments, and the hook functions. The library
 * scenarios and the hand-written baselines call the very same functions, so the difference between
 * them is the instrumentation alone.
 */
import type { HookDecision, ToolArgs } from '../src/index.js';

export const TOOL_NAME = 'search';
export const CALL_ID = 'call_0001';
export const ARGS: ToolArgs = Object.freeze({ query: 'opentelemetry hooks', limit: 50 });

/**
 * Larger arguments, as an agent's richer tools take (about 1.2 KB of JSON: 12 keys, two levels of
 * objects, an array of 10 objects): the hooks' read-only copy of the arguments grows with them.
 */
export const NESTED_ARGS: ToolArgs = {
  query: 'opentelemetry hooks',
  limit: 50,
  filters: Array.from({ length: 10 }, (_, index) => ({ field: `field_${index}`, op: 'eq', value: `value ${index}` })),
  sort: { by: 'relevance', order: 'desc' },
  page: { size: 20, cursor: 'eyJvZmZzZXQiOjIwfQ' },
  options: { highlight: true, fuzzy: false, lang: 'en', region: { country: 'DE', city: 'Berlin' } },
  user: 'u-1',
  session: 's-1',
  source: 'agent',
  trace: false,
  tags: ['a', 'b', 'c'],
  note: 'nested arguments scenario',
};

/** The tool: asynchronous, as real tools are, and as cheap as possible so that it is the floor. */
export async function tool(args: ToolArgs): Promise<unknown> {
  return { hits: 3, limit: args.limit };
}

/**
 * The same tool, synchronous: it returns its result rather than a promise, as many tools do (a lookup,
 * a computation). The commonest call there is pairs it with hooks that let the call go on.
 */
export function syncTool(args: ToolArgs): unknown {
  return { hits: 3, limit: args.limit };
}

/** A hook as plain user code: what both the library and the hand-written baseline call. */
export interface PlainHook {
  readonly name: string;
  /** Tools it applies to; every tool when absent. */
  readonly tools?: readonly string[];
  before(toolName: string, args: ToolArgs): HookDecision | undefined;
}

/**
 * `count` hooks: first a policy that redirects the call with a capped `limit` (returning `capLimit`,
 * built once with the library's `redirect()` as a policy would: the decision is data, not per-call
 * work of the instrumentation), then hooks that look and let the call go on (audits, cache misses).
 */
export function plainHooks(count: number, capLimit: HookDecision): PlainHook[] {
  const hooks: PlainHook[] = [];
  for (let index = 0; index < count; index += 1) {
    hooks.push(
      index === 0
        ? { name: 'cap-limit', before: (_toolName, args) => ((args.limit as number) > 10 ? capLimit : undefined) }
        : { name: `audit-${index}`, before: (_toolName, args) => (args.query === '' ? capLimit : undefined) },
    );
  }
  return hooks;
}

/**
 * `count` hooks that look at the call and let it go on (audits, cache misses): each returns nothing
 * for the benchmark's arguments, so the phase's decision is Continue.
 */
export function continueHooks(count: number, capLimit: HookDecision): PlainHook[] {
  const hooks: PlainHook[] = [];
  for (let index = 0; index < count; index += 1) {
    hooks.push({ name: `audit-${index}`, before: (_toolName, args) => (args.query === '' ? capLimit : undefined) });
  }
  return hooks;
}

/** Hooks that apply to another tool only: the phase invokes none of them. */
export function nonMatchingHooks(count: number, capLimit: HookDecision): PlainHook[] {
  return plainHooks(count, capLimit).map((hook) => ({ ...hook, tools: ['other_tool'] }));
}
