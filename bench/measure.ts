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
