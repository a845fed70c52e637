/**
 * A focused side-by-side of one SDK scenario for one or more compiled builds in one process:
 * `node --expose-gc --import tsx bench/focus.ts [--scenario sdk.dropped-root] [--pairs 300] [--calls 2000] [--cold] [--profile file] <dist dir>...`
 *
 * Each build first runs every no-SDK and SDK scenario for a while (so that its call sites are as shared,
 * and as polymorphic, as in the full `npm run bench`; `--cold` leaves that out, for a steadier reading of
 * the scenario alone), then the scenario of each build is timed against its hand-written baseline with
 * `samplePaired` (alternating short batches, wall clock); the report is the median of the per-pair ratios,
 * with the quartiles. Meant for comparing a change against the build before it; the figures to publish
 * still come from `npm run bench`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadLibrary } from './library.js';
import { samplePaired } from './measure.js';
import type { Scenario } from './scenarios.js';
import { noSdkScenarios, sdkScenarios } from './scenarios.js';
import { installTracingSdk } from './sdk.js';
import { loadGuards } from './guarded.js';

interface FocusOptions {
  scenario: string;
  pairs: number;
  calls: number;
  cold: boolean;
  /** Write a CPU profile of the scenario's own calls (after the side-by-side) to this file. */
  profile: string | undefined;
  dirs: string[];
}

function parse(argv: readonly string[]): FocusOptions {
  const options: FocusOptions = { scenario: 'sdk.dropped-root', pairs: 300, calls: 2_000, cold: false, profile: undefined, dirs: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    const next = (): string => {
      const value = argv[(index += 1)];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === '--scenario') options.scenario = next();
    else if (arg === '--pairs') options.pairs = Number(next());
    else if (arg === '--cold') options.cold = true;
    else if (arg === '--calls') options.calls = Number(next());
    else if (arg === '--profile') options.profile = next();
    else options.dirs.push(arg);
  }
  if (options.dirs.length === 0) options.dirs.push('bench/.dist');
  return options;
}

async function run(call: () => Promise<unknown>, calls: number): Promise<void> {
  for (let index = 0; index < calls; index += 1) await call();
}

async function warm(scenarios: readonly Scenario[], calls: number): Promise<void> {
  for (const scenario of scenarios) await run(scenario.call, calls);
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const libs = await Promise.all(options.dirs.map((dir) => loadLibrary('dist', dir)));
  if (!options.cold) for (const lib of libs) await warm(noSdkScenarios(lib), 20_000);
  installTracingSdk();
  const guards = await Promise.all(options.dirs.map((dir) => loadGuards('dist', dir)));
  const sets = libs.map((lib, i) => sdkScenarios(lib, guards[i]));
  if (!options.cold) for (const set of sets) await warm(set, 10_000);
  const picked = sets.map((set) => {
    const own = set.find((s) => s.id === options.scenario);
    const base = set.find((s) => s.id === own?.baseline);
    if (own === undefined || base === undefined) throw new Error(`no scenario ${options.scenario} with a baseline`);
    return { own, base };
  });
  // Each build's pairs in turn, in short runs, so that a disturbed minute does not fall on one build alone.
  const slices = 10;
  const perSlice = Math.max(1, Math.round(options.pairs / slices));
  const found = picked.map(() => ({ ratios: [] as number[], owns: [] as number[] }));
  for (let slice = 0; slice < slices; slice += 1) {
    const order = slice % 2 === 0 ? picked.map((_, i) => i) : picked.map((_, i) => picked.length - 1 - i);
    for (const i of order) {
      const { own, base } = picked[i] as (typeof picked)[number];
      const stats = await samplePaired(own.call, base.call, { pairs: perSlice, calls: options.calls });
      found[i]?.ratios.push(stats.ratio);
      found[i]?.owns.push(stats.ownNs);
    }
  }
  if (options.profile !== undefined) {
    // The first build's scenario alone, after everything above: its call sites as warm as in the run.
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    await session.post('Profiler.start');
    await run((picked[0] as (typeof picked)[number]).own.call, options.pairs * options.calls);
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(options.profile, JSON.stringify(profile));
    session.disconnect();
  }
  options.dirs.forEach((dir, i) => {
    const { ratios, owns } = found[i] as (typeof found)[number];
    process.stdout.write(
      `${dir}: ${options.scenario} ${median(ratios).toFixed(3)}× (slices ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}), ` +
        `${median(owns).toFixed(0)} ns/call\n`,
    );
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
