/**
 * The user code every scenario shares: one tool, its arguments, and the hook functions. The library
 * scenarios and the hand-written baselines call the very same functions, so the difference between
 * them is the instrumentation alone.
 */
import type { HookDecision, ToolArgs } from '../src/index.js';
import { redirect } from '../src/index.js';

export const TOOL_NAME = 'search';
export const CALL_ID = 'call_0001';
export const ARGS: ToolArgs = Object.freeze({ query: 'opentelemetry hooks', limit: 50 });

/** The tool: asynchronous, as real tools are, and as cheap as possible so that it is the floor. */
export async function tool(args: ToolArgs): Promise<unknown> {
  return { hits: 3, limit: args.limit };
}

/** A hook as plain user code: what both the library and the hand-written baseline call. */
export interface PlainHook {
  readonly name: string;
  /** Tools it applies to; every tool when absent. */
  readonly tools?: readonly string[];
  before(toolName: string, args: ToolArgs): HookDecision | undefined;
}

/** Built once, as a policy would: the decision object is data, not per-call work of the instrumentation. */
const CAP_LIMIT = redirect({ newArgs: { limit: 10 }, reason: 'limit capped at 10' });

/** A policy hook that returns a decision: it redirects the call with a capped `limit`. */
export const capLimit: PlainHook = {
  name: 'cap-limit',
  before: (_toolName, args) => ((args.limit as number) > 10 ? CAP_LIMIT : undefined),
};

/** A hook that looks and lets the call go on (an audit or a cache miss). */
export function passThrough(index: number): PlainHook {
  return { name: `audit-${index}`, before: (_toolName, args) => (args.query === '' ? CAP_LIMIT : undefined) };
}

/** `count` hooks: the decision-making one first, then pass-through ones. */
export function plainHooks(count: number): PlainHook[] {
  const hooks: PlainHook[] = [];
  for (let index = 0; index < count; index += 1) hooks.push(index === 0 ? capLimit : passThrough(index));
  return hooks;
}

/** Hooks that apply to another tool only: the phase invokes none of them. */
export function nonMatchingHooks(count: number): PlainHook[] {
  return plainHooks(count).map((hook) => ({ ...hook, tools: ['other_tool'] }));
}
