/**
 * How this folder's engines take the input document, a private protocol between `policy-hook.ts` and
 * them under symbols no other code holds. The engines that send the document on as text (OPA wasm copies
 * bytes into its memory; OPA over HTTP posts them) take the bounded JSON as it is, so the policy hook
 * neither parses it nor lets the engine stringify it again; Cedar, which reads the document without keeping
 * or changing it, takes the document itself when it is small plain data (no JSON in between). Any other
 * engine gets `evaluate(input, { signal })` with a parsed copy, which it may keep or change.
 * @internal
 */
import type { HookContext, MaybePromise } from '../hook.js';
import type { PolicyInput, PolicyResult } from './types.js';

/** The method an engine of this folder has for JSON input: the document's text, and the hook's context (its `signal`). */
export const EVALUATE_JSON: unique symbol = Symbol('toolhooks.policy.evaluateJson');

/** The method an engine of this folder has for the document itself: it reads it, never keeps or changes it. */
export const EVALUATE_DOCUMENT: unique symbol = Symbol('toolhooks.policy.evaluateDocument');

/** An engine that takes the input document as JSON text. */
export interface JsonInputEngine {
  [EVALUATE_JSON](json: string, ctx: Pick<HookContext, 'signal'>): MaybePromise<PolicyResult>;
}

/** An engine that reads the input document without keeping or changing it. */
export interface DocumentInputEngine {
  [EVALUATE_DOCUMENT](input: PolicyInput): MaybePromise<PolicyResult>;
}

/** Whether `engine` takes JSON text (one of this folder's). */
export function takesJson(engine: object): engine is JsonInputEngine {
  return typeof (engine as Partial<JsonInputEngine>)[EVALUATE_JSON] === 'function';
}

/** Whether `engine` reads the document itself (one of this folder's). */
export function readsDocument(engine: object): engine is DocumentInputEngine {
  return typeof (engine as Partial<DocumentInputEngine>)[EVALUATE_DOCUMENT] === 'function';
}
