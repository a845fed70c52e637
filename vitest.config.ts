import { defineConfig } from 'vitest/config';

/**
 * Four test projects, one folder each (README, "Development", says where a new test goes):
 * - unit: test/unit/ mirrors src/; in-process only (no child process, no socket), the fast loop.
 * - integration: test/integration/; OTLP round trips over local servers, the examples, the adapters with
 *   their real frameworks, anything that starts a child process.
 * - system: test/system/; the packed tarball installed into a temporary project, real programs
 *   (prometheus, promtool, docker-compose), soaks, load and exporter fault suites.
 * - pipeline: test/system/pipeline/; the two-tier collector pipeline, seven real processes per test, CI
 *   only. Last and one file at a time, so it neither loads the machine under the timing-sensitive
 *   system suites nor is loaded by them.
 * test/support/ holds the helpers they share; it has no tests of its own.
 * `vitest run` runs the projects one after the other (groupOrder), fastest first, so a broken unit test
 * shows in seconds and the timing-sensitive system suites never share the machine with the other two.
 */
export default defineConfig({
  test: {
    testTimeout: 30_000,
    // A hook's first failure is also a process warning for users; the suite makes hundreds on purpose
    // (the tests that check the warning listen for it themselves).
    execArgv: ['--disable-warning=TOOLHOOKS_HOOK_FAILED'],
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'], sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: { name: 'system', include: ['test/system/**/*.test.ts'], exclude: ['test/system/pipeline/**'], sequence: { groupOrder: 2 } },
      },
      {
        extends: true,
        test: { name: 'pipeline', include: ['test/system/pipeline/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 3 } },
      },
    ],
  },
});
