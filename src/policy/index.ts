/**
 * toolhooks/policy — policies as code: Rego (OPA, in process as wasm or over HTTP) and Cedar as ordinary
 * tool hooks, with the policy named on every decision (`toolhooks.policy.engine`, `.digest`, `.ids`).
 * Fail closed by default; audit mode and `toolhooks replay` work as for any hook. See docs/policies.md.
 *
 * @example
 * ```ts
 * import { HookRunner } from 'toolhooks';
 * import { opaWasm, policyHook } from 'toolhooks/policy';
 *
 * // opa build -t wasm -e toolhooks/decision policy.rego   → bundle.tar.gz
 * const engine = await opaWasm({ policy: 'bundle.tar.gz' });
 * const runner = new HookRunner({ hooks: [policyHook(engine)], agentName: 'ops-bot' });
 * ```
 * @packageDocumentation
 */
export { policyHook } from './policy-hook.js';
export { opaWasm } from './opa-wasm.js';
export { opaHttp } from './opa-http.js';
export { cedarPolicy } from './cedar.js';
export type {
  CedarPolicyOptions,
  OpaHttpOptions,
  OpaWasmOptions,
  PolicyEngine,
  PolicyHookOptions,
  PolicyInput,
  PolicyResult,
} from './types.js';
