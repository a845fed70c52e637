/**
 * The public types of `toolhooks/policy`: the document an engine evaluates, what it answers, the engine
 * interface, and the options of the hook and of each engine. See docs/policies.md.
 */
import type { FailureMode, HookMode, MaybePromise, ToolArgs, ToolMatcher } from '../hook.js';

/**
 * The document a policy engine evaluates: Rego's `input`; for Cedar, see {@link cedarPolicy}. Built
 * by the policy hook with the same bounded serialisation capture uses (docs/capture.md): a huge or hostile
 * argument reaches the engine cut and marked (`…[truncated N]`, `[N more keys]`), never crashes it.
 *
 * @example
 * ```ts
 * const input: PolicyInput = { phase: 'before_tool', tool: 'shell', args: { cmd: 'ls' }, agent: 'ops-bot', context: { env: 'prod' } };
 * ```
 */
export interface PolicyInput {
  readonly phase: 'before_tool' | 'after_tool';
  /** The tool the phase is about (after a Redirect, the tool that ran, in after_tool). */
  readonly tool: string;
  readonly args: ToolArgs;
  /** The tool call's id, when the caller knows it. */
  readonly callId?: string;
  /** The flow's agent name (`agentName` of the flow, else of the runner), when known. */
  readonly agent?: string;
  /** The tool's result; after_tool only. */
  readonly result?: unknown;
  /** What the hook's `context` option returned for this call (`{}` without one). */
  readonly context: Readonly<Record<string, unknown>>;
}

/**
 * What a policy decides. `allow`, `deny`, `requires-approval` and `not-applicable` are the AI SDK's Rego
 * vocabulary (`@ai-sdk/policy-opa`); `skip`, `redirect` and `replace` are toolhooks' extensions. The
 * policy hook also reads `true` / `false` and `{ allow: boolean, reason? }` (docs/policies.md, "Results").
 *
 * @example
 * ```ts
 * const result: PolicyResult = { decision: 'redirect', tool: 'sandbox_shell', reason: 'network access' };
 * ```
 */
export interface PolicyResult {
  readonly decision: 'allow' | 'deny' | 'requires-approval' | 'not-applicable' | 'skip' | 'redirect' | 'replace';
  readonly reason?: string;
  /** The ids of the determining policies or rules (recorded as `toolhooks.policy.ids`). */
  readonly policies?: readonly string[];
  /** `skip`: what the call returns instead of running the tool (default `''`). */
  readonly stub?: unknown;
  /** `redirect`: the tool to run instead (required). */
  readonly tool?: string;
  /** `redirect`: arguments merged over the call's. */
  readonly args?: ToolArgs;
  /** `replace` (after_tool only): the result the call returns instead of the tool's. */
  readonly result?: unknown;
}

/**
 * A policy engine: evaluates one {@link PolicyInput}. {@link opaWasm}, {@link opaHttp} and
 * {@link cedarPolicy} make one; any object of this shape works with {@link policyHook}.
 *
 * @example
 * ```ts
 * const readOnly: PolicyEngine = {
 *   name: 'read-only',
 *   evaluate: (input) => ({ decision: input.tool.startsWith('get_') ? 'allow' : 'deny', reason: 'read-only agent' }),
 * };
 * ```
 */
export interface PolicyEngine {
  /** Recorded as `toolhooks.policy.engine`: `opa-wasm`, `opa-http`, `cedar`, or yours. */
  readonly name: string;
  /** The lowercase hex SHA-256 of the loaded policy, recorded as `toolhooks.policy.digest`. */
  readonly digest?: string;
  /** Decides one call; `signal` aborts when the hook's timeout or the call's signal fires. */
  evaluate(input: PolicyInput, options: { readonly signal: AbortSignal }): MaybePromise<PolicyResult>;
  /** Releases what the engine holds (a wasm instance, a connection pool). */
  close?(): MaybePromise<void>;
}

/**
 * Options of {@link policyHook}.
 *
 * @typeParam S - the agent state passed through to hooks.
 * @example
 * ```ts
 * const options: PolicyHookOptions = { tools: ['shell', 'send_email'], mode: 'audit', timeoutMs: 200 };
 * ```
 */
export interface PolicyHookOptions<S = unknown> {
  /** The hook's telemetry name. Default `policy`. */
  name?: string;
  /** Which tools the policy is asked about. Default: all. */
  tools?: ToolMatcher;
  /** `'audit'` records what the policy would decide and changes nothing. Default `'enforce'`. */
  mode?: HookMode;
  /** What an engine error, a timeout or a malformed result does: `'closed'` (default) aborts the call. */
  failureMode?: FailureMode;
  /** How long one evaluation may take, in milliseconds (the hook's timeout); default: the runner's. */
  timeoutMs?: number;
  /** The phases the policy is asked in. Default `['before_tool']`. */
  phases?: readonly ('before_tool' | 'after_tool')[];
  /** More facts for the policy, as `input.context` (a tenant, a role, an environment). */
  context?: (tool: string, args: ToolArgs, state: S) => Record<string, unknown>;
  /** What a deny does in before_tool: `'abort'` (default), or `'skip'`, returning `Tool call denied: <reason>`. */
  deny?: 'abort' | 'skip';
}

/**
 * Options of {@link opaWasm}.
 *
 * @example
 * ```ts
 * const options: OpaWasmOptions = { policy: 'policy/bundle.tar.gz', entrypoint: 'toolhooks/decision', data: { admins: ['ann'] } };
 * ```
 */
export interface OpaWasmOptions {
  /** `policy.wasm` bytes, a path to a `.wasm` file, or a path to a bundle (`.tar.gz`) built with `opa build -t wasm`. */
  policy: Uint8Array | string;
  /** The entrypoint to evaluate (`toolhooks/decision`). Default: the policy's only one. */
  entrypoint?: string;
  /** The `data` document; with a bundle, merged over its `data.json` (top-level keys). */
  data?: unknown;
}

/**
 * Options of {@link opaHttp}.
 *
 * @example
 * ```ts
 * const options: OpaHttpOptions = { url: 'http://127.0.0.1:8181', path: 'toolhooks/decision', timeoutMs: 500 };
 * ```
 */
export interface OpaHttpOptions {
  /** The OPA server's base URL. */
  url: string;
  /** The rule's data path, with slashes: `toolhooks/decision` asks `POST {url}/v1/data/toolhooks/decision`. */
  path: string;
  /** How long one request may take, in milliseconds. Default 1000. */
  timeoutMs?: number;
  /** Headers sent with every request (an `Authorization` bearer token). */
  headers?: Record<string, string>;
}

/**
 * Options of {@link cedarPolicy}.
 *
 * @example
 * ```ts
 * const options: CedarPolicyOptions = { policies: text, principal: (input) => `Agent::"${input.agent ?? 'unknown'}"` };
 * ```
 */
export interface CedarPolicyOptions {
  /** The policy set, in Cedar's text syntax. */
  policies: string;
  /** The entities (Cedar's JSON entity format), such as the principal's groups. */
  entities?: unknown;
  /** A schema (Cedar text or JSON); with one, requests are validated against it. */
  schema?: unknown;
  /** The request's principal in Cedar's entity syntax: `User::"alice"`. */
  principal: (input: PolicyInput) => string;
}
