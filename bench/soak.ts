/**
 * Heap soak: runs many executeTool calls (every decision kind, failing tools, failing hooks, capture on,
 * an observer) and samples `heapUsed` after a forced full GC across the run, then fits a least-squares
 * line through the samples taken after warm-up. A leak of even a few bytes per call shows as a slope of
 * kilobytes per 1,000 calls; a flat heap stays within noise of zero.
 *
 * The warm-up is long on purpose: the heap grows by ~100-150 KB over the first ~60k calls (V8 compiling
 * and optimising the hot paths) and then stays flat; sampling that part would read as a small leak.
 *
 * Run: node --expose-gc --import tsx bench/soak.ts [--calls=100000] [--warmup=50000] [--sdk=batch|none] [--leak] [--json]
 *   --calls      calls measured after the warm-up (default 100,000)
 *   --sdk=batch  a real SDK tracer provider with a BatchSpanProcessor and an exporter that discards (default)
 *   --sdk=none   no SDK: the OpenTelemetry API's no-op tracer, i.e. the library's own footprint
 *   --warmup     calls before the first sample (default 50,000)
 *   --leak       retain one small object per call, to check that the measurement catches a leak
 *   --json       print only the report, as one JSON line
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ExportResult } from '@opentelemetry/core';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import { TracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace';
import type { Outcome, ToolHook } from '../src/index.js';
import { HookRunner, abort, executeTool, redirect, skip } from '../src/index.js';

/** What one soak run measured. */
export interface SoakReport {
  readonly sdk: 'batch' | 'none';
  readonly leak: boolean;
  /** Calls measured after the warm-up. */
  readonly calls: number;
  readonly concurrency: number;
  readonly warmupCalls: number;
  /** Wall time of all calls, warm-up included. */
  readonly durationMs: number;
  readonly callsPerSecond: number;
  /** heapUsed after a forced GC, every `sampleEvery` calls after warm-up. */
  readonly samples: readonly { readonly calls: number; readonly heapUsed: number }[];
  readonly heapStart: number;
  readonly heapEnd: number;
  readonly heapMin: number;
  readonly heapMax: number;
  /** Least-squares slope of heapUsed over calls, in bytes per 1,000 calls. */
  readonly slopeBytesPer1kCalls: number;
  readonly spansExported: number;
  readonly outcomes: Readonly<Partial<Record<Outcome, number>>>;
}

/** Drops every span, counting them: the cheapest exporter that still runs the SDK's whole pipeline. */
class DiscardingSpanExporter implements SpanExporter {
  exported = 0;
  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exported += spans.length;
    resultCallback({ code: ExportResultCode.SUCCESS });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

class ToolFailure extends Error {
  override name = 'ToolFailure';
}

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

/** Least-squares slope of y over x. */
export function slope(points: readonly { readonly x: number; readonly y: number }[]): number {
  const n = points.length;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - meanX) * (p.y - meanY);
    den += (p.x - meanX) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run with node --expose-gc --import tsx bench/soak.ts');
  const measured = Number(option('calls') ?? 100_000);
  const sdk = option('sdk') === 'none' ? 'none' : 'batch';
  const leak = process.argv.includes('--leak');
  const json = process.argv.includes('--json');
  const concurrency = 50;
  const warmupCalls = Number(option('warmup') ?? 50_000);
  const calls = warmupCalls + measured;
  const sampleEvery = Math.max(concurrency, Math.floor(measured / 30 / concurrency) * concurrency);

  const exporter = new DiscardingSpanExporter();
  let provider: TracerProvider | undefined;
  if (sdk === 'batch') {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    provider = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] });
  }

  const outcomes: Partial<Record<Outcome, number>> = {};
  const retained: unknown[] = [];
  const kindOf = (args: Record<string, unknown>): number => Number(args.n) % 10;
  const policy: ToolHook = {
    name: 'policy',
    async beforeTool(_tool, args) {
      switch (kindOf(args)) {
        case 0:
          return skip('cache hit', { cached: true });
        case 1:
          return redirect({ newArgs: { limit: 5 }, reason: 'cap' });
        case 2:
          return abort('refused');
        case 3:
          return { kind: 'nonsense' } as never; // invalid_decision, fail-open
        case 4:
          throw new Error('policy store unavailable'); // threw, fail-open
        default:
          return undefined;
      }
    },
    afterTool(_tool, args, _result, _state, _duration, ctx) {
      return kindOf(args) === 5 && ctx.attempt === 1 ? redirect({ newArgs: { again: true } }) : undefined;
    },
    onError(_tool, args) {
      return kindOf(args) === 6 ? skip('fallback', 'stub') : undefined;
    },
  };
  const observer: ToolHook = {
    name: 'metrics-like',
    onEvent(event) {
      if (event.type !== 'tool') return;
      outcomes[event.outcome] = (outcomes[event.outcome] ?? 0) + 1;
      if (leak) retained.push({ call: event.callId });
    },
  };
  const hooks = new HookRunner({
    hooks: [policy, observer],
    capture: { args: true, results: true },
    ...(provider === undefined ? {} : { tracer: provider.getTracer('toolhooks') }),
  });
  const execute = async (args: Record<string, unknown>): Promise<unknown> => {
    await Promise.resolve();
    const kind = kindOf(args);
    if (kind === 6 || kind === 7) throw new ToolFailure('backend said no');
    return { rows: [{ id: args.n, title: 'result row' }], password: 'hunter2' };
  };

  const call = (n: number): Promise<unknown> =>
    executeTool({ hooks, toolName: 'search', args: { n, query: 'weather in Lisbon', token: 'secret' }, execute, callId: `c${n}` }).catch(
      () => undefined,
    );
  const sample = async (): Promise<number> => {
    await provider?.forceFlush();
    collect();
    collect();
    return process.memoryUsage().heapUsed;
  };

  const samples: { calls: number; heapUsed: number }[] = [];
  const started = performance.now();
  for (let done = 0; done < calls; done += concurrency) {
    const batch: Promise<unknown>[] = [];
    for (let n = done; n < Math.min(calls, done + concurrency); n += 1) batch.push(call(n));
    await Promise.all(batch);
    const completed = Math.min(calls, done + concurrency);
    if (completed >= warmupCalls && (completed - warmupCalls) % sampleEvery === 0) {
      samples.push({ calls: completed, heapUsed: await sample() });
    }
  }
  const durationMs = performance.now() - started;
  await provider?.shutdown();

  const heaps = samples.map((s) => s.heapUsed);
  const report: SoakReport = {
    sdk,
    leak,
    calls: measured,
    concurrency,
    warmupCalls,
    durationMs: Math.round(durationMs),
    callsPerSecond: Math.round(calls / (durationMs / 1000)),
    samples,
    heapStart: heaps[0] ?? 0,
    heapEnd: heaps[heaps.length - 1] ?? 0,
    heapMin: Math.min(...heaps),
    heapMax: Math.max(...heaps),
    slopeBytesPer1kCalls: Math.round(slope(samples.map((s) => ({ x: s.calls, y: s.heapUsed }))) * 1000),
    spansExported: exporter.exported,
    outcomes,
  };
  if (json) {
    console.log(JSON.stringify(report));
    return;
  }
  const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`;
  console.log(`sdk=${sdk}${leak ? ' (with a deliberate leak)' : ''}: ${warmupCalls} warm-up + ${measured} measured calls in ${(durationMs / 1000).toFixed(1)} s (${report.callsPerSecond} calls/s)`);
  console.log(`heap over the measured calls: start ${mb(report.heapStart)}, end ${mb(report.heapEnd)}, min ${mb(report.heapMin)}, max ${mb(report.heapMax)}`);
  console.log(`slope: ${report.slopeBytesPer1kCalls} bytes per 1,000 calls over ${samples.length} samples`);
  console.log(`spans exported: ${report.spansExported}; outcomes: ${JSON.stringify(outcomes)}`);
}

await main();
