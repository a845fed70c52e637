/**
 * The policy engines' packages are optional peers, loaded only by the engine that needs them: a child
 * process records every module it resolves while it imports the core and every entry point (the policy
 * entry included), then makes each engine in turn.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS } from '../../support/exports.js';

const SRC = resolve(import.meta.dirname, '../../../src');
const TSX = import.meta.resolve('tsx');

/** Imports `entries` (files of src/), then runs `after`; prints the peer specifiers resolved at each step. */
const SCRIPT = `
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';
const seen = [];
registerHooks({
  resolve(specifier, context, next) {
    if (/@open-policy-agent\\/opa-wasm|@cedar-policy\\/cedar-wasm/.test(specifier)) seen.push(specifier);
    return next(specifier, context);
  },
});
const [src, entries, after] = JSON.parse(process.argv.at(-1));
for (const entry of entries) await import(pathToFileURL(src + '/' + entry).href);
const steps = { imports: [...seen] };
const policy = await import(pathToFileURL(src + '/policy/index.ts').href);
if (after === 'cedar') await policy.cedarPolicy({ policies: 'permit (principal, action, resource);', principal: () => 'User::"a"' });
if (after === 'opa') await policy.opaWasm({ policy: new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]) }).catch(() => undefined);
steps.after = seen.slice(steps.imports.length);
console.log(JSON.stringify(steps));
`;

async function loaded(entries: readonly string[], after: 'nothing' | 'cedar' | 'opa'): Promise<{ imports: string[]; after: string[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', TSX, '--input-type=module', '-e', SCRIPT, JSON.stringify([SRC, entries, after])], {
    cwd: resolve(SRC, '..'),
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { imports: string[]; after: string[] };
}

describe('the policy engines are optional peers', () => {
  it('the core and every entry point, toolhooks/policy included, load neither engine package', async () => {
    const entries = ENTRY_POINTS.filter((entry) => entry !== 'cli/bin.ts');
    expect(entries).toContain('policy/index.ts');
    expect(await loaded(entries, 'nothing')).toEqual({ imports: [], after: [] });
  }, 60_000);

  it('cedarPolicy loads only @cedar-policy/cedar-wasm; opaWasm only @open-policy-agent/opa-wasm', async () => {
    expect((await loaded(['index.ts'], 'cedar')).after).toEqual(['@cedar-policy/cedar-wasm/nodejs']);
    expect((await loaded(['index.ts'], 'opa')).after).toEqual(['@open-policy-agent/opa-wasm']);
  }, 60_000);
});
