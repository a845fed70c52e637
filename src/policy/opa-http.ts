/**
 * opaHttp: a policy evaluated by the app's own OPA server (`opa run --server`), through its Data API:
 * `POST {url}/v1/data/{path}` with `{ input }`, the answer's `result`. Decision logs stay on that server.
 * @internal
 */
import { HookTimeoutError } from '../errors.js';
import { errorMessage, quoteValue } from '../internal/describe.js';
import { duration, object, readOptions, string } from '../internal/validate.js';
import type { JsonInputEngine } from './engine-input.js';
import { EVALUATE_JSON } from './engine-input.js';
import type { OpaHttpOptions, PolicyEngine, PolicyInput, PolicyResult } from './types.js';

/** The default of `timeoutMs`. */
const DEFAULT_TIMEOUT_MS = 1000;
/** How much of an unexpected answer an error quotes. */
const MAX_QUOTED = 200;

/**
 * A policy engine that asks an OPA server: `POST {url}/v1/data/{path}` with `{ input }` for every call,
 * within `timeoutMs` (default 1000) and the hook's signal. An answer that is not HTTP 200 with a JSON
 * body, or that does not come in time, is an engine error (a HookTimeoutError for the timeout) that the
 * policy hook's `failureMode` decides about; a missing `result` (OPA's undefined) is a malformed result.
 * The engine has no digest: the policy is the server's.
 *
 * @throws TypeError when `url` is not an http(s) URL or another option is malformed.
 * @example
 * ```ts
 * const engine = opaHttp({ url: 'http://127.0.0.1:8181', path: 'toolhooks/decision', timeoutMs: 300 });
 * const hook = policyHook(engine, { failureMode: 'closed' });
 * ```
 */
export function opaHttp(options: OpaHttpOptions): PolicyEngine {
  if (options === undefined) throw new TypeError('opaHttp(options) needs { url, path }');
  const given = readOptions(options, 'opaHttp(options)', 'opaHttp', { url: string, path: string, timeoutMs: duration(1), headers: object }) as OpaHttpOptions;
  if (given.url === undefined) throw new TypeError("opaHttp: url is required: the OPA server's base URL, such as 'http://127.0.0.1:8181'");
  if (given.path === undefined) throw new TypeError("opaHttp: path is required: the rule's data path, such as 'toolhooks/decision'");
  let base: URL;
  try {
    base = new URL(given.url);
  } catch {
    throw new TypeError(`opaHttp: url must be an http(s) URL, such as 'http://127.0.0.1:8181', got ${quoteValue(given.url)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new TypeError(`opaHttp: url must be an http(s) URL, got ${quoteValue(given.url)}`);
  const segments = given.path.split('/').filter((segment) => segment !== '');
  if (segments.length === 0) throw new TypeError(`opaHttp: path must name a rule, such as 'toolhooks/decision', got ${quoteValue(given.path)}`);
  const headers = readHeaders(given.headers);
  const endpoint = new URL(`${base.pathname.replace(/\/$/, '')}/v1/data/${segments.map(encodeURIComponent).join('/')}`, base);
  return new OpaHttpEngine(endpoint, given.timeoutMs ?? DEFAULT_TIMEOUT_MS, headers);
}

class OpaHttpEngine implements PolicyEngine, JsonInputEngine {
  readonly name = 'opa-http';
  /** How errors name the server: no credentials, no query. */
  readonly #shown: string;

  constructor(
    readonly endpoint: URL,
    readonly timeoutMs: number,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    this.#shown = `${endpoint.origin}${endpoint.pathname}`;
  }

  evaluate(input: PolicyInput, options: { readonly signal: AbortSignal }): Promise<PolicyResult> {
    return this[EVALUATE_JSON](JSON.stringify(input), options);
  }

  /** The policy hook's way in: the bounded document's JSON, posted as it is. */
  async [EVALUATE_JSON](json: string, options: { readonly signal: AbortSignal }): Promise<PolicyResult> {
    const text = await this.#post(`{"input":${json}}`, options.signal);
    let body: unknown;
    try {
      body = JSON.parse(text.body);
    } catch {
      throw new Error(`opaHttp: OPA at ${this.#shown} answered HTTP ${text.status} with a body that is not JSON: ${JSON.stringify(text.body.slice(0, MAX_QUOTED))}`);
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new Error(`opaHttp: OPA at ${this.#shown} answered ${JSON.stringify(text.body.slice(0, MAX_QUOTED))}, not an object with "result"`);
    }
    return (body as { result?: unknown }).result as PolicyResult;
  }

  /** The answer's status and body, within the timeout and the hook's signal; an Error saying which part failed. */
  async #post(body: string, signal: AbortSignal): Promise<{ status: number; body: string }> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), this.timeoutMs);
    try {
      const response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { ...this.headers, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.any([timer.signal, signal]),
      });
      const text = await response.text();
      if (response.status !== 200) {
        throw new Error(`opaHttp: OPA at ${this.#shown} answered HTTP ${response.status}: ${JSON.stringify(text.slice(0, MAX_QUOTED))}`);
      }
      return { status: response.status, body: text };
    } catch (error) {
      if (timer.signal.aborted && !signal.aborted) {
        const late = new HookTimeoutError(this.timeoutMs);
        late.message = `opaHttp: OPA at ${this.#shown} did not answer within ${this.timeoutMs} ms`;
        throw late;
      }
      if (error instanceof Error && error.message.startsWith('opaHttp:')) throw error;
      throw new Error(`opaHttp: POST ${this.#shown} failed: ${errorMessage(error)}${causeOf(error)}`, { cause: error });
    } finally {
      clearTimeout(timeout);
    }
  }
}

/** fetch's "fetch failed" hides the reason (ECONNREFUSED…) in its cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause === undefined ? '' : ` (${errorMessage(cause)})`;
}

function readHeaders(headers: object | undefined): Readonly<Record<string, string>> {
  if (headers === undefined) return {};
  const copy: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (typeof value !== 'string') throw new TypeError(`opaHttp: headers must map names to strings, got ${key} = ${quoteValue(value)}`);
    copy[key] = value;
  }
  return Object.freeze(copy);
}
