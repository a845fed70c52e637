/**
 * A missing optional peer is one error naming the package, who needs it and how to install it; any
 * other failure to load passes through as it is.
 */
import { describe, expect, it } from 'vitest';
import { PEERS, loadPeer } from '../../../src/policy/peer.js';

describe('loadPeer', () => {
  it('returns the module', async () => {
    await expect(loadPeer('@open-policy-agent/opa-wasm', 'opaWasm()', () => Promise.resolve({ loadPolicy: 1 }))).resolves.toEqual({ loadPolicy: 1 });
  });

  it('names the missing package and the install command, keeping the cause', async () => {
    const missing = () => import('toolhooks-no-such-package-for-tests' as string);
    const error = (await loadPeer('@cedar-policy/cedar-wasm', 'cedarPolicy()', missing).catch((e: unknown) => e)) as Error;
    expect(error.message).toMatch(/^cedarPolicy\(\) needs the optional peer package "@cedar-policy\/cedar-wasm", which is not installed: npm install @cedar-policy\/cedar-wasm@"\^4\.9\.1"/);
    expect((error.cause as { code?: string }).code).toBe('ERR_MODULE_NOT_FOUND');
    const required = Object.assign(new Error("Cannot find module '@open-policy-agent/opa-wasm'"), { code: 'MODULE_NOT_FOUND' });
    await expect(loadPeer('@open-policy-agent/opa-wasm', 'opaWasm()', () => Promise.reject(required))).rejects.toThrow(/opaWasm\(\) needs the optional peer package "@open-policy-agent\/opa-wasm"/);
  });

  it('lets any other failure through', async () => {
    const broken = new SyntaxError('bad module');
    await expect(loadPeer('@open-policy-agent/opa-wasm', 'opaWasm()', () => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('asks for the ranges package.json declares', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { peerDependencies: Record<string, string>; peerDependenciesMeta: Record<string, { optional?: boolean }> };
    for (const [name, range] of Object.entries(PEERS)) {
      expect(pkg.peerDependencies[name]).toBe(range);
      expect(pkg.peerDependenciesMeta[name]?.optional).toBe(true);
    }
  });
});
