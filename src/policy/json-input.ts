/**
 * The input document as JSON text, for the engines that send it on as text (OPA wasm copies bytes into
 * its memory; OPA over HTTP posts them): the policy hook then neither parses the bounded JSON into an
 * object nor lets the engine stringify it again. A private protocol between `policy-hook.ts` and the
 * engines of this folder, under a symbol no other code holds; any other engine gets the parsed object.
 * @internal
 */
import type { MaybePromise } from '../hook.js';
import type { PolicyResult } from './types.js';

/** The method an engine of this folder has for JSON input: the document's text, and the hook's signal. */
export const EVALUATE_JSON: unique symbol = Symbol('toolhooks.policy.evaluateJson');

/** An engine that takes the input document as JSON text. */
export interface JsonInputEngine {
  [EVALUATE_JSON](json: string, options: { readonly signal: AbortSignal }): MaybePromise<PolicyResult>;
}

/** Whether `engine` takes JSON text (one of this folder's). */
export function takesJson(engine: object): engine is JsonInputEngine {
  return typeof (engine as Partial<JsonInputEngine>)[EVALUATE_JSON] === 'function';
}
