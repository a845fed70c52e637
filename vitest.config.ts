import { existsSync, readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vitest/config';
import { defineConfig } from 'vitest/config';

/** The SDK 2 lane's packages (test/sdk2/, installed by scripts/install-sdk2.sh). */
const sdk2 = (name: string): string => fileURLToPath(new URL(`./test/sdk2/node_modules/@opentelemetry/${name}`, import.meta.url));

/**
 * The version matrix (test/versions.json): per adapter or entry point, the supported framework range, the
 * oldest and newest versions tested and the test files that exercise it. docs/installation.md,
 * "Supported versions", describes it; test/unit/versions-matrix.test.ts checks it against package.json.
 */
interface MatrixPoint {
  lane: 'root' | 'sdk2' | 'strands' | 'matrix';
  install?: Record<string, string>;
}
interface MatrixEntry {
  id: string;
  imports?: Record<string, string>;
  env?: Record<string, string>;
  tests: string[] | string;
  oldest: MatrixPoint;
  newest: MatrixPoint;
}
const matrix = (JSON.parse(readFileSync(resolve(import.meta.dirname, 'test/versions.json'), 'utf8')) as { entries: MatrixEntry[] }).entries;
const matrixEntry = (id: string): MatrixEntry => {
  const entry = matrix.find((candidate) => candidate.id === id);
  if (entry === undefined) throw new Error(`test/versions.json has no entry ${id}`);
  return entry;
};
/** An entry's test files (an entry may name another entry whose tests it runs). */
const matrixTests = (id: string): string[] => {
  const { tests } = matrixEntry(id);
  return typeof tests === 'string' ? matrixTests(tests) : tests;
};

/**
 * The tests that attach toolhooks to an app's own SDK (traces, metrics, logs, sampling, the adapters),
 * also run against the SDK 2 line: `@opentelemetry/api` 1.9, sdk-trace-base / sdk-metrics 2.12, sdk-logs
 * and api-logs 0.223. test/support/sdk.ts builds providers the way each line takes them. The list is the
 * matrix entry opentelemetry-sdk-2's (its newest point is this lane).
 */
const SDK2_LANE = matrixTests('opentelemetry-sdk-2');

/**
 * The tests that run Strands Agents (`@strands-agents/sdk`, installed apart in test/strands/ by
 * scripts/install-strands.sh: its optional peer openai ^6 conflicts with the main project's openai 7).
 */
const STRANDS_LANE = matrixTests('strands');

/**
 * One point of the version matrix, when scripts/test-versions.mjs runs it (TOOLHOOKS_MATRIX=<entry>:<point>):
 * the project `matrix` runs the entry's tests with its framework packages resolved from the point's install in
 * test/versions/<entry>-<point>/ (as if imported from there: their own dependencies come from that install,
 * the peers it lacks from the main project). A name in the entry's `imports` (a name the tests import, such
 * as `ai-v6`) resolves to the package it names; the other packages by their own names, subpaths through the
 * package's `exports`. Each name also has an alias to itself: Vite rewrites an import to the id a plugin
 * resolved only when an alias matches it; a package import without one is left bare and Node resolves it
 * from the test's folder, to the main project's copy (the sdk2 project's aliases do the same). A test that
 * starts a process resolving the framework by itself is out of these aliases' reach: the Strands example
 * runs `tsx`, which takes `@strands-agents/sdk` from tsconfig.json `paths` (the Strands lane's copy). The
 * project hands such a process the point's tsconfig.json (TSX_TSCONFIG_PATH, which tsx reads): written by
 * scripts/test-versions.mjs, tsconfig.json's with the paths of the packages the point installs re-pointed
 * into the point's install.
 */
function matrixProjects(run: string | undefined) {
  if (run === undefined || run === '') return [];
  const [id = '', point = ''] = run.split(':');
  const entry = matrixEntry(id);
  const spec = point === 'oldest' || point === 'newest' ? entry[point] : undefined;
  if (spec?.lane !== 'matrix' || spec.install === undefined) throw new Error(`TOOLHOOKS_MATRIX=${run}: not a point the matrix installs`);
  const laneDir = resolve(import.meta.dirname, 'test/versions', `${id}-${point}`);
  const names: [string, string][] = Object.entries(entry.imports ?? {});
  for (const installed of Object.keys(spec.install)) {
    if (!names.some(([, target]) => target === installed)) names.push([installed, installed]);
  }
  // Resolved from the install's own package.json, so subpaths go through the package's `exports`.
  const importer = resolve(laneDir, 'package.json');
  for (const [, target] of names) {
    if (!existsSync(resolve(laneDir, 'node_modules', target))) {
      throw new Error(`matrix lane ${run}: ${target} is not installed in ${laneDir} (node scripts/test-versions.mjs installs it)`);
    }
  }
  const tsconfig = resolve(laneDir, 'tsconfig.json');
  if (!existsSync(tsconfig)) throw new Error(`matrix lane ${run}: ${laneDir} has no tsconfig.json (node scripts/test-versions.mjs writes it)`);
  const plugin: Plugin = {
    name: 'toolhooks-matrix-lane',
    enforce: 'pre',
    async resolveId(source, _from, options) {
      const match = names.find(([name]) => source === name || source.startsWith(`${name}/`));
      if (match === undefined) return null;
      const [name, target] = match;
      const resolved = await this.resolve(target + source.slice(name.length), importer, { ...options, skipSelf: true });
      // Resolution walks up to the main install's node_modules when the point's copy is broken: the point
      // would pass on the wrong version, so anything but the point's own copy fails it.
      if (resolved === null || !resolved.id.startsWith(`${laneDir}${sep}`)) {
        throw new Error(`matrix lane ${run}: ${source} resolves to ${resolved?.id ?? 'nothing'}, not into ${laneDir} (reinstall: rm -rf ${laneDir}; node scripts/test-versions.mjs ${run})`);
      }
      return resolved;
    },
  };
  return [
    {
      extends: true,
      plugins: [plugin],
      resolve: {
        alias: names.map(([name]) => ({
          find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}(/.*)?$`),
          replacement: `${name}$1`,
        })),
      },
      test: { name: 'matrix', include: matrixTests(id), env: { ...entry.env, TSX_TSCONFIG_PATH: tsconfig }, sequence: { groupOrder: 5 } },
    },
  ];
}
const STRANDS_SDK = '@strands-agents/sdk';

/**
 * The examples import the package by name (`toolhooks`, `toolhooks/node`, …), as an app would. In the
 * repository those names are the `paths` of tsconfig.json (which tsc and tsx read); the tests resolve
 * them the same way, to the sources.
 */
const { compilerOptions } = JSON.parse(readFileSync(resolve(import.meta.dirname, 'tsconfig.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, [string]> };
};
const packageNames = Object.entries(compilerOptions.paths)
  .filter(([name]) => name !== STRANDS_SDK)
  .map(([name, [target]]) => ({
    find: new RegExp(`^${name.replace(/[/.]/g, '\\$&')}$`),
    replacement: resolve(import.meta.dirname, target),
  }));
/** Strands from its lane, as Node resolves the package (tsconfig.json `paths` gives tsc its types only). */
packageNames.push({ find: /^@strands-agents\/sdk$/, replacement: fileURLToPath(new URL('./test/strands/node_modules/@strands-agents/sdk', import.meta.url)) });

/**
 * The test projects, one folder each (README, "Development", says where a new test goes):
 * - unit: test/unit/ mirrors src/; in-process only (no child process, no socket), the fast loop.
 * - integration: test/integration/; OTLP round trips over local servers, the examples, the adapters with
 *   their real frameworks, anything that starts a child process.
 * - system: test/system/; the packed tarball installed into a temporary project, real programs
 *   (prometheus, promtool, docker-compose), soaks, load and exporter fault suites.
 * - strands: the tests in STRANDS_LANE (Strands Agents from its own install lane), with the integration tier.
 * - sdk2: the tests in SDK2_LANE again, with the OpenTelemetry packages resolved to the SDK 2 line.
 * - matrix: one point of the version matrix (test/versions.json), only when scripts/test-versions.mjs runs it.
 * - pipeline: test/system/pipeline/; the two-tier collector pipeline, seven real processes per test, CI
 *   only. Last and one file at a time, so it neither loads the machine under the timing-sensitive
 *   system suites nor is loaded by them.
 * test/support/ holds the helpers they share; it has no tests of its own.
 * `vitest run` runs the projects one after the other (groupOrder), fastest first, so a broken unit test
 * shows in seconds and the timing-sensitive system suites never share the machine with the other two.
 * `npm test` runs unit and integration with `--coverage` (`npm run coverage`): a coverage report of src/
 * (v8) with a floor on lines and branches, below which the run fails, locally and in CI alike; then the
 * system project on its own, without coverage instrumentation slowing its timing-sensitive suites.
 */
export default defineConfig({
  resolve: { alias: packageNames },
  test: {
    testTimeout: 30_000,
    // A hook's first failure is also a process warning for users; the suite makes hundreds on purpose
    // (the tests that check the warning listen for it themselves).
    execArgv: ['--disable-warning=TOOLHOOKS_HOOK_FAILED'],
    hookTimeout: 60_000,
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'coverage',
      reportOnFailure: true,
      // The floor: measured 97.7% of lines and 90.1% of branches when it was last raised (from 93 / 84, with
      // a unit test for every module of src/ that has logic), less a margin for platform and timing
      // differences. Raise it as tests grow; never lower it to make a change pass.
      thresholds: { lines: 96, branches: 89 },
    },
    projects: [
      // isolate: false — the unit files share one module graph per worker instead of loading src/ and the
      // OTel SDK again for each file (most of the tier's time); test/support/tracing.ts re-installs the
      // context manager a file may have unregistered. maxWorkers: 1 — that graph is then loaded once, not
      // once per worker: about 2 s less CPU for the tier on the shared 2-core machine, where a second
      // worker also won no wall time (measured side by side at load 17: 11–12 s of CPU against 13.5–15.5).
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false, maxWorkers: 1, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], exclude: STRANDS_LANE, sequence: { groupOrder: 1 } },
      },
      // `@strands-agents/sdk` resolves to test/strands/ (tsconfig.json `paths`, installed by scripts/install-strands.sh).
      { extends: true, test: { name: 'strands', include: STRANDS_LANE, sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: { name: 'system', include: ['test/system/**/*.test.ts'], exclude: ['test/system/pipeline/**'], sequence: { groupOrder: 2 } },
      },
      {
        extends: true,
        resolve: {
          alias: [
            { find: /^@opentelemetry\/api$/, replacement: sdk2('api') },
            { find: /^@opentelemetry\/api-logs$/, replacement: sdk2('api-logs') },
            { find: /^@opentelemetry\/context-async-hooks$/, replacement: sdk2('context-async-hooks') },
            { find: /^@opentelemetry\/core$/, replacement: sdk2('core') },
            { find: /^@opentelemetry\/resources$/, replacement: sdk2('resources') },
            { find: /^@opentelemetry\/sdk-logs$/, replacement: sdk2('sdk-logs') },
            { find: /^@opentelemetry\/sdk-metrics$/, replacement: sdk2('sdk-metrics') },
            // The SDK 2 line's tracing package as apps use it: BasicTracerProvider, processors taking the exporter.
            { find: /^@opentelemetry\/sdk-trace$/, replacement: sdk2('sdk-trace-base') },
          ],
        },
        test: { name: 'sdk2', include: SDK2_LANE, env: { TOOLHOOKS_SDK_LINE: '2' }, sequence: { groupOrder: 3 } },
      },
      {
        extends: true,
        test: { name: 'pipeline', include: ['test/system/pipeline/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 4 } },
      },
      ...matrixProjects(process.env['TOOLHOOKS_MATRIX']),
    ],
  },
});
