/**
 * The limit hook: before a call, its cost is taken from the limit's store under the call's key (one
 * atomic step); a call that would exceed the limit is aborted, skipped or asked about. After the call,
 * `costAfter` (and the cost of a call a person approved) is charged. See docs/limits.md.
 */
import { trace } from '@opentelemetry/api';
import { CONTINUE, abort, ask, skip, withDecisionAttributes } from '../decisions.js';
import type { DecisionAttributes, HookDecision } from '../decisions.js';
import type { HookMode, ToolArgs, ToolHook } from '../hook.js';
import { errorMessage, quoteValue } from '../internal/describe.js';
import { REPLAY_COPY } from '../internal/replay-copy.js';
import { anything, func, oneOf, readOptions, string } from '../internal/validate.js';
import { callSync } from '../runner/guard.js';
import { ATTR_LIMIT_LIMIT, ATTR_LIMIT_USED, ATTR_LIMIT_WINDOW_MS } from '../telemetry/semconv.js';
import { MemoryStore, exceeds } from './memory-store.js';
import { namespacedKey } from './store-key.js';
import type { LimitExceeded, LimitHookOptions, LimitStore, LimitTake } from './types.js';

const DEFAULT_NAME = 'limit';
const DEFAULT_MAX_KEYS = 100_000;

/** A limit hook's checked options. */
interface LimitConfig<S> {
  readonly name: string;
  readonly mode: HookMode;
  readonly limit: number;
  readonly windowMs: number | undefined;
  readonly key: ((tool: string, args: ToolArgs, state: S) => string) | undefined;
  readonly cost: ((tool: string, args: ToolArgs, state: S) => number) | undefined;
  readonly costAfter: ((tool: string, args: ToolArgs, result: unknown, state: S) => number) | undefined;
  readonly onExceeded: LimitExceeded;
  readonly store: LimitStore;
  /** The reason of a stopped call: `limit <name>: <limit> per <window> reached`. */
  readonly reason: string;
}

/** What a call this hook stopped in beforeTool leaves for its afterTool (which still fires for a Skip or an Ask). */
interface Stopped {
  /** For an Ask: the key and cost to charge when a person let the call through. */
  readonly asked?: { readonly key: string; readonly cost: number };
}

const UNITS: readonly (readonly [number, string])[] = [
  [86_400_000, 'day'],
  [3_600_000, 'hour'],
  [60_000, 'minute'],
  [1000, 'second'],
];

/** A window as the reason says it: `minute`, `5 minutes`, `1500 ms`. */
export function windowText(windowMs: number): string {
  for (const [size, unit] of UNITS) {
    if (windowMs % size === 0) {
      const count = windowMs / size;
      return count === 1 ? unit : `${count} ${unit}s`;
    }
  }
  return `${windowMs} ms`;
}

/** The sentence a stopped call gets (and the model reads, for a Skip). */
function reasonOf(name: string, limit: number, windowMs: number | undefined): string {
  return windowMs === undefined ? `limit ${name}: ${limit} reached` : `limit ${name}: ${limit} per ${windowText(windowMs)} reached`;
}

/** A number > 0 (calls, or cost units). */
function positive(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${what} must be a finite number > 0, got ${quoteValue(value)}`);
  }
  return value;
}

function limitStore(value: unknown, what: string): LimitStore {
  const store = value as Partial<LimitStore> | null;
  if (typeof store !== 'object' || store === null || typeof store.take !== 'function' || typeof store.charge !== 'function') {
    throw new TypeError(`${what} must be a LimitStore (take and charge methods), such as memoryLimitStore() or redisLimitStore(client); got ${quoteValue(value)}`);
  }
  return value as LimitStore;
}

function readConfig<S>(options: LimitHookOptions<S>): { config: LimitConfig<S>; hook: Pick<ToolHook<S>, 'tools' | 'failureMode'> } {
  if (options === null || typeof options !== 'object') throw new TypeError(`limitHook(options) needs an object with a limit, got ${quoteValue(options)}`);
  const read = readOptions(options, 'limitHook(options)', 'limitHook', {
    name: string,
    tools: anything,
    mode: oneOf('enforce', 'audit'),
    limit: positive,
    windowMs: positive,
    key: func,
    cost: func,
    costAfter: func,
    onExceeded: oneOf('abort', 'skip', 'ask'),
    store: limitStore,
    failureMode: oneOf('open', 'closed'),
  });
  if (read.limit === undefined) throw new TypeError('limitHook(options) needs limit: a finite number > 0 (calls, or cost units)');
  const name = read.name ?? DEFAULT_NAME;
  if (name === '') throw new TypeError('limitHook: name must be a non-empty string, got an empty string');
  const config: LimitConfig<S> = {
    name,
    mode: read.mode ?? 'enforce',
    limit: read.limit,
    windowMs: read.windowMs,
    key: read.key as LimitConfig<S>['key'],
    cost: read.cost as LimitConfig<S>['cost'],
    costAfter: read.costAfter as LimitConfig<S>['costAfter'],
    onExceeded: read.onExceeded ?? 'abort',
    store: read.store ?? new MemoryStore(DEFAULT_MAX_KEYS, () => performance.now()),
    reason: reasonOf(name, read.limit, read.windowMs),
  };
  const hook: { tools?: NonNullable<ToolHook<S>['tools']>; failureMode: 'open' | 'closed' } = { failureMode: read.failureMode ?? 'closed' };
  if (read.tools !== undefined) hook.tools = read.tools as NonNullable<ToolHook<S>['tools']>;
  return { config, hook };
}

/** An error of the limit hook at call time: a hook error (failureMode decides), its message naming the hook. */
function limitError(name: string, problem: string, cause?: unknown): Error {
  return new Error(`limit ${name}: ${problem}`, cause === undefined ? undefined : { cause });
}

/** The running limit: what beforeTool and afterTool do. */
class Limiter<S> {
  /** Calls this hook stopped with a Skip or an Ask, by the frozen arguments object the call's phases share. */
  readonly #stopped = new WeakMap<object, Stopped>();
  readonly #memory: MemoryStore | undefined;
  /** The store keys of the default key (the tool name), made once per tool rather than once per call. */
  readonly #toolKeys = new Map<string, string>();

  constructor(readonly config: LimitConfig<S>) {
    this.#memory = config.store instanceof MemoryStore ? config.store : undefined;
  }

  before(tool: string, args: ToolArgs, state: S): HookDecision | Promise<HookDecision> {
    const config = this.config;
    const key = this.#storeKey(tool, args, state);
    const cost = this.#cost(tool, args, state);
    // Audit counts nothing: a take of 0 only reads what is counted.
    const take = config.mode === 'audit' ? 0 : cost;
    const memory = this.#memory;
    if (memory !== undefined) return this.#decide(args, key, cost, memory.takeNow(key, take, config.limit, config.windowMs));
    let pending: Promise<LimitTake>;
    try {
      pending = config.store.take(key, take, config.limit, config.windowMs);
    } catch (error) {
      return Promise.reject(this.#storeError('take', error));
    }
    // One reaction for both outcomes: the store's round trip is the call's cost, and nothing should add to it.
    return Promise.resolve(pending).then(
      (answer) => this.#decide(args, key, cost, checkTake(config, answer)),
      (error: unknown) => Promise.reject(this.#storeError('take', error)),
    );
  }

  after(tool: string, args: ToolArgs, result: unknown, state: S): HookDecision | Promise<HookDecision> {
    const config = this.config;
    const stopped = this.#stopped.get(args);
    let charge = 0;
    let key: string | undefined;
    if (stopped !== undefined) {
      this.#stopped.delete(args);
      // Skipped, or asked and denied: the tool never ran, nothing to charge.
      if (stopped.asked === undefined || isDenial(result)) return CONTINUE;
      // A person let the call through: it is taken (it counts).
      charge = stopped.asked.cost;
      key = stopped.asked.key;
    }
    if (config.costAfter !== undefined) charge += this.#costAfter(tool, args, result, state);
    if (charge === 0) return CONTINUE;
    key ??= this.#storeKey(tool, args, state);
    const memory = this.#memory;
    const charged = key;
    if (memory !== undefined) return this.#charged(memory.chargeNow(charged, charge, config.windowMs));
    let pending: Promise<number>;
    try {
      pending = config.store.charge(charged, charge, config.windowMs);
    } catch (error) {
      return Promise.reject(this.#storeError('charge', error));
    }
    return Promise.resolve(pending).then(
      (used) => this.#charged(checkUsed(config, used)),
      (error: unknown) => Promise.reject(this.#storeError('charge', error)),
    );
  }

  #decide(args: ToolArgs, key: string, cost: number, answer: LimitTake): HookDecision {
    const config = this.config;
    const audit = config.mode === 'audit';
    const stopped = audit ? exceeds(answer.used, cost, config.limit) : !answer.allowed;
    const used = audit && !stopped ? answer.used + cost : answer.used;
    if (!stopped) return this.#charged(used);
    const attributes = this.#attributes(used);
    switch (config.onExceeded) {
      case 'abort':
        return withDecisionAttributes(abort(config.reason), attributes);
      case 'skip':
        if (!audit) this.#stopped.set(args, {});
        return withDecisionAttributes(skip(config.reason, config.reason), attributes);
      case 'ask':
        if (!audit) this.#stopped.set(args, { asked: { key, cost } });
        return withDecisionAttributes(ask(config.reason), attributes);
    }
  }

  /**
   * A Continue with the count on its decision event. Only a recording phase span writes that event (and
   * observers count stopped calls only), so without one the shared CONTINUE is returned: no object per call.
   */
  #charged(used: number): HookDecision {
    return trace.getActiveSpan()?.isRecording() === true ? withDecisionAttributes(CONTINUE, this.#attributes(used)) : CONTINUE;
  }

  /** The limit's attributes on a decision event: never the key (usually a user or session id). */
  #attributes(used: number): DecisionAttributes {
    const { limit, windowMs } = this.config;
    return windowMs === undefined
      ? { [ATTR_LIMIT_USED]: used, [ATTR_LIMIT_LIMIT]: limit }
      : { [ATTR_LIMIT_USED]: used, [ATTR_LIMIT_LIMIT]: limit, [ATTR_LIMIT_WINDOW_MS]: windowMs };
  }

  /** The key the store counts under: the hook's name and the call's key. */
  #storeKey(tool: string, args: ToolArgs, state: S): string {
    if (this.config.key !== undefined) return namespacedKey(this.config.name, this.#key(tool, args, state));
    let key = this.#toolKeys.get(tool);
    if (key === undefined) {
      // Tool names are few; a matcher-less hook fed endless names starts its cache again rather than grow.
      if (this.#toolKeys.size >= 1024) this.#toolKeys.clear();
      key = namespacedKey(this.config.name, tool);
      this.#toolKeys.set(tool, key);
    }
    return key;
  }

  #key(tool: string, args: ToolArgs, state: S): string {
    const keyOf = this.config.key;
    if (keyOf === undefined) return tool;
    const called = callSync(() => keyOf(tool, args, state));
    if (!called.ok) throw limitError(this.config.name, `key threw: ${errorMessage(called.error)}`, called.error);
    if (typeof called.value !== 'string') throw limitError(this.config.name, `key must return a string, got ${quoteValue(called.value)}`);
    return called.value;
  }

  #cost(tool: string, args: ToolArgs, state: S): number {
    const costOf = this.config.cost;
    if (costOf === undefined) return this.config.costAfter === undefined ? 1 : 0;
    return checkCost(this.config.name, 'cost', callSync(() => costOf(tool, args, state)));
  }

  #costAfter(tool: string, args: ToolArgs, result: unknown, state: S): number {
    const costAfter = this.config.costAfter as NonNullable<LimitConfig<S>['costAfter']>;
    return checkCost(this.config.name, 'costAfter', callSync(() => costAfter(tool, args, result, state)));
  }

  /** What a store threw or rejected with, as an error naming the store and the cause. */
  #storeError(op: 'take' | 'charge', error: unknown): Error {
    return limitError(this.config.name, `limit store ${storeName(this.config.store)} failed to ${op}: ${errorMessage(error)}`, error);
  }
}

function storeName(store: LimitStore): string {
  return typeof store.name === 'string' && store.name !== '' ? store.name : 'store';
}

function checkCost(name: string, what: string, called: { ok: true; value: number } | { ok: false; error: unknown }): number {
  if (!called.ok) throw limitError(name, `${what} threw: ${errorMessage(called.error)}`, called.error);
  const cost: unknown = called.value;
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
    throw limitError(name, `${what} must return a finite number >= 0, got ${quoteValue(cost)}`);
  }
  return cost;
}

function checkTake<S>(config: LimitConfig<S>, answer: unknown): LimitTake {
  const take = answer as Partial<LimitTake> | null;
  if (typeof take === 'object' && take !== null && typeof take.allowed === 'boolean' && typeof take.used === 'number' && Number.isFinite(take.used)) {
    return { allowed: take.allowed, used: take.used };
  }
  throw limitError(config.name, `limit store ${storeName(config.store)} answered take with ${quoteValue(answer)}, not { allowed, used }`);
}

function checkUsed<S>(config: LimitConfig<S>, used: unknown): number {
  if (typeof used === 'number' && Number.isFinite(used)) return used;
  throw limitError(config.name, `limit store ${storeName(config.store)} answered charge with ${quoteValue(used)}, not a number`);
}

/** Whether an afterTool result is the flow's denial of an Ask (the tool never ran). */
function isDenial(result: unknown): boolean {
  return typeof result === 'string' && result.startsWith('Tool call denied: ');
}

/**
 * A hook that limits tool calls: at most `limit` calls (or cost units) per key, in any `windowMs`
 * (sliding) or ever. Check and take are one atomic step of the store, so the limit holds across every
 * process sharing it (`redisLimitStore`). A call that would exceed the limit is aborted (default),
 * skipped (the model reads the reason as the tool's result) or asked about (`onExceeded`); the reason
 * says which limit: `limit send_email: 3 reached`, `limit search: 20 per minute reached`.
 *
 * Its decision events carry `toolhooks.limit.used`, `toolhooks.limit.limit` and
 * `toolhooks.limit.window_ms`; the key is never recorded. In audit mode it counts nothing and records
 * what it would have decided. A key or cost function that throws or returns junk, and a store that
 * fails, are hook errors: `failureMode` (default `'closed'`) decides, never a silently unlimited call.
 *
 * @throws TypeError for a bad option (a limit that is not a number > 0, a negative window, a key that is
 * not a function…), naming it.
 * @example
 * ```ts
 * const emails = limitHook({
 *   name: 'send_email', tools: ['send_email'], limit: 3,
 *   key: (_tool, _args, state: { conversationId: string }) => state.conversationId,
 * });
 * const runner = new HookRunner({ hooks: [emails] });
 * ```
 */
export function limitHook<S = unknown>(options: LimitHookOptions<S>): ToolHook<S> {
  const { config, hook } = readConfig(options);
  return buildHook(config, hook);
}

function buildHook<S>(config: LimitConfig<S>, shape: Pick<ToolHook<S>, 'tools' | 'failureMode'>): ToolHook<S> {
  const limiter = new Limiter<S>(config);
  const hook: {
    -readonly [K in 'name' | 'mode' | 'tools' | 'failureMode' | 'beforeTool' | 'afterTool']?: ToolHook<S>[K];
  } & { [REPLAY_COPY]: (now: () => number) => ToolHook<S> } = {
    name: config.name,
    ...shape,
    beforeTool: (tool, args, state) => limiter.before(tool, args, state),
    // A fresh memory store on the replay's clock: a replay is deterministic and never counts in the live store.
    [REPLAY_COPY]: (now) => buildHook({ ...config, store: new MemoryStore(Number.MAX_SAFE_INTEGER, now) }, shape),
  };
  if (config.mode === 'audit') hook.mode = 'audit';
  // afterTool only when it has something to charge: every other limit costs one phase per call.
  else if (config.costAfter !== undefined || config.onExceeded === 'ask') {
    hook.afterTool = (tool, args, result, state) => limiter.after(tool, args, result, state);
  }
  return hook as ToolHook<S>;
}
