/**
 * A focused side-by-side of one SDK scenario for one or more compiled builds in one process:
 * `node --expose-gc --import tsx bench/focus.ts [--scenario sdk.dropped-root] [--rounds 40] [--calls 20000] [--profile file] <dist dir>...`
 *
 * Each build first runs every no-SDK and SDK scenario for a while (so that its call sites are as shared,
 * and as polymorphic, as in the full `npm run bench`), then the scenario of each build and its
 * hand-written baseline run in alternating short batches; the report is the median of the per-round
 * ratios of main-thread CPU time, with the quartiles. Meant for comparing a change against the build before it under a shared,
 * loaded machine, where the full benchmark's rounds are long enough to be disturbed; the figures to
 * publish still come from `npm run bench`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadLibrary } from './library.js';
import type { Scenario } from './scenarios.js';
import { noSdkScenarios, sdkScenarios } from './scenarios.js';
import { installTracingSdk } from './sdk.js';

interface FocusOptions {
  scenario: string;
  rounds: number;
  calls: number;
  /** Write a CPU profile of the scenario's own calls (after the side-by-side) to this file. */
  profile: string | undefined;
  dirs: string[];
}

function parse(argv: readonly string[]): FocusOptions {
  const options: FocusOptions = { scenario: 'sdk.dropped-root', rounds: 40, calls: 20_000, profile: undefined, dirs: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    const next = (): string => {
      const value = argv[(index += 1)];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      return value;
    };
    if (arg === '--scenario') options.scenario = next();
    else if (arg === '--rounds') options.rounds = Number(next());
    else if (arg === '--calls') options.calls = Number(next());
    else if (arg === '--profile') options.profile = next();
    else options.dirs.push(arg);
  }
  if (options.dirs.length === 0) options.dirs.push('bench/.dist');
  return options;
}

/**
 * The main thread's CPU time per call (ns): unlike the wall clock it leaves out the time the thread
 * waited for a core, which on a shared machine is most of the noise.
 */
async function batch(call: () => Promise<unknown>, calls: number): Promise<number> {
  const started = process.threadCpuUsage();
  for (let index = 0; index < calls; index += 1) await call();
  const used = process.threadCpuUsage(started);
  return ((used.user + used.system) * 1e3) / calls;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function warm(scenarios: readonly Scenario[], calls: number): Promise<void> {
  for (const scenario of scenarios) await batch(scenario.call, calls);
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  const libs = await Promise.all(options.dirs.map((dir) => loadLibrary('dist', dir)));
  for (const lib of libs) await warm(noSdkScenarios(lib), 20_000);
  installTracingSdk();
  const sets = libs.map((lib) => sdkScenarios(lib));
  for (const set of sets) await warm(set, 10_000);
  const picked = sets.map((set) => {
    const own = set.find((s) => s.id === options.scenario);
    const base = set.find((s) => s.id === own?.baseline);
    if (own === undefined || base === undefined) throw new Error(`no scenario ${options.scenario} with a baseline`);
    return { own, base };
  });
  const ratios: number[][] = picked.map(() => []);
  const times: number[][] = picked.map(() => []);
  for (let round = 0; round < options.rounds; round += 1) {
    const order = round % 2 === 0 ? picked.map((_, i) => i) : picked.map((_, i) => picked.length - 1 - i);
    for (const i of order) {
      const { own, base } = picked[i] as (typeof picked)[number];
      // Baseline and scenario back to back, in alternating order, so that a disturbed moment hits both.
      const first = round % 4 < 2;
      const a = first ? await batch(base.call, options.calls) : 0;
      const t = await batch(own.call, options.calls);
      const b = first ? a : await batch(base.call, options.calls);
      ratios[i]?.push(t / b);
      times[i]?.push(t);
    }
  }
  if (options.profile !== undefined) {
    // The first build's scenario alone, after everything above: its call sites as warm and shared as in the run.
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 50 });
    await session.post('Profiler.start');
    for (let round = 0; round < options.rounds; round += 1) await batch((picked[0] as (typeof picked)[number]).own.call, options.calls);
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(options.profile, JSON.stringify(profile));
    session.disconnect();
  }
  options.dirs.forEach((dir, i) => {
    const r = ratios[i] as number[];
    process.stdout.write(
      `${dir}: ${options.scenario} ${quantile(r, 0.5).toFixed(3)}× (IQR ${quantile(r, 0.25).toFixed(3)}–${quantile(r, 0.75).toFixed(3)}), ` +
        `${quantile(times[i] as number[], 0.5).toFixed(0)} ns/call\n`,
    );
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
