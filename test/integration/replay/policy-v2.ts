/**
 * The changed policy (v2) the replay tests run against traffic recorded under policy v1, in two forms:
 * hook objects for `replay()` in-process, and the same hooks as the source of a `.mjs` module for the CLI.
 */
import type { ToolHook } from '../../../src/index.js';

/** JavaScript source of a module default-exporting policy v2 (decisions as literals, no imports). */
export const POLICY_V2_SOURCE = `
export default [
  { name: 'shell-guard', tools: ['shell'], beforeTool: (_t, a) => (/\\brm\\b/.test(String(a.cmd)) ? { kind: 'abort', reason: 'destructive command' } : undefined) },
  { name: 'no-inline-keys', beforeTool: (_t, a) => (a.apiKey !== undefined ? { kind: 'abort', reason: 'API keys belong in the vault' } : undefined) },
  { name: 'path-guard', tools: ['read_file'], beforeTool: (_t, a) => (String(a.path).startsWith('/etc/') ? { kind: 'redirect', newArgs: { path: '/sandbox' + a.path }, reason: 'sandboxed' } : undefined) },
  { name: 'size-limit', tools: ['write_file'], beforeTool: (_t, a) => (String(a.content).length > 4096 ? { kind: 'abort', reason: 'content too large' } : undefined) },
  { name: 'leak-guard', tools: ['fetch'], afterTool: (_t, _a, r) => (JSON.stringify(r).includes('PRIVATE KEY') ? { kind: 'abort', reason: 'result holds a private key' } : undefined) },
  { name: 'flaky', tools: ['search'], beforeTool: (_t, a) => { if (a.q === 'jaeger') throw new Error('policy service down'); } },
];
`;

/** Policy v2 as hook objects (evaluated from the same source, so both forms are one policy). */
export async function policyV2(): Promise<ToolHook[]> {
  const url = `data:text/javascript;base64,${Buffer.from(POLICY_V2_SOURCE).toString('base64')}`;
  return ((await import(url)) as { default: ToolHook[] }).default;
}
