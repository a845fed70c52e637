#!/usr/bin/env node
// The version matrix (test/versions.json): for each entry, its oldest and newest points. A point in the
// lane `matrix` is installed into test/versions/<entry>-<point>/ (its exact versions, lockfile-less,
// skipped when that folder already holds them) and the entry's tests run against it (vitest project
// `matrix`, TOOLHOOKS_MATRIX=<entry>:<point>; a tsx child the tests start takes the point's tsconfig.json,
// written here). A point in the lane `root`, `sdk2` or `strands` is run by the normal tiers (`npm test`) and
// only listed here. Prints one line per point and a summary with times; exits 1 when a point failed.
//
// Usage: node scripts/test-versions.mjs [--list] [--registry] [<entry>[:oldest|:newest] ...]
//   --list      print the points and where each runs; install and run nothing
//   --registry  ask the npm registry for the oldest and newest release in each supported range and
//               report the points that are not those (a maintenance check; nothing is run)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { entries } = JSON.parse(readFileSync(join(root, 'test/versions.json'), 'utf8'));
const args = process.argv.slice(2);
const flags = new Set(args.filter((arg) => arg.startsWith('--')));
const selectors = args.filter((arg) => !arg.startsWith('--'));
for (const flag of flags) {
  if (flag !== '--list' && flag !== '--registry') {
    console.error(`test-versions: unknown option ${flag} (usage: node scripts/test-versions.mjs [--list] [--registry] [<entry>[:oldest|:newest] ...])`);
    process.exit(2);
  }
}

/** The points selected on the command line (all without selectors), in the data file's order. */
function selectedPoints() {
  const points = [];
  for (const entry of entries) {
    for (const point of ['oldest', 'newest']) {
      if (selectors.length === 0 || selectors.some((s) => s === entry.id || s === `${entry.id}:${point}`)) points.push({ entry, point, spec: entry[point] });
    }
  }
  const unknown = selectors.filter((s) => !entries.some((entry) => s === entry.id || s === `${entry.id}:oldest` || s === `${entry.id}:newest`));
  if (unknown.length > 0) {
    console.error(`test-versions: no such point: ${unknown.join(', ')} (entries: ${entries.map((entry) => entry.id).join(', ')})`);
    process.exit(2);
  }
  return points;
}

/** The versions a point pins, by package name. */
const versionsOf = (spec) => spec.install ?? spec.versions ?? {};
/** A point's versions. */
const describe = (spec) => Object.entries(versionsOf(spec)).map(([name, version]) => `${name}@${version}`).join(' ');

/** Installs a matrix point into its lane folder, unless that folder holds exactly these versions already. */
function install(dir, spec) {
  const wanted = JSON.stringify(spec.install);
  const stamp = join(dir, 'node_modules', '.toolhooks-matrix.json');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return 'cached';
  mkdirSync(dir, { recursive: true });
  const name = `toolhooks-matrix-${relative(join(root, 'test/versions'), dir)}`.replace(/[^a-z0-9-]/g, '-');
  const description = 'One point of the version matrix (test/versions.json), written by scripts/test-versions.mjs.';
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name, private: true, description, dependencies: spec.install }, null, 2)}\n`);
  // --legacy-peer-deps: the framework's peers (zod, @opentelemetry/api, …) are not installed again here;
  // they resolve to the main project's, as an app has one copy of each.
  const npm = spawnSync(
    'npm',
    ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '--legacy-peer-deps', '--no-package-lock', '--loglevel=error'],
    { stdio: 'inherit' },
  );
  if (npm.status !== 0) return 'failed';
  writeFileSync(stamp, wanted);
  return 'installed';
}

/**
 * Writes the point's tsconfig.json, for the processes its tests start with `tsx` (the Strands example),
 * which resolve a package named in tsconfig.json `paths` through those paths, out of the reach of the
 * matrix's Vite aliases; the vitest project `matrix` hands it to them (TSX_TSCONFIG_PATH). It extends
 * tsconfig.json and repeats its `paths` (an extending file's `paths` replaces them all, relative to itself),
 * those of a package the point installs (the package, a subpath or a `*` pattern) re-pointed from the
 * lane's copy (`…/node_modules/<package>/<file>`) to the same file in the point's node_modules. Returns why
 * it could not, or undefined.
 */
function writeTsconfig(dir, spec) {
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  const toPosix = (path) => path.split(sep).join(posix.sep);
  const paths = {};
  for (const [name, targets] of Object.entries(compilerOptions.paths ?? {})) {
    const installed = Object.keys(spec.install).find((pkg) => name === pkg || name.startsWith(`${pkg}/`));
    paths[name] = [];
    for (const target of targets) {
      if (installed === undefined) {
        paths[name].push(toPosix(relative(dir, join(root, target))));
        continue;
      }
      const at = target.lastIndexOf(`node_modules/${installed}/`);
      if (at === -1) return `tsconfig.json maps ${name} to ${target}, not into an install of ${installed}`;
      const repointed = `./${target.slice(at)}`;
      // A `*` pattern (a subpath mapping) is checked up to its wildcard.
      if (!existsSync(join(dir, repointed.split('*')[0] ?? ''))) return `tsconfig.json maps ${name} to ${target}; ${relative(root, join(dir, repointed))} is not in the point's install`;
      paths[name].push(repointed);
    }
  }
  const tsconfig = { extends: toPosix(relative(dir, join(root, 'tsconfig.json'))), compilerOptions: { paths } };
  writeFileSync(join(dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
  return undefined;
}

/** The oldest and newest releases (no pre-releases) the registry serves in a range. */
function registryBounds(name, range) {
  const npm = spawnSync('npm', ['view', `${name}@${range}`, 'version', '--json'], { encoding: 'utf8' });
  if (npm.status !== 0) return undefined;
  const parsed = JSON.parse(npm.stdout);
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => !v.includes('-'));
  const key = (v) => v.split('.').map(Number);
  versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return { oldest: versions[0], newest: versions.at(-1) };
}

const points = selectedPoints();

if (flags.has('--registry')) {
  let drift = 0;
  for (const entry of entries) {
    for (const [name, range] of Object.entries(entry.peers)) {
      const bounds = registryBounds(name, range);
      if (bounds === undefined) {
        console.log(`${entry.id}: ${name}@${range}: the registry did not answer`);
        drift++;
        continue;
      }
      for (const point of ['oldest', 'newest']) {
        const tested = versionsOf(entry[point])[name];
        const mark = tested === bounds[point] ? 'ok' : `the registry's ${point} is ${bounds[point]}`;
        if (tested !== bounds[point]) drift++;
        console.log(`${entry.id}:${point}  ${name}@${tested ?? '(not pinned)'}  ${mark}`);
      }
    }
  }
  process.exit(drift === 0 ? 0 : 1);
}

const results = [];
for (const { entry, point, spec } of points) {
  const label = `${entry.id}:${point}`;
  if (spec.lane !== 'matrix') {
    const where = spec.lane === 'root' ? 'the normal tiers' : `the ${spec.lane} lane`;
    console.log(`${label}  ${describe(spec)}  runs in ${where} (npm test)`);
    results.push({ label, outcome: `in ${spec.lane}`, seconds: 0 });
    continue;
  }
  if (flags.has('--list')) {
    console.log(`${label}  ${describe(spec)}  matrix lane test/versions/${entry.id}-${point}`);
    continue;
  }
  console.log(`\n=== ${label}: ${describe(spec)}`);
  const started = performance.now();
  const dir = join(root, 'test/versions', `${entry.id}-${point}`);
  const installed = install(dir, spec);
  const installSeconds = (performance.now() - started) / 1000;
  const unwritten = installed === 'failed' ? undefined : writeTsconfig(dir, spec);
  if (unwritten !== undefined) console.error(`test-versions: ${label}: ${unwritten}`);
  if (installed === 'failed' || unwritten !== undefined) {
    results.push({ label, outcome: 'install failed', seconds: installSeconds });
    continue;
  }
  const vitest = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'matrix'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TOOLHOOKS_MATRIX: label },
  });
  const seconds = (performance.now() - started) / 1000;
  results.push({ label, outcome: vitest.status === 0 ? 'passed' : 'FAILED', seconds, install: `${installed} ${installSeconds.toFixed(1)}s` });
}

if (!flags.has('--list')) {
  console.log('\nversion matrix:');
  for (const { label, outcome, seconds, install: how } of results) {
    console.log(`  ${label.padEnd(30)} ${outcome.padEnd(16)} ${seconds > 0 ? `${seconds.toFixed(1)}s` : ''}${how ? ` (install ${how})` : ''}`);
  }
  const total = results.reduce((sum, { seconds }) => sum + seconds, 0);
  console.log(`  total ${total.toFixed(1)}s`);
  if (results.some(({ outcome }) => outcome === 'FAILED' || outcome === 'install failed')) process.exit(1);
}
