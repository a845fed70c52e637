/**
 * The ESM and CommonJS builds, both loaded in one process (an ESM app with a CommonJS dependency that
 * requires toolhooks), share class identity: an error made by either build is `instanceof` the class of
 * either build, and either build's flows accept either build's HookRunner. Built for real by
 * scripts/build.mjs, in a copy of the sources so the repository's own dist/ is left alone.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/packed-app.js';

let work = '';
let app = '';

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'toolhooks-dual-'));
  const pkg = join(work, 'toolhooks');
  mkdirSync(join(pkg, 'scripts'), { recursive: true });
  for (const entry of ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.build.cjs.json']) {
    cpSync(join(repoRoot, entry), join(pkg, entry), { recursive: true });
  }
  cpSync(join(repoRoot, 'scripts', 'build.mjs'), join(pkg, 'scripts', 'build.mjs'));
  symlinkSync(join(repoRoot, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: pkg, stdio: ['ignore', 'pipe', 'pipe'] });
  app = join(work, 'app');
  mkdirSync(join(app, 'node_modules'), { recursive: true });
  symlinkSync(pkg, join(app, 'node_modules', 'toolhooks'), 'dir');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
}, 240_000);

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

/** Runs an ES module in the app with both builds loaded: `esm` imported, `cjs` required. */
function runApp(body: string): unknown {
  const source = `import * as esm from 'toolhooks';
import { createRequire } from 'node:module';
const cjs = createRequire(import.meta.url)('toolhooks');
const out = {};
${body}
console.log(JSON.stringify(out));
`;
  writeFileSync(join(app, 'main.mjs'), source);
  return JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' }));
}

describe('the ESM and CommonJS builds in one process', () => {
  it('are two builds (the test means something)', () => {
    expect(runApp(`out.same = esm.HookAbortError === cjs.HookAbortError;`)).toEqual({ same: false });
  });

  it('an error made by either build is instanceof the class of either build', () => {
    const out = runApp(`
for (const name of ['HookAbortError', 'HookTimeoutError', 'InvalidHookDecisionError', 'InvalidRedirectTargetError']) {
  const make = (build) => name === 'HookTimeoutError' ? new build[name](5) : new build[name]('x');
  out[name] = [make(cjs) instanceof esm[name], make(esm) instanceof cjs[name], make(esm) instanceof esm[name], make(cjs) instanceof cjs[name],
    new Error('x') instanceof esm[name], make(cjs) instanceof esm.HookTimeoutError === (name === 'HookTimeoutError')];
}`);
    const all = [true, true, true, true, false, true];
    expect(out).toEqual({ HookAbortError: all, HookTimeoutError: all, InvalidHookDecisionError: all, InvalidRedirectTargetError: all });
  });

  it("a CommonJS module's abort is caught by an ESM app's instanceof, and either build's flows take either build's runner", async () => {
    const out = runApp(`
const gate = { name: 'gate', beforeTool: () => esm.abort('no') };
for (const [label, flows, runners] of [['esm flow, cjs runner', esm, cjs], ['cjs flow, esm runner', cjs, esm]]) {
  try {
    await flows.executeTool({ hooks: new runners.HookRunner([gate]), toolName: 't', args: {}, execute: () => 'ran' });
    out[label] = 'ran';
  } catch (error) {
    out[label] = [error instanceof esm.HookAbortError, error instanceof cjs.HookAbortError, error.message];
  }
}
const skipper = new cjs.HookRunner([{ beforeTool: () => cjs.skip('cached', 'stub') }]);
out.skip = await esm.executeTool({ hooks: skipper, toolName: 't', args: {}, execute: () => 'ran' });`);
    expect(out).toEqual({ 'esm flow, cjs runner': [true, true, 'no'], 'cjs flow, esm runner': [true, true, 'no'], skip: 'stub' });
  });

  it("the adapters' and replay's error classes too", () => {
    const out = runApp(`
const require = createRequire(import.meta.url);
const pairs = [
  ['ClaudeToolError', await import('toolhooks/claude'), require('toolhooks/claude'), (c) => new c.ClaudeToolError('x', 'failed', 'Bash')],
  ['McpToolError', await import('toolhooks/mcp'), require('toolhooks/mcp'), (c) => new c.McpToolError('t', { content: [] })],
  ['ReplayInputError', await import('toolhooks/replay'), require('toolhooks/replay'), (c) => new c.ReplayInputError('x')],
];
for (const [name, e, c, make] of pairs) out[name] = [make(c) instanceof e[name], make(e) instanceof c[name], new Error('x') instanceof e[name]];`);
    expect(out).toEqual({ ClaudeToolError: [true, true, false], McpToolError: [true, true, false], ReplayInputError: [true, true, false] });
  });

  it("a Claude DeferredApprovals made by either build is taken by the other build's claudeAgentHooks", () => {
    const out = runApp(`
const require = createRequire(import.meta.url);
const e = await import('toolhooks/claude');
const c = require('toolhooks/claude');
for (const [label, made, hooksOf, runners] of [['cjs approvals, esm hooks', c, e, esm], ['esm approvals, cjs hooks', e, c, cjs]]) {
  try {
    const approvals = new made.DeferredApprovals();
    hooksOf.claudeAgentHooks(new runners.HookRunner([]), { approvals });
    out[label] = [approvals instanceof hooksOf.DeferredApprovals, 'accepted'];
  } catch (error) {
    out[label] = error.message;
  }
}`);
    expect(out).toEqual({ 'cjs approvals, esm hooks': [true, 'accepted'], 'esm approvals, cjs hooks': [true, 'accepted'] });
  });

  it('a subclass keeps ordinary instanceof for itself', () => {
    const out = runApp(`
class Mine extends esm.HookAbortError {}
out.mine = [new Mine('x') instanceof esm.HookAbortError, new Mine('x') instanceof cjs.HookAbortError, new esm.HookAbortError('x') instanceof Mine];`);
    expect(out).toEqual({ mine: [true, true, false] });
  });
});
