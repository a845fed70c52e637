/**
 * What hooks are given as a call's arguments: a frozen copy, never the caller's object. A hook that
 * edited the object it was given would change what the tool runs with after the gates approved the
 * original, keep its edit after it threw, change the caller's object, and make the captured arguments
 * differ from what the tool got; its only way to change the arguments is a Redirect. In strict mode
 * (every ES module) an edit throws a TypeError, which is recorded as the hook's failure.
 * @internal
 */
import type { ToolArgs } from '../hook.js';
import { errorMessage } from '../internal/describe.js';

/** A cache of the frozen copy, per call: a call's phases share one copy until a Redirect changes the arguments. */
export interface ArgsCopy {
  source: ToolArgs | undefined;
  copy: ToolArgs | undefined;
}

/** The frozen copy of `args` for hooks, made once per arguments object of a call when `cache` is given. */
export function hookArgs(args: ToolArgs, cache: ArgsCopy | undefined): ToolArgs {
  if (cache === undefined) return frozenCopy(args);
  if (cache.source !== args || cache.copy === undefined) {
    cache.copy = frozenCopy(args);
    cache.source = args;
  }
  return cache.copy;
}

/**
 * A deep copy of the plain objects and arrays in `args`, each frozen; any other value (a Date, a Map, a
 * class instance) is the caller's own, by reference. Arguments that are deeply frozen already are given
 * as they are (nothing to protect). Own enumerable string keys are copied, as JSON and `{ ...args }`
 * would. Arguments that cannot be copied (a caller's Proxy whose traps throw, a getter that throws) are
 * refused with an {@link ArgumentsNotCopiedError}: given to hooks as they are, any hook could change
 * what the tool runs after the gates approved it.
 */
function frozenCopy(args: ToolArgs): ToolArgs {
  try {
    if (deeplyFrozen(args, 0)) return args;
    return copyOf(args) as ToolArgs;
  } catch (error) {
    throw new ArgumentsNotCopiedError(error);
  }
}

/** The call's arguments could not be copied for hooks: the call is refused, and no hook or tool runs. */
class ArgumentsNotCopiedError extends TypeError {
  constructor(cause: unknown) {
    super(
      `toolhooks: the tool call's arguments cannot be read to make the read-only copy hooks are given (${errorMessage(cause)}); the call is refused — pass plain data (objects, arrays, primitives) without throwing getters or Proxies`,
      { cause },
    );
    this.name = 'ArgumentsNotCopiedError';
  }
}

/** How deep a frozen check looks before it says "copy" (a copy handles any depth and cycles). */
const FROZEN_CHECK_DEPTH = 8;

function deeplyFrozen(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!copied(value)) return true;
  if (depth > FROZEN_CHECK_DEPTH || !Object.isFrozen(value)) return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    // A primitive is checked here: no call per string or number, which most arguments are.
    if (item !== null && typeof item === 'object' && !deeplyFrozen(item, depth + 1)) return false;
  }
  return true;
}

/** Whether a value is copied: arrays and plain objects; anything else is the caller's own. */
function copied(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Deeper than this, the arguments are taken to have a cycle and copied again, tracking what was copied. */
const TREE_DEPTH = 32;

const TOO_DEEP = Symbol('too deep');

/**
 * Copies as a tree first (no bookkeeping: what almost all arguments are, and the cheapest); arguments
 * deeper than {@link TREE_DEPTH} — a cycle, or nesting a model was made to emit — are copied again with
 * a map of what was copied, which keeps cycles and shared parts, without recursion at any depth.
 */
function copyOf(args: ToolArgs): unknown {
  const tree = copyTree(args, 0);
  return tree === TOO_DEEP ? copyGraph(args) : tree;
}

function copyTree(value: object, depth: number): unknown {
  if (depth > TREE_DEPTH) return TOO_DEEP;
  // A spread (or slice) first: V8 clones an object's own data in one step, far faster than key by key;
  // then only the nested objects and arrays are replaced by their copies.
  const copy = (Array.isArray(value) ? value.slice() : shallowCopy(value)) as Record<string, unknown>;
  for (const key of Object.keys(copy)) {
    const item = copy[key];
    if (item === null || typeof item !== 'object' || !copied(item)) continue;
    const itemCopy = copyTree(item, depth + 1);
    if (itemCopy === TOO_DEEP) return TOO_DEEP;
    setData(copy, key, itemCopy);
  }
  return Object.freeze(copy);
}

/** A spread defines an own `__proto__` key as data (never the prototype); a null-prototype object stays one. */
function shallowCopy(value: object): object {
  return Object.getPrototypeOf(value) === null ? Object.assign(Object.create(null) as object, value) : { ...value };
}

/**
 * The copy of a graph, with a work list instead of recursion: a 100,000-level nesting costs memory in
 * proportion, never the stack. Each container is copied once (cycles and shared parts kept) and frozen
 * once its members are in; a member's own copy is filled later, which freezing its parent does not stop.
 */
function copyGraph(root: object): object {
  const seen = new Map<object, Record<string, unknown>>();
  const rootCopy = emptyLike(root);
  seen.set(root, rootCopy);
  const work: [object, Record<string, unknown>][] = [[root, rootCopy]];
  for (let next = work.pop(); next !== undefined; next = work.pop()) {
    const [value, copy] = next;
    for (const key of Object.keys(value)) {
      const item: unknown = (value as Record<string, unknown>)[key];
      if (item === null || typeof item !== 'object' || !copied(item)) {
        setData(copy, key, item);
        continue;
      }
      let itemCopy = seen.get(item);
      if (itemCopy === undefined) {
        itemCopy = emptyLike(item);
        seen.set(item, itemCopy);
        work.push([item, itemCopy]);
      }
      setData(copy, key, itemCopy);
    }
    Object.freeze(copy);
  }
  return rootCopy;
}

function emptyLike(value: object): Record<string, unknown> {
  if (Array.isArray(value)) return [] as unknown as Record<string, unknown>;
  return Object.getPrototypeOf(value) === null ? (Object.create(null) as Record<string, unknown>) : {};
}

function setData(copy: Record<string, unknown>, key: string, value: unknown): void {
  // Only `__proto__` needs defining: assigning it would set the prototype.
  if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  else copy[key] = value;
}
