import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * The examples import the package by name (`toolhooks`, `toolhooks/node`, …), as an app would. In the
 * repository those names are the `paths` of tsconfig.json (which tsc and tsx read); the tests resolve
 * them the same way, to the sources.
 */
const { compilerOptions } = JSON.parse(readFileSync(resolve(import.meta.dirname, 'tsconfig.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, [string]> };
};
const packageNames = Object.entries(compilerOptions.paths).map(([name, [target]]) => ({
  find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`),
  replacement: resolve(import.meta.dirname, target),
}));

/**
 * Three test projects, one folder each (README, "Development", says where a new test goes):
 * - unit: test/unit/ mirrors src/; in-process only (no child process, no socket), the fast loop.
 * - integration: test/integration/; OTLP round trips over local servers, the examples, the adapters with
 *   their real frameworks, anything that starts a child process.
 * - system: test/system/; the packed tarball installed into a temporary project, real programs
 *   (prometheus, promtool, docker-compose), soaks, load and exporter fault suites.
 * test/support/ holds the helpers the three share; it has no tests of its own.
 * `vitest run` runs the projects one after the other (groupOrder), fastest first, so a broken unit test
 * shows in seconds and the timing-sensitive system suites never share the machine with the other two.
 */
export default defineConfig({
  resolve: { alias: packageNames },
  test: {
    testTimeout: 30_000,
    // A hook's first failure is also a process warning for users; the suite makes hundreds on purpose
    // (the tests that check the warning listen for it themselves).
    execArgv: ['--disable-warning=TOOLHOOKS_HOOK_FAILED'],
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'system', include: ['test/system/**/*.test.ts'], sequence: { groupOrder: 2 } } },
    ],
  },
});
