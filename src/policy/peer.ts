/**
 * Loading an engine's optional peer package, only when that engine is made: the core and the other entry
 * points never load `@open-policy-agent/opa-wasm` or `@cedar-policy/cedar-wasm`. A missing peer is one
 * error naming the package and how to install it.
 * @internal
 */
import { errorMessage } from '../internal/describe.js';

/** The peers the policy engines load, with the range toolhooks is tested against. */
export const PEERS = {
  '@open-policy-agent/opa-wasm': '^1.6.0',
  '@cedar-policy/cedar-wasm': '^4.9.1',
} as const;

type PeerName = keyof typeof PEERS;

/**
 * Imports a peer through `load` (a literal `import('…')`, so that bundlers see it); a missing package
 * becomes an Error naming it, `who` needs it, and the install command, with the original as its cause.
 */
export async function loadPeer<T>(name: PeerName, who: string, load: () => Promise<unknown>): Promise<T> {
  try {
    return (await load()) as T;
  } catch (error) {
    if (!isModuleMissing(error)) throw error;
    throw new Error(`${who} needs the optional peer package "${name}", which is not installed: npm install ${name}@"${PEERS[name]}" (${errorMessage(error)})`, {
      cause: error,
    });
  }
}

function isModuleMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
