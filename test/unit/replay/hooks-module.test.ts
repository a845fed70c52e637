/** Loading the replay CLI's `--hooks` module: what it must default-export, and errors saying what to export. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplayInputError } from '../../../src/replay/index.js';
import { loadHooksModule } from '../../../src/replay/hooks-module.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('hooks-module');
const file = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return name;
};

const HOOK = "{ name: 'p', beforeTool: () => undefined }";

describe('loadHooksModule', () => {
  it('returns a default-exported array of hooks or runner options', async () => {
    const hooks = await loadHooksModule(file('array.mjs', `export default [${HOOK}];`), dir);
    expect(Array.isArray(hooks) && hooks[0]?.name).toBe('p');
    const options = await loadHooksModule(file('options.mjs', `export default { hooks: [${HOOK}], timeoutMs: 100 };`), dir);
    expect(options).toMatchObject({ timeoutMs: 100 });
  });

  it('unwraps a CommonJS module compiled from ESM ({ default: … } as module.exports)', async () => {
    const hooks = await loadHooksModule(file('compiled.cjs', `module.exports = { default: [${HOOK}] };`), dir);
    expect(Array.isArray(hooks)).toBe(true);
  });

  it('says what the module exported instead, and what to export', async () => {
    const cases: [string, string, string][] = [
      ['none.mjs', 'export const hooks = [];', 'has no default export'],
      ['empty.mjs', 'export default [];', 'default-exports an empty array'],
      ['no-hooks.mjs', 'export default { hooks: [] };', 'default-exports a runner with no hooks'],
      ['string.mjs', "export default 'policy';", 'default-exports string'],
    ];
    for (const [name, text, what] of cases) {
      const loading = loadHooksModule(file(name, text), dir);
      await expect(loading).rejects.toThrow(ReplayInputError);
      await expect(loadHooksModule(name, dir)).rejects.toThrow(`hooks module ${name} ${what}; export default an array of hooks or a HookRunner`);
    }
  });

  it('names a module that cannot be loaded, and tells how to load a TypeScript policy Node cannot find', async () => {
    await expect(loadHooksModule(file('broken.mjs', 'export default [;'), dir)).rejects.toThrow(/^hooks module broken\.mjs could not be loaded: /);
    await expect(loadHooksModule('missing.ts', dir)).rejects.toThrow(/a TypeScript policy needs a loader: npm install --save-dev tsx/);
    await expect(loadHooksModule('missing.mjs', dir)).rejects.not.toThrow(/tsx/);
    // TypeScript parsed as JavaScript: a SyntaxError without a code (a CommonJS app, no type stripping).
    const syntax = Object.assign(new SyntaxError("Unexpected token ':'"), { code: undefined });
    const loading = loadHooksModule(file('parsed-as-js.ts', 'export default [];'), dir, () => Promise.reject(syntax));
    await expect(loading).rejects.toThrow(/could not be loaded: Unexpected token ':'; a TypeScript policy needs a loader/);
  });
});
