/**
 * How the benchmark measures: time per call (tinybench samples of batched calls), heap bytes per call
 * (V8's GC profiler) and throughput with export running.
 */
import { GCProfiler, getHeapStatistics } from 'node:v8';
import { Bench } from 'tinybench';

/** A call under measurement. */
export type Call = () => Promise<unknown>;

/** Sampling settings. */
export interface SamplingOptions {
  /** Calls per sample: one sample is the mean time per call over a batch, so timer cost is amortised. */
  readonly batch: number;
  /** Time budget per scenario per round, ms. */
  readonly timeMs: number;
  /** Minimum samples per scenario per round. */
  readonly minSamples: number;
  /** Warm-up budget per scenario, ms (the first round only; 0 = none). */
  readonly warmupMs: number;
  /**
   * Force a full GC before each scenario. Off by default: forced full GCs were seen to deoptimise the
   * hot no-SDK path for good (see docs/performance.md), which a steady process does not do.
   */
  readonly gcBetween?: boolean;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc !== undefined) gc();
}

/**
 * One round: each call in turn, sampled by tinybench; returns the per-call times (ns), one per batch.
 * Rounds alternate the order of the scenarios, so the garbage one leaves for the next evens out.
 */
export async function sampleRound(calls: ReadonlyMap<string, Call>, options: SamplingOptions): Promise<Map<string, number[]>> {
  const bench = new Bench({
    time: options.timeMs,
    iterations: options.minSamples,
    warmup: options.warmupMs > 0,
    warmupTime: options.warmupMs,
    warmupIterations: 4,
    retainSamples: true,
    throws: true,
    ...(options.gcBetween === true ? { setup: collectGarbage } : {}),
  });
  const { batch } = options;
  for (const [id, call] of calls) {
    bench.add(
      id,
      async () => {
        const started = performance.now();
        for (let index = 0; index < batch; index += 1) await call();
        const elapsed = performance.now() - started;
        return { overriddenDuration: elapsed / batch, overriddenIterationCost: elapsed };
      },
      { async: true },
    );
  }
  await bench.run();
  const out = new Map<string, number[]>();
  for (const task of bench.tasks) {
    const result = task.result;
    if (result.state !== 'completed') {
      throw new Error(`scenario ${task.name} did not complete: ${result.state === 'errored' ? result.error.message : result.state}`);
    }
    out.set(task.name, Array.from(result.latency.samples ?? [], (ms) => ms * 1e6));
  }
  return out;
}

/** Summary of per-call times. */
export interface TimeStats {
  readonly medianNs: number;
  readonly p25Ns: number;
  readonly p75Ns: number;
  /** Relative margin of error of the mean, 95 %, in percent. */
  readonly rmePct: number;
  readonly samples: number;
}

/** Linear-interpolated quantile of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

/** Median, quartiles and margin of error of per-call samples. */
export function summarise(samples: readonly number[]): TimeStats {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / n;
  const variance = n > 1 ? sorted.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1) : 0;
  return {
    medianNs: quantile(sorted, 0.5),
    p25Ns: quantile(sorted, 0.25),
    p75Ns: quantile(sorted, 0.75),
    rmePct: n > 1 ? ((1.96 * Math.sqrt(variance / n)) / mean) * 100 : Number.NaN,
    samples: n,
  };
}

/** Two calls timed side by side: their ratio, the quartiles of the per-pair ratios, and each side's median. */
export interface PairedStats {
  /** Σ own / Σ base over the pairs, the most disturbed 5 % of pairs left out. */
  readonly ratio: number;
  /** Quartiles of the per-pair ratios. */
  readonly p25: number;
  readonly p75: number;
  /** Median time per call of each side, ns. */
  readonly ownNs: number;
  readonly baseNs: number;
  readonly pairs: number;
}

/** How many pairs of batches, and how many calls per batch. */
export interface PairedOptions {
  readonly pairs: number;
  readonly calls: number;
}

async function timeBatch(call: Call, calls: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < calls; index += 1) await call();
  return ((performance.now() - started) * 1e6) / calls;
}

/**
 * Times `own` against `base` side by side: short batches of each, back to back, in alternating order
 * (base–own, own–base, …), so that whatever disturbs the machine for a moment — another process, a
 * frequency change — lands on both sides of a pair alike. The ratio is of the two sides' total times,
 * without the 5 % of pairs that took longest (the moments another process had the core): a total, not a
 * median of per-pair ratios, because a young-generation GC falls in only some batches, and a median would
 * leave out the GC work that each side's allocations cause. Timed on the wall clock, whose resolution is
 * well under a batch: the thread CPU clock (`process.threadCpuUsage`) advances in scheduler ticks of 4 ms
 * here, as long as a whole batch.
 */
export async function samplePaired(own: Call, base: Call, options: PairedOptions): Promise<PairedStats> {
  const ratios: number[] = [];
  const owns: number[] = [];
  const bases: number[] = [];
  for (let pair = 0; pair < options.pairs; pair += 1) {
    const baseFirst = pair % 2 === 0;
    const b1 = baseFirst ? await timeBatch(base, options.calls) : 0;
    const t = await timeBatch(own, options.calls);
    const b = baseFirst ? b1 : await timeBatch(base, options.calls);
    ratios.push(t / b);
    owns.push(t);
    bases.push(b);
  }
  const kept = owns.map((_, i) => i).sort((x, y) => (owns[x] as number) + (bases[x] as number) - ((owns[y] as number) + (bases[y] as number)));
  kept.length = Math.max(1, Math.ceil(kept.length * 0.95));
  const total = (side: readonly number[]): number => kept.reduce((sum, i) => sum + (side[i] as number), 0);
  const sorted = ratios.sort((x, y) => x - y);
  return {
    ratio: total(owns) / total(bases),
    p25: quantile(sorted, 0.25),
    p75: quantile(sorted, 0.75),
    ownNs: summarise(owns).medianNs,
    baseNs: summarise(bases).medianNs,
    pairs: options.pairs,
  };
}

/** Heap bytes per call. */
export interface HeapStats {
  /** Bytes allocated per call: heap growth over the window plus everything GCs freed in it. */
  readonly allocatedBytes: number;
  /** Bytes still reachable per call after the calls, pending exports and a full GC. */
  readonly retainedBytes: number;
  /** GCs that ran inside the window. */
  readonly gcs: number;
}

/**
 * Heap bytes per call, counted with V8's GCProfiler: it reports the heap's used size before and after
 * every GC in the window, so allocated = (used at end − used at start) + Σ (before − after) over those
 * GCs, whatever the number of scavenges. Retained = used after a final flush and full GC − used at
 * start. Needs `--expose-gc` for the full GCs that bracket the window.
 */
export async function measureHeap(call: Call, calls: number, settle: () => Promise<void>): Promise<HeapStats> {
  for (let index = 0; index < Math.min(calls, 1_000); index += 1) await call();
  await settle();
  collectGarbage();
  collectGarbage();
  const profiler = new GCProfiler();
  profiler.start();
  const start = getHeapStatistics().used_heap_size;
  for (let index = 0; index < calls; index += 1) await call();
  const end = getHeapStatistics().used_heap_size;
  const profile = profiler.stop();
  let freed = 0;
  for (const gc of profile.statistics) {
    freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
  }
  await settle();
  collectGarbage();
  collectGarbage();
  const retained = getHeapStatistics().used_heap_size - start;
  return {
    allocatedBytes: (end - start + freed) / calls,
    retainedBytes: retained / calls,
    gcs: profile.statistics.length,
  };
}

/** Tool calls per second over `durationMs`, with `concurrency` calls in flight, including the final flush. */
export async function measureThroughput(
  call: Call,
  durationMs: number,
  concurrency: number,
  flush: () => Promise<void>,
): Promise<{ callsPerSecond: number; calls: number }> {
  await flush();
  collectGarbage();
  let calls = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      for (let index = 0; index < 32; index += 1) await call();
      calls += 32;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await flush();
  const elapsedS = (performance.now() - started) / 1000;
  return { callsPerSecond: calls / elapsedS, calls };
}
