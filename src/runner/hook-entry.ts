/**
 * A registered hook with everything the runner resolves once at construction: its telemetry name,
 * its effective timeout and failure mode, and its tool matcher.
 * @internal
 */
import { typeName, withoutStatefulFlags } from '../internal/describe.js';
import type { FailureMode, HookMode, ToolHook, ToolMatcher } from '../hook.js';
import { HOOK_METHODS, misspeltMember, misspellingError } from './misuse.js';
import { duration, oneOf } from '../internal/validate.js';

export interface HookEntry<S> {
  readonly hook: ToolHook<S>;
  readonly name: string;
  readonly index: number;
  readonly timeoutMs: number;
  readonly failureMode: FailureMode;
  /** `'audit'`: decisions recorded, never in effect; failures never abort. */
  readonly mode: HookMode;
  /** Undefined when the hook applies to every tool. May throw (a user predicate): call through the guard. */
  readonly matches: ((toolName: string) => boolean) | undefined;
}

/** Validates a hook and resolves its settings; throws a TypeError/RangeError that names the problem. */
export function createHookEntry<S>(
  hook: ToolHook<S>,
  index: number,
  defaults: { timeoutMs: number; failureMode: FailureMode },
): HookEntry<S> {
  if (hook === null || typeof hook !== 'object') {
    throw new TypeError(`HookRunner: hook at index ${index} must be an object with beforeTool/afterTool/onError/onEvent methods, got ${typeName(hook)}`);
  }
  const name = hookName(hook, index);
  const where = `HookRunner: hook "${name}" (index ${index})`;
  for (const method of HOOK_METHODS) {
    const value: unknown = hook[method];
    if (value !== undefined && typeof value !== 'function') {
      throw new TypeError(`${where}: ${method} must be a function, got ${typeName(value)}`);
    }
  }
  const misspelt = misspeltMember(hook);
  if (misspelt !== undefined) throw misspellingError(where, misspelt);
  const mode = checkMode(hook.mode, `${where}: mode`);
  const timeoutMs = hook.timeoutMs === undefined ? defaults.timeoutMs : checkTimeout(hook.timeoutMs, `${where}: timeoutMs`);
  const failureMode =
    hook.failureMode === undefined ? defaults.failureMode : checkFailureMode(hook.failureMode, `${where}: failureMode`);
  const matches = compileMatcher(hook.tools, where);
  if (HOOK_METHODS.every((method) => hook[method] === undefined)) {
    throw new TypeError(`${where}: a hook needs at least one of beforeTool, afterTool, onError or onEvent; this one would never run`);
  }
  return { hook, name, index, timeoutMs, failureMode, mode, matches };
}

/** The hook's telemetry name: its `name`, else its constructor's name (not `Object`), else `hook#<index>`. */
function hookName(hook: object, index: number): string {
  const own = (hook as { name?: unknown }).name;
  if (own !== undefined) {
    if (typeof own !== 'string' || own.length === 0) {
      throw new TypeError(`HookRunner: hook at index ${index}: name must be a non-empty string, got ${typeName(own)}`);
    }
    return own;
  }
  const ctor: unknown = Object.getPrototypeOf(hook)?.constructor;
  const ctorName = typeof ctor === 'function' ? ctor.name : '';
  return ctorName !== '' && ctorName !== 'Object' ? ctorName : `hook#${index}`;
}

function compileMatcher(tools: ToolMatcher | undefined, where: string): ((toolName: string) => boolean) | undefined {
  if (tools === undefined) return undefined;
  if (Array.isArray(tools)) {
    const names = new Set<string>();
    for (const name of tools as readonly unknown[]) {
      if (typeof name !== 'string') throw new TypeError(`${where}: tools must hold tool names (strings), got ${typeName(name)}`);
      names.add(name);
    }
    return (toolName) => names.has(toolName);
  }
  if (tools instanceof RegExp) {
    const pattern = withoutStatefulFlags(tools);
    return (toolName) => pattern.test(toolName);
  }
  if (typeof tools === 'function') return (toolName) => Boolean(tools(toolName));
  throw new TypeError(`${where}: tools must be an array of names, a RegExp or a predicate, got ${typeName(tools)}`);
}

/** Validates a timeout in milliseconds (0 = none). */
export function checkTimeout(value: unknown, what: string): number {
  return TIMEOUT(value, what);
}

const TIMEOUT = duration(0);

/** Validates a failure mode. */
export function checkFailureMode(value: unknown, what: string): FailureMode {
  return FAILURE_MODE(value, what);
}

const FAILURE_MODE = oneOf<FailureMode>('open', 'closed');

function checkMode(value: unknown, what: string): HookMode {
  if (value === undefined) return 'enforce';
  if (value === 'enforce' || value === 'audit') return value;
  throw new TypeError(`${what} must be 'enforce' or 'audit', got ${typeof value === 'string' ? JSON.stringify(value) : typeName(value)}`);
}
