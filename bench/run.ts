/**
 * toolhooks overhead benchmark: `npm run bench [-- options]`.
 *
 *   --json [file]        also write machine-readable results (default file: bench-results.json)
 *   --compare <file>     print the change of each scenario against an earlier --json file
 *   --filter <text>      only scenarios whose id contains text (their baselines always run); `--filter policy`
 *                        runs the policy rows (toolhooks/policy), which no other run includes
 *   --rounds <n>         rounds per setting (default 5); scenario order alternates between rounds
 *   --time <ms>          sampling time per scenario per round (default 400)
 *   --quick              1 round of 50 ms, small heap and throughput windows: checks that it runs
 *   --src                measure src/ through tsx instead of the tsc build in bench/.dist
 *   --dist <dir>         measure another compiled tree (e.g. an older revision's tsc output) with this harness
 *   --gc-between         force a full GC before each scenario of each round (see docs/performance.md)
 *
 * See docs/performance.md for the method.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release } from 'node:os';
import type { Call, HeapStats, PairedOptions, SamplingOptions, TimeStats } from './measure.js';
import { measureHeap, measureThroughput, samplePaired, sampleRound, summarise } from './measure.js';
import type { Build } from './library.js';
import { loadLibrary } from './library.js';
import type { Scenario } from './scenarios.js';
import { REFERENCES, noSdkScenarios, sdkScenarios } from './scenarios.js';
import { policyScenarios } from './policy.js';
import { loadGuards } from './guarded.js';
import type { TracingSdk } from './sdk.js';
import { closeLimitBench } from './limits.js';
import { installTracingSdk } from './sdk.js';
import { recordShapes, spanCounts } from './spans.js';

interface Options {
  json: string | undefined;
  compare: string | undefined;
  filter: string | undefined;
  rounds: number;
  timeMs: number;
  quick: boolean;
  build: Build;
  gcBetween: boolean;
  distDir: string | undefined;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { json: undefined, compare: undefined, filter: undefined, rounds: 5, timeMs: 400, quick: false, build: 'dist', gcBetween: false, distDir: undefined };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    const next = argv[index + 1];
    const value = (): string => {
      if (next === undefined || next.startsWith('--')) throw new Error(`${arg} needs a value`);
      index += 1;
      return next;
    };
    switch (arg) {
      case '--json':
        if (next !== undefined && !next.startsWith('--')) {
          options.json = next;
          index += 1;
        } else options.json = 'bench-results.json';
        break;
      case '--compare':
        options.compare = value();
        break;
      case '--filter':
        options.filter = value();
        break;
      case '--rounds':
        options.rounds = Number(value());
        break;
      case '--time':
        options.timeMs = Number(value());
        break;
      case '--quick':
        options.quick = true;
        break;
      case '--src':
        options.build = 'src';
        break;
      case '--dist':
        options.distDir = value();
        break;
      case '--gc-between':
        options.gcBetween = true;
        break;
      default:
        throw new Error(`unknown option ${arg}; see the header of bench/run.ts`);
    }
  }
  if (options.quick) {
    options.rounds = 1;
    options.timeMs = 50;
  }
  return options;
}

/** One scenario's results, as written to JSON. */
export interface ScenarioResult extends TimeStats {
  readonly id: string;
  readonly label: string;
  readonly baseline: string | undefined;
  readonly ratio: number | undefined;
  readonly ratioMin: number | undefined;
  readonly ratioMax: number | undefined;
  /** How the ratio was measured: pooled over the rounds, or side by side (`samplePaired`; min–max is then the pairs' quartiles). */
  readonly ratioMethod: 'rounds' | 'paired' | undefined;
  readonly addedNs: number | undefined;
  readonly heap: HeapStats | undefined;
  readonly spans: string | undefined;
  readonly target: string | undefined;
  readonly met: boolean | undefined;
}

interface Throughput {
  readonly id: string;
  readonly concurrency: number;
  readonly callsPerSecond: number;
  readonly spansExported: number;
  readonly spansExpected: number;
}

interface Results {
  readonly node: string;
  readonly v8: string;
  readonly cpu: string;
  readonly cores: number;
  readonly os: string;
  readonly date: string;
  /** The machine's 1-, 5- and 15-minute load averages at the start and at the end of the run. */
  readonly loadAverage: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly build: Build;
  readonly settings: { rounds: number; timeMs: number; batch: number; gcBetween: boolean; pairs: number; pairCalls: number };
  readonly scenarios: ScenarioResult[];
  readonly throughput: Throughput[];
}

const log = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

async function measureSetting(
  scenarios: readonly Scenario[],
  options: Options,
  sampling: SamplingOptions,
  pairing: PairedOptions,
  heapCalls: number,
  settle: () => Promise<void>,
  sdk: TracingSdk | undefined,
): Promise<ScenarioResult[]> {
  const pooled = new Map<string, number[]>(scenarios.map((s) => [s.id, []]));
  const perRound: Map<string, number>[] = [];
  for (let round = 0; round < options.rounds; round += 1) {
    // Alternating the order cancels most of the advantage of running first (or last) in a round.
    const ordered = round % 2 === 0 ? scenarios : [...scenarios].reverse();
    const calls = new Map<string, Call>(ordered.map((s) => [s.id, s.call]));
    const samples = await sampleRound(calls, { ...sampling, warmupMs: round === 0 ? sampling.warmupMs : 0 });
    const medians = new Map<string, number>();
    for (const [id, values] of samples) {
      pooled.get(id)?.push(...values);
      medians.set(id, summarise(values).medianNs);
    }
    perRound.push(medians);
    process.stderr.write(`  round ${round + 1}/${options.rounds} done\n`);
  }
  const stats = new Map([...pooled].map(([id, values]) => [id, summarise(values)]));
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const own = stats.get(scenario.id) as TimeStats;
    const base = scenario.baseline === undefined ? undefined : stats.get(scenario.baseline);
    const baseCall = scenario.baseline === undefined ? undefined : scenarios.find((s) => s.id === scenario.baseline)?.call;
    const paired = scenario.paired === true && baseCall !== undefined ? await samplePaired(scenario.call, baseCall, pairing) : undefined;
    let ratio = base === undefined ? undefined : own.medianNs / base.medianNs;
    let addedNs = base === undefined ? undefined : own.medianNs - base.medianNs;
    let roundRatios =
      scenario.baseline === undefined
        ? []
        : perRound.map((m) => (m.get(scenario.id) as number) / (m.get(scenario.baseline as string) as number));
    if (paired !== undefined) {
      ratio = paired.ratio;
      addedNs = paired.ownNs - paired.baseNs;
      roundRatios = [paired.p25, paired.p75];
    }
    const heap = scenario.heap === false ? undefined : await measureHeap(scenario.call, heapCalls, settle);
    const spans = sdk === undefined ? undefined : spanCounts(await recordShapes(sdk, scenario.call, 4), 4);
    let target: string | undefined;
    let met: boolean | undefined;
    if (scenario.target?.maxRatio !== undefined && ratio !== undefined) {
      target = `≤ ${scenario.target.maxRatio}×`;
      met = ratio <= scenario.target.maxRatio;
    } else if (scenario.target?.maxAddedNs !== undefined && addedNs !== undefined) {
      target = `≤ +${scenario.target.maxAddedNs} ns`;
      met = addedNs <= scenario.target.maxAddedNs;
    }
    if (scenario.id.includes('no-hook-invoked') && spans !== undefined) {
      target = 'no phase span';
      met = !spans.includes('toolhooks.before_tool');
    }
    results.push({
      id: scenario.id,
      label: scenario.label,
      ...own,
      baseline: scenario.baseline,
      ratio,
      ratioMin: roundRatios.length === 0 ? undefined : Math.min(...roundRatios),
      ratioMax: roundRatios.length === 0 ? undefined : Math.max(...roundRatios),
      ratioMethod: ratio === undefined ? undefined : paired === undefined ? 'rounds' : 'paired',
      addedNs,
      heap,
      spans,
      target,
      met,
    });
  }
  return results;
}

function fmtLoad(load: readonly number[]): string {
  return load.map((value) => value.toFixed(2)).join(' ');
}

function fmtNs(ns: number): string {
  return ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : ns >= 1000 ? `${(ns / 1000).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;
}

function printTable(results: readonly ScenarioResult[]): void {
  const rows = results.map((r) => [
    r.id,
    fmtNs(r.medianNs),
    `±${(((r.p75Ns - r.p25Ns) / 2 / r.medianNs) * 100).toFixed(1)}%`,
    r.ratio === undefined ? '' : `${r.ratio.toFixed(3)}× (${(r.ratioMin ?? 0).toFixed(2)}–${(r.ratioMax ?? 0).toFixed(2)}${r.ratioMethod === 'paired' ? ' paired' : ''})`,
    r.addedNs === undefined ? '' : `${r.addedNs >= 0 ? '+' : ''}${fmtNs(r.addedNs)}`,
    r.heap === undefined ? '-' : `${Math.round(r.heap.allocatedBytes)}`,
    r.heap === undefined ? '-' : `${Math.round(r.heap.retainedBytes)}`,
    r.target === undefined ? '' : `${r.target} ${r.met === true ? 'met' : 'MISSED'}`,
  ]);
  const header = ['scenario', 'median/call', 'IQR/2', 'ratio (rounds)', 'added', 'alloc B', 'kept B', 'target'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ');
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) log(line(row));
}

function compare(previous: Results, current: Results): void {
  log(`\nCompared with ${previous.date} (node ${previous.node}, ${previous.cpu}):`);
  for (const now of current.scenarios) {
    const before = previous.scenarios.find((s) => s.id === now.id);
    if (before === undefined) {
      log(`  ${now.id}: new`);
      continue;
    }
    const change = ((now.medianNs - before.medianNs) / before.medianNs) * 100;
    const ratios =
      now.ratio === undefined || before.ratio === undefined ? '' : `; ratio ${before.ratio.toFixed(3)}× → ${now.ratio.toFixed(3)}×`;
    log(`  ${now.id.padEnd(28)} ${fmtNs(before.medianNs)} → ${fmtNs(now.medianNs)} (${change >= 0 ? '+' : ''}${change.toFixed(1)}%)${ratios}`);
  }
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if ((globalThis as { gc?: unknown }).gc === undefined) {
    throw new Error('run with --expose-gc (npm run bench does): heap figures and clean rounds need it');
  }
  const sampling: SamplingOptions = { batch: 100, timeMs: options.timeMs, minSamples: options.quick ? 5 : 20, warmupMs: options.quick ? 20 : 300, gcBetween: options.gcBetween };
  // About 3 ms per batch of a sampled-out call, 300 pairs: two seconds a side, in alternation.
  const pairing: PairedOptions = options.quick ? { pairs: 10, calls: 200 } : { pairs: 300, calls: 2_000 };
  const heapCalls = options.quick ? 2_000 : 20_000;
  const cpu = cpus()[0]?.model ?? 'unknown';
  const loadStart = loadavg();
  log(`toolhooks benchmark — node ${process.version}, ${cpu}, ${cpus().length} cores, ${platform()} ${release()}, load average ${fmtLoad(loadStart)}`);
  const lib = await loadLibrary(options.build, options.distDir);
  log(`measuring ${options.build === 'src' ? 'src/ through tsx' : `the tsc build in ${options.distDir ?? 'bench/.dist'}`}; ${options.rounds} round(s) × ${options.timeMs} ms per scenario, ${sampling.batch} calls per sample\n`);

  const wanted = (all: Scenario[]): Scenario[] => {
    if (options.filter === undefined) return all;
    const keep = new Set(all.filter((s) => s.id.includes(options.filter as string)).map((s) => s.id));
    // A no-SDK reference of a wanted SDK scenario runs too (it is measured before the SDK is registered).
    for (const [id, reference] of Object.entries(REFERENCES)) if (id.includes(options.filter as string)) keep.add(reference);
    for (const s of all) if (keep.has(s.id) && s.baseline !== undefined) keep.add(s.baseline);
    return all.filter((s) => keep.has(s.id));
  };

  const results: ScenarioResult[] = [];
  // The policy rows run only when asked for (`--filter policy`): they load the engines' wasm packages (and
  // compile Rego with the opa CLI), which the overhead run of the core does not need.
  const policy = options.filter !== undefined && options.filter.startsWith('policy')
    ? await policyScenarios(lib, options.build, options.distDir)
    : { scenarios: [], notes: [] };
  const noSdk = wanted([...noSdkScenarios(lib), ...policy.scenarios]);
  if (noSdk.length > 0) {
    process.stderr.write('no SDK registered:\n');
    results.push(...(await measureSetting(noSdk, options, sampling, pairing, heapCalls, async () => undefined, undefined)));
  }

  const sdk = installTracingSdk();
  const sdkSet = wanted(sdkScenarios(lib, await loadGuards(options.build, options.distDir)));
  const throughput: Throughput[] = [];
  if (sdkSet.length > 0) {
    process.stderr.write('tracing SDK registered:\n');
    results.push(...(await measureSetting(sdkSet, options, sampling, pairing, heapCalls, () => sdk.flush(), sdk)));
    for (const scenario of sdkSet.filter((s) => s.id.startsWith('sdk.hooks-2'))) {
      for (const concurrency of [1, 32]) {
        const before = sdk.exporter.exported;
        const run = await measureThroughput(scenario.call, options.quick ? 100 : 1_000, concurrency, () => sdk.flush());
        throughput.push({
          id: scenario.id,
          concurrency,
          callsPerSecond: run.callsPerSecond,
          spansExported: sdk.exporter.exported - before,
          spansExpected: run.calls * 3,
        });
      }
    }
  }

  log('');
  printTable(results);
  log('\nIQR/2: half the interquartile range of the per-sample means, relative to the median.');
  log('ratio: median / baseline median, pooled over rounds (min–max of the per-round ratios);');
  log(`  "paired": total time / baseline total time over ${pairing.pairs} pairs of alternating ${pairing.calls}-call batches timed side by side,`);
  log("  the slowest 5 % of pairs left out (in brackets: the quartiles of the per-pair ratios).");
  log('alloc B / kept B: heap bytes allocated / still reachable after a full GC, per call.\n');
  for (const r of results.filter((x) => x.spans !== undefined)) log(`spans per call, ${r.id}: ${r.spans}`);
  for (const note of policy.notes) log(note);
  for (const scenario of [...noSdk, ...sdkSet].filter((s) => s.reference !== undefined)) {
    const own = results.find((r) => r.id === scenario.id);
    const reference = results.find((r) => r.id === scenario.reference);
    if (own === undefined || reference === undefined) continue;
    log(
      `${scenario.id} against ${reference.id} (measured before the SDK was registered): ` +
        `${fmtNs(own.medianNs)} / ${fmtNs(reference.medianNs)} = ${(own.medianNs / reference.medianNs).toFixed(2)}×`,
    );
  }
  if (throughput.length > 0) {
    log('\nExport throughput (BatchSpanProcessor exporting to a discarding exporter):');
    for (const t of throughput) {
      log(
        `  ${t.id.padEnd(16)} ${String(t.concurrency).padStart(2)} in flight: ${Math.round(t.callsPerSecond).toLocaleString('en')} calls/s, ` +
          `${t.spansExported.toLocaleString('en')} of ${t.spansExpected.toLocaleString('en')} spans exported`,
      );
    }
  }
  const loadEnd = loadavg();
  log(`\nload average at the end: ${fmtLoad(loadEnd)}`);
  const current: Results = {
    node: process.version,
    v8: process.versions.v8,
    cpu,
    cores: cpus().length,
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
    loadAverage: { start: loadStart, end: loadEnd },
    build: options.build,
    settings: { rounds: options.rounds, timeMs: options.timeMs, batch: sampling.batch, gcBetween: options.gcBetween, pairs: pairing.pairs, pairCalls: pairing.calls },
    scenarios: results,
    throughput,
  };
  if (options.json !== undefined) {
    writeFileSync(options.json, `${JSON.stringify(current, null, 2)}\n`);
    log(`\nwrote ${options.json}`);
  }
  if (options.compare !== undefined) compare(JSON.parse(readFileSync(options.compare, 'utf8')) as Results, current);
  await sdk.provider.shutdown();
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  // The Redis rows' client (BENCH_REDIS_URL) would keep the process alive.
  .finally(closeLimitBench);
