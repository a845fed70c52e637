/**
 * opaWasm: a Rego policy compiled to WebAssembly, evaluated in process with `@open-policy-agent/opa-wasm`
 * (an optional peer, loaded here only). Evaluation is synchronous, so a policy hook around it adds no
 * promise to the call.
 * @internal
 */
import { readFile } from 'node:fs/promises';
import { quoteValue } from '../internal/describe.js';
import { anything, readOptions, string } from '../internal/validate.js';
import { sha256Hex } from './digest.js';
import { readWasmBundle } from './opa-bundle.js';
import type { JsonInputEngine } from './engine-input.js';
import { EVALUATE_JSON } from './engine-input.js';
import { loadPeer } from './peer.js';
import type { OpaWasmOptions, PolicyEngine, PolicyInput, PolicyResult } from './types.js';

/** What toolhooks uses of `@open-policy-agent/opa-wasm` (its own types stay out of our declarations). */
interface OpaWasmModule {
  loadPolicy(wasm: Uint8Array): Promise<LoadedPolicy>;
}
interface LoadedPolicy {
  readonly entrypoints: Readonly<Record<string, number>>;
  evaluate(input: unknown, entrypoint?: number | string): readonly { readonly result: unknown }[] | undefined;
  setData(data: object): void;
}

/**
 * Loads a Rego policy compiled to WebAssembly (`opa build -t wasm`): `policy.wasm` bytes, a path to a
 * `.wasm` file, or a path to the bundle (`.tar.gz`) itself, whose `data.json` is loaded too. The engine
 * evaluates `entrypoint` (default: the policy's only one) with each call's {@link PolicyInput} as `input`;
 * OPA's undefined (no rule matched, no default) is a malformed result. Needs the optional peer
 * `@open-policy-agent/opa-wasm`.
 *
 * @throws Error when the peer is missing, the file cannot be read, the wasm does not load, or the entrypoint
 *   is not in the policy (the message lists the ones it has).
 * @example
 * ```ts
 * // opa build -t wasm -e toolhooks/decision policy.rego   → bundle.tar.gz
 * const engine = await opaWasm({ policy: 'bundle.tar.gz', data: { sandbox: 'sandbox_shell' } });
 * const hook = policyHook(engine);
 * ```
 */
export async function opaWasm(options: OpaWasmOptions): Promise<PolicyEngine> {
  if (options === undefined) throw new TypeError('opaWasm(options) needs { policy }: policy.wasm bytes, a .wasm path or a bundle path');
  const given = readOptions(options, 'opaWasm(options)', 'opaWasm', { policy: anything, entrypoint: string, data: anything }) as OpaWasmOptions;
  if (given.data !== undefined && !isRecord(given.data)) throw new TypeError(`opaWasm: data must be an object (OPA's data document), got ${quoteValue(given.data)}`);
  const { wasm, data: bundleData, digest, source } = await readPolicy(given.policy);
  const opa = await loadPeer<OpaWasmModule>('@open-policy-agent/opa-wasm', 'opaWasm()', () => import('@open-policy-agent/opa-wasm'));
  let policy: LoadedPolicy;
  try {
    policy = await opa.loadPolicy(wasm);
  } catch (error) {
    throw new Error(`opaWasm: ${source} does not load as an OPA wasm policy: ${(error as Error).message}`, { cause: error });
  }
  const entrypoint = pickEntrypoint(policy.entrypoints, given.entrypoint, source);
  const data = mergeData(bundleData, given.data as Record<string, unknown> | undefined);
  if (isRecord(data)) policy.setData(data);
  return new OpaWasmEngine(policy, entrypoint, digest);
}

/** A loaded wasm policy and the entrypoint it evaluates. */
class OpaWasmEngine implements PolicyEngine, JsonInputEngine {
  readonly name = 'opa-wasm';
  readonly #encoder = new TextEncoder();

  constructor(
    readonly policy: LoadedPolicy,
    readonly entrypoint: number,
    readonly digest: string,
  ) {}

  /** The entrypoint's value; undefined for OPA's undefined (an empty result set). */
  evaluate(input: PolicyInput): PolicyResult {
    return resultOf(this.policy.evaluate(input, this.entrypoint));
  }

  /** The policy hook's way in: the bounded document's JSON, copied into the wasm memory as it is. */
  [EVALUATE_JSON](json: string): PolicyResult {
    return resultOf(this.policy.evaluate(this.#encoder.encode(json).buffer, this.entrypoint));
  }
}

/** The entrypoint's value; undefined for OPA's undefined (an empty result set). */
function resultOf(results: readonly { readonly result: unknown }[] | undefined): PolicyResult {
  return (results === undefined || results.length === 0 ? undefined : results[0]?.result) as PolicyResult;
}

interface ReadPolicy {
  readonly wasm: Uint8Array;
  readonly data: unknown;
  readonly digest: string;
  /** How messages name it: the path, or "the policy bytes". */
  readonly source: string;
}

async function readPolicy(policy: unknown): Promise<ReadPolicy> {
  if (policy instanceof Uint8Array) return { wasm: policy, data: undefined, digest: sha256Hex(policy), source: 'the policy bytes' };
  if (typeof policy !== 'string' || policy === '') {
    throw new TypeError(`opaWasm: policy must be policy.wasm bytes (a Uint8Array), a path to a .wasm file or a path to a bundle (.tar.gz), got ${quoteValue(policy)}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(policy));
  } catch (error) {
    throw new Error(`opaWasm: cannot read the policy ${policy}: ${(error as Error).message}`, { cause: error });
  }
  const digest = sha256Hex(bytes);
  // A bundle is a gzip'd tar (magic 1f 8b), whatever its file is called; anything else is read as wasm.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return { ...readWasmBundle(bytes, policy), digest, source: policy };
  return { wasm: bytes, data: undefined, digest, source: policy };
}

function pickEntrypoint(entrypoints: Readonly<Record<string, number>>, wanted: string | undefined, source: string): number {
  const names = Object.keys(entrypoints);
  if (wanted !== undefined) {
    const id = Object.prototype.hasOwnProperty.call(entrypoints, wanted) ? entrypoints[wanted] : undefined;
    if (id === undefined) {
      throw new Error(`opaWasm: ${source} has no entrypoint ${JSON.stringify(wanted)}; it has ${names.map((n) => JSON.stringify(n)).join(', ') || 'none'} (opa build -t wasm -e ${wanted} …)`);
    }
    return id;
  }
  const [only] = names;
  if (names.length !== 1 || only === undefined) {
    throw new Error(`opaWasm: ${source} has ${names.length} entrypoints (${names.map((n) => JSON.stringify(n)).join(', ')}); choose one with the entrypoint option`);
  }
  return entrypoints[only] as number;
}

/** The bundle's data with the `data` option's top-level keys over it (either alone as it is). */
function mergeData(bundle: unknown, given: Record<string, unknown> | undefined): unknown {
  if (given === undefined) return bundle;
  return isRecord(bundle) ? { ...bundle, ...given } : given;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
