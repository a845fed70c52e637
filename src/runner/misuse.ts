/**
 * The mistakes users make when wiring hooks, caught at construction instead of silently registering
 * nothing: a hook passed where the runner expects an array or options, misspelt hook members and
 * runner options. The same tables type the public interfaces, so TypeScript rejects the mistakes at
 * compile time too.
 * @internal
 */

/** Hook members people write by mistake, with the member they meant. */
const HOOK_NEAR_MISSES = {
  tool: 'tools',
  toolNames: 'tools',
  timeout: 'timeoutMs',
  failure_mode: 'failureMode',
  failOpen: 'failureMode',
  beforeToolCall: 'beforeTool',
  before_tool: 'beforeTool',
  onBeforeTool: 'beforeTool',
  preToolUse: 'beforeTool',
  afterToolCall: 'afterTool',
  after_tool: 'afterTool',
  onAfterTool: 'afterTool',
  postToolUse: 'afterTool',
  onToolError: 'onError',
  on_error: 'onError',
  onToolEvent: 'onEvent',
  on_event: 'onEvent',
} as const;

/** The near misses as optional `never` members: a hook object that has one does not type-check. */
export type HookNearMisses = { readonly [K in keyof typeof HOOK_NEAR_MISSES]?: never };

/** The members that make an object a hook. */
export const HOOK_METHODS = ['beforeTool', 'afterTool', 'onError', 'onEvent'] as const;

/** Runner option names people write by mistake, with the option they meant. */
export const RUNNER_OPTION_HINTS: Readonly<Record<string, string>> = {
  timeout: 'timeoutMs',
  timeoutMillis: 'timeoutMs',
  failOpen: 'failureMode',
  failure_mode: 'failureMode',
  mode: 'failureMode (or a hook\'s own mode)',
  agent: 'agentName',
};

/** Whether a value looks like a hook object (has any hook method) rather than runner options. */
export function looksLikeHook(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return HOOK_METHODS.some((method) => typeof (value as Record<string, unknown>)[method] === 'function');
}

/** The hook's members that are near misses, checked own and inherited (a class's prototype methods). */
export function nearMissesOf(hook: object): string[] {
  const found: string[] = [];
  for (const key of Object.keys(HOOK_NEAR_MISSES)) {
    if (key in hook) found.push(key);
  }
  return found;
}

/** The TypeError for a near-miss member: names the member and the one meant. */
export function nearMissError(where: string, key: string): TypeError {
  const meant = HOOK_NEAR_MISSES[key as keyof typeof HOOK_NEAR_MISSES];
  return new TypeError(`${where}: unknown member ${JSON.stringify(key)}; did you mean ${JSON.stringify(meant)}?`);
}

/** The TypeError for a hook passed where the runner expects an array of hooks or options. */
export function singleHookError(hook: object): TypeError {
  const name = (hook as { name?: unknown }).name;
  const label = typeof name === 'string' && /^[A-Za-z_$][\w$]*$/.test(name) ? name : 'hook';
  return new TypeError(
    `HookRunner: got a single hook where an array of hooks or an options object belongs; pass [${label}] or { hooks: [${label}] }`,
  );
}
