/**
 * The document a policy engine evaluates, built with the bounded JSON writer capture uses: one walk
 * that survives cycles, getters that throw, 100k-key objects and 50 MB strings, and leaves marks
 * (`…[truncated N]`, `[N more keys]`) where it cut. The engine sees plain, bounded JSON data.
 * @internal
 */
import { isProxy } from 'node:util/types';
import type { HookContext, ToolArgs } from '../hook.js';
import { serializeBounded } from '../telemetry/capture/bounded-json.js';
import type { PolicyInput } from './types.js';

/** The longest input document, in characters of JSON (docs/policies.md, "The input document"). */
export const MAX_INPUT_CHARS = 262_144;
/** The longest string in it: a longer one is cut and marked. */
const MAX_INPUT_STRING = 16_384;

/** Nothing is redacted: the document goes to the app's own policy, not to telemetry. */
function redactsNothing(): boolean {
  return false;
}

/** What one evaluation is about, before it is bounded. */
interface InputParts {
  readonly phase: 'before_tool' | 'after_tool';
  readonly tool: string;
  readonly args: ToolArgs;
  readonly ctx: HookContext;
  /** after_tool: the tool's result (`hasResult` says whether there is one, as `undefined` is a result too). */
  readonly result?: unknown;
  readonly hasResult: boolean;
  readonly context: Record<string, unknown> | undefined;
}

/** The bounded input document of one evaluation, as JSON text (what {@link parseInput} makes an object of). */
export function policyInputJson(parts: InputParts): string {
  const doc = documentOf(parts);
  return (isPlainDocument(doc) && plainJson(doc)) || boundedJson(doc);
}

/**
 * The bounded input document of one evaluation, as an object: the document itself when it is small plain
 * data (then it shares the hooks' frozen arguments and the context option's object), else the bounded JSON
 * parsed. For a reader that neither keeps nor changes it (this folder's Cedar engine): no JSON in between.
 */
export function policyInput(parts: InputParts): PolicyInput {
  const doc = documentOf(parts);
  return isPlainDocument(doc) ? (doc as unknown as PolicyInput) : parseInput(boundedJson(doc));
}

/** The document, before it is bounded. The small fields first: when the budget runs out, it is the arguments or the result that are cut. */
function documentOf(parts: InputParts): Record<string, unknown> {
  const doc: Record<string, unknown> = { phase: parts.phase, tool: parts.tool };
  const { callId, agentName } = parts.ctx;
  if (callId !== undefined) doc.callId = callId;
  if (agentName !== undefined) doc.agent = agentName;
  doc.context = parts.context ?? {};
  doc.args = parts.args;
  if (parts.hasResult) doc.result = parts.result;
  return doc;
}

function boundedJson(doc: Record<string, unknown>): string {
  return serializeBounded(doc, MAX_INPUT_CHARS, MAX_INPUT_STRING, redactsNothing);
}

/** The most values, and string characters, a document may hold for the native fast path. */
const FAST_MAX_NODES = 512;
const FAST_MAX_CHARS = 32_768;
/** As deep as the bounded writer goes before it summarises. */
const FAST_MAX_DEPTH = 12;

/** What is left of the fast path's budget during one check (the check is synchronous and calls no user code). */
let nodesLeft = 0;
let charsLeft = 0;

/**
 * Whether `JSON.stringify(doc)` is exactly what the bounded writer would write, and well within its bounds:
 * small plain data (plain objects and arrays of strings, finite numbers, booleans and null, read through data
 * properties only: no getter, no Proxy, no `toJSON`, no string past the string limit). The document's own
 * fields are data this module wrote: only their values are walked. The common call's arguments pass.
 */
function isPlainDocument(doc: Record<string, unknown>): boolean {
  nodesLeft = FAST_MAX_NODES;
  charsLeft = FAST_MAX_CHARS;
  for (const key in doc) {
    charsLeft -= key.length;
    if (!isPlainData(doc[key], 1)) return false;
  }
  return true;
}

/** `JSON.stringify(doc)` of a document that passed {@link isPlainDocument}; undefined if it throws after all. */
function plainJson(doc: Record<string, unknown>): string | undefined {
  try {
    return JSON.stringify(doc);
  } catch {
    return undefined;
  }
}

function isPlainData(value: unknown, depth: number): boolean {
  if ((nodesLeft -= 1) < 0) return false;
  switch (typeof value) {
    case 'string':
      return value.length <= MAX_INPUT_STRING && (charsLeft -= value.length) >= 0;
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
    case 'undefined':
      return true;
    case 'object':
      return value === null || (depth < FAST_MAX_DEPTH && isPlainContainer(value, depth));
    default:
      return false;
  }
}

function isPlainContainer(value: object, depth: number): boolean {
  if (isProxy(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  const array = Array.isArray(value);
  if (array ? proto !== Array.prototype : proto !== Object.prototype && proto !== null) return false;
  // JSON writes every slot of an array, holes included: its length counts, not its keys.
  if (array && (nodesLeft -= (value as unknown[]).length) < 0) return false;
  for (const key of Object.keys(value)) {
    if (key === 'toJSON') return false;
    if ((charsLeft -= key.length) < 0) return false;
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor === undefined || !('value' in descriptor)) return false;
    if (!isPlainData(descriptor.value, depth + 1)) return false;
  }
  return true;
}

/** The document as an object. A document cut short keeps its shape: args and context stay objects, whatever the writer left. */
export function parseInput(json: string): PolicyInput {
  const input = JSON.parse(json) as Record<string, unknown>;
  if (!isRecord(input.args)) input.args = {};
  if (!isRecord(input.context)) input.context = {};
  return input as unknown as PolicyInput;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
