/**
 * The mistakes users make when wiring hooks, caught at construction instead of silently registering
 * nothing: a hook passed where the runner expects an array or options, misspelt hook members and
 * runner options. A misspelling is found by edit distance, and counts only when the member's value would
 * be valid for the member meant: any other member is the hook's own state. The common misspellings type
 * the public interface too, so TypeScript rejects them at compile time as far as it can.
 * @internal
 */
import { spellingDistance } from '../internal/validate.js';

/** The members that make an object a hook. */
export const HOOK_METHODS = ['beforeTool', 'afterTool', 'onError', 'onEvent'] as const;

type HookMethod = (typeof HOOK_METHODS)[number];

/** The hook options a misspelt member may have been meant as, each with the values it accepts. */
const HOOK_OPTIONS = {
  tools: isMatcher,
  timeoutMs: (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
  failureMode: (value: unknown) => value === 'open' || value === 'closed',
  mode: (value: unknown) => value === 'enforce' || value === 'audit',
} as const;

type HookOption = keyof typeof HOOK_OPTIONS;

/** Every member a hook may have with a meaning of its own; all others are the hook's own state. */
const HOOK_MEMBERS: ReadonlySet<string> = new Set<string>(['name', ...HOOK_METHODS, ...Object.keys(HOOK_OPTIONS)]);

/**
 * Names from other frameworks' hook APIs, too far from ours for the edit distance to find, with the
 * member meant. Checked like misspellings: only a value that would be valid for the meant member counts.
 */
const ALIASES: Readonly<Record<string, HookMethod | HookOption | 'failOpen'>> = {
  beforeToolCall: 'beforeTool',
  preToolUse: 'beforeTool',
  afterToolCall: 'afterTool',
  postToolUse: 'afterTool',
  onToolError: 'onError',
  onToolEvent: 'onEvent',
  toolNames: 'tools',
  failOpen: 'failOpen',
};

/** How far (ignoring case, `_` and `-`) a member may be from a hook member to count as a misspelling of it. */
const MAX_DISTANCE = 2;

/** Whether a value looks like a hook object (has any hook method) rather than runner options. */
export function looksLikeHook(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return HOOK_METHODS.some((method) => typeof (value as Record<string, unknown>)[method] === 'function');
}

/** A member that is a misspelling of a hook member, and the member meant. */
interface Misspelling {
  readonly member: string;
  readonly meant: string;
}

/**
 * The hook's first misspelt member, own or inherited (a class's prototype methods), or undefined. A member
 * is misspelt when it is within edit distance 2 of a hook member (case, `_` and `-` ignored) and its value
 * would be valid there: a function near a hook method, a valid option value near that option. Any other
 * member is the hook's own state (`constructor(private tool: string)` is a redirect target, not `tools`).
 */
export function misspeltMember(hook: object): Misspelling | undefined {
  for (const [member, value] of membersOf(hook)) {
    if (HOOK_MEMBERS.has(member)) continue;
    const meant = meantMember(member, value);
    if (meant !== undefined) return { member, meant };
  }
  return undefined;
}

function meantMember(member: string, value: unknown): string | undefined {
  const alias = ALIASES[member];
  if (alias !== undefined && Object.prototype.hasOwnProperty.call(ALIASES, member)) {
    if (alias === 'failOpen') return typeof value === 'boolean' ? 'failureMode' : undefined;
    return validFor(alias, value) ? alias : undefined;
  }
  let best: string | undefined;
  let bestDistance = MAX_DISTANCE + 1;
  for (const name of HOOK_MEMBERS) {
    if (name === 'name' || !validFor(name as HookMethod | HookOption, value)) continue;
    const distance = spellingDistance(member, name, bestDistance);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

function validFor(name: HookMethod | HookOption, value: unknown): boolean {
  return Object.prototype.hasOwnProperty.call(HOOK_OPTIONS, name) ? HOOK_OPTIONS[name as HookOption](value) : typeof value === 'function';
}

function isMatcher(value: unknown): boolean {
  if (typeof value === 'function' || value instanceof RegExp) return true;
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * The hook's data members and methods, own first, then each prototype's up to (not including)
 * `Object.prototype`. Accessors are not called (a getter is the hook's own business), and a hook whose
 * members cannot be listed (a Proxy whose traps throw) is not checked.
 */
function membersOf(hook: object): [string, unknown][] {
  const members: [string, unknown][] = [];
  try {
    const seen = new Set<string>();
    for (let level: object | null = hook; level !== null && level !== Object.prototype; level = Object.getPrototypeOf(level) as object | null) {
      for (const key of Object.getOwnPropertyNames(level)) {
        if (key === 'constructor' || seen.has(key)) continue;
        seen.add(key);
        const descriptor = Object.getOwnPropertyDescriptor(level, key);
        if (descriptor !== undefined && 'value' in descriptor) members.push([key, descriptor.value]);
      }
    }
  } catch {
    // a hostile hook: nothing more can be listed safely
  }
  return members;
}

/** The TypeError for a misspelt member: names the member and the one meant. */
export function misspellingError(where: string, found: Misspelling): TypeError {
  return new TypeError(`${where}: unknown member ${JSON.stringify(found.member)}; did you mean ${JSON.stringify(found.meant)}?`);
}

/** Runner option names people write by mistake, with the option they meant. */
export const RUNNER_OPTION_HINTS: Readonly<Record<string, string>> = {
  timeout: 'timeoutMs',
  timeoutMillis: 'timeoutMs',
  failOpen: 'failureMode',
  failure_mode: 'failureMode',
  mode: 'failureMode (or a hook\'s own mode)',
  agent: 'agentName',
};

/** The TypeError for a hook passed where the runner expects an array of hooks or options. */
export function singleHookError(hook: object): TypeError {
  const name = (hook as { name?: unknown }).name;
  const label = typeof name === 'string' && /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'hook';
  return new TypeError(
    `HookRunner: got a single hook where an array of hooks or an options object belongs; pass [${label}] or { hooks: [${label}] }`,
  );
}
