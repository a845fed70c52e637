/**
 * Keeps the benchmark from rotting without running it for real (CI is too noisy to time): every
 * scenario runs a few calls and yields a number, the library and each hand-written baseline record the
 * same telemetry (so the ratios compare like with like), and the CLI writes and compares its JSON.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { context, metrics, trace } from '@opentelemetry/api';
import type { ScopeMetrics } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Library } from '../../../bench/library.js';
import { loadLibrary } from '../../../bench/library.js';
import type { Guards } from '../../../bench/guarded.js';
import { guardedDroppedRootSync, loadGuards } from '../../../bench/guarded.js';
import { measureHeap, sampleRound } from '../../../bench/measure.js';
import type { Scenario } from '../../../bench/scenarios.js';
import { logDestinations, noSdkScenarios, sdkScenarios } from '../../../bench/scenarios.js';
import type { TracingSdk } from '../../../bench/sdk.js';
import { installTracingSdk, sampledOutTracer } from '../../../bench/sdk.js';
import { recordShapes } from '../../../bench/spans.js';
import { INSTRUMENTATION_NAME, SPAN_AFTER_TOOL, SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';

const QUICK = { batch: 5, timeMs: 5, minSamples: 3, warmupMs: 0 } as const;

let lib: Library;
let guards: Guards | undefined;
let sdk: TracingSdk | undefined;

function disableGlobals(): void {
  trace.disable();
  context.disable();
  metrics.disable();
}

beforeAll(async () => {
  // The no-SDK scenarios need the API's no-op globals: nothing registered by an earlier file.
  disableGlobals();
  lib = await loadLibrary('src');
  guards = await loadGuards('src', undefined);
});

afterAll(async () => {
  await sdk?.shutdown();
  disableGlobals();
});

async function expectNumbers(scenarios: readonly Scenario[]): Promise<void> {
  const samples = await sampleRound(new Map(scenarios.map((s) => [s.id, s.call])), QUICK);
  for (const scenario of scenarios) {
    const values = samples.get(scenario.id) ?? [];
    expect(values.length, scenario.id).toBeGreaterThanOrEqual(QUICK.minSamples);
    for (const ns of values) expect(Number.isFinite(ns) && ns > 0, `${scenario.id}: ${ns}`).toBe(true);
  }
}

/** Metric name → sorted data-point attribute keys, for one instrumentation scope. */
function metricShapes(scope: ScopeMetrics | undefined): Record<string, string[]> {
  const shapes: Record<string, string[]> = {};
  for (const metric of scope?.metrics ?? []) {
    shapes[metric.descriptor.name] = metric.dataPoints.map((point) => Object.keys(point.attributes).sort().join(',')).sort();
  }
  return shapes;
}

/** The keys of a pino line, less the per-process and per-line ones. */
function logKeys(line: string): string {
  const { time: _time, pid: _pid, hostname: _hostname, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return Object.keys(rest).sort().join(',');
}

describe('benchmark smoke run', () => {
  it('runs every no-SDK scenario (before any SDK is registered) and yields numbers', async () => {
    const scenarios = noSdkScenarios(lib);
    expect(scenarios.map((s) => s.id)).toEqual([
      'bare',
      'nosdk.hooks-0',
      'nosdk.hooks-1',
      'nosdk.hooks-2',
      'nosdk.hooks-5',
      'bare.nested-args',
      'nosdk.hooks-2.nested-args',
      'nosdk.receipts.hand',
      'nosdk.receipts',
      'nosdk.receipts.file-never',
      'nosdk.receipts.file-head',
      'nosdk.receipts.file-always',
      'nosdk.approved',
      'nosdk.limit.hand',
      'nosdk.limit',
    ]);
    await expectNumbers(scenarios);
  });

  it('runs every SDK scenario and yields numbers, heap figures included', async () => {
    sdk = installTracingSdk();
    const scenarios = sdkScenarios(lib, guards);
    expect(scenarios.map((s) => s.id)).toContain('sdk.dropped-root.continue.beyond-guards');
    await expectNumbers(scenarios);
    const tracingSdk = sdk;
    const heap = await measureHeap(scenarios[1]?.call ?? (() => Promise.resolve()), 200, () => tracingSdk.flush());
    expect(Number.isFinite(heap.allocatedBytes) && heap.allocatedBytes > 0).toBe(true);
    expect(Number.isFinite(heap.retainedBytes)).toBe(true);
  });

  it('records the same spans, attributes and events in each library scenario as in its hand-written baseline', async () => {
    const tracingSdk = sdk as TracingSdk;
    const scenarios = sdkScenarios(lib);
    // The sampled-out and dropped-root scenarios record nothing on either side (their own test below); the
    // approved scenario is compared with the same call without an Ask and records one span more (its own test).
    // The log-events scenario writes its decision records as log events instead (its own test below).
    const pairs = scenarios.filter(
      (s) =>
        s.baseline !== undefined && !s.id.startsWith('sdk.sampled-out') && !s.id.startsWith('sdk.dropped-root') && s.id !== 'sdk.approved' && s.id !== 'sdk.log-events',
    );
    expect(pairs.map((s) => s.id)).toEqual(['sdk.hooks-2', 'sdk.hooks-10', 'sdk.no-hook-invoked', 'sdk.metrics-logs']);
    for (const scenario of pairs) {
      const baseline = scenarios.find((s) => s.id === scenario.baseline) as Scenario;
      const library = await recordShapes(tracingSdk, scenario.call, 3);
      const hand = await recordShapes(tracingSdk, baseline.call, 3);
      expect(library.length, scenario.id).toBeGreaterThanOrEqual(6);
      expect(library, scenario.id).toEqual(hand);
    }
  });

  it("the log-events scenario records its baseline's spans, its decisions as log records instead of span events", async () => {
    const scenarios = sdkScenarios(lib);
    const logEvents = scenarios.find((s) => s.id === 'sdk.log-events') as Scenario;
    const baseline = scenarios.find((s) => s.id === logEvents.baseline) as Scenario;
    const own = await recordShapes(sdk as TracingSdk, logEvents.call, 2);
    const base = await recordShapes(sdk as TracingSdk, baseline.call, 2);
    expect(base.some((shape) => shape.events.length > 0)).toBe(true);
    expect(own.every((shape) => shape.events.length === 0)).toBe(true);
    expect(own).toEqual(base.map((shape) => ({ ...shape, events: [] })));
  });

  it('the sampled-out scenario runs the hooks and the tool and exports no span', async () => {
    const scenario = sdkScenarios(lib).find((s) => s.id === 'sdk.sampled-out') as Scenario;
    expect(scenario.baseline).toBe('sdk.sampled-out.noop');
    expect(scenario.reference).toBe('nosdk.hooks-2');
    expect(await recordShapes(sdk as TracingSdk, scenario.call, 2)).toEqual([]);
    const sampledOut = sampledOutTracer();
    const runner = new lib.HookRunner({ hooks: [{ name: 'cap', beforeTool: () => lib.redirect({ newArgs: { limit: 1 } }) }], tracer: sampledOut.tracer });
    let ranWith: unknown;
    await lib.executeTool({ hooks: runner, toolName: 'search', args: { limit: 50 }, execute: (args) => (ranWith = args.limit) });
    await sampledOut.provider.forceFlush();
    expect(ranWith).toBe(1);
    expect(sampledOut.exporter.exported).toBe(0);
    await sampledOut.provider.shutdown();
  });

  it('the dropped-root pair: both sides run the hooks and the tool, the same result, and record no span', async () => {
    const scenarios = sdkScenarios(lib);
    const library = scenarios.find((s) => s.id === 'sdk.dropped-root') as Scenario;
    const hand = scenarios.find((s) => s.id === library.baseline) as Scenario;
    expect(hand.id).toBe('sdk.dropped-root.hand');
    // The redirect caps `limit` on both sides: the tool answers with the capped value.
    expect(await library.call()).toEqual(await hand.call());
    expect(await hand.call()).toEqual({ hits: 3, limit: 10 });
    expect(await recordShapes(sdk as TracingSdk, library.call, 2)).toEqual([]);
    expect(await recordShapes(sdk as TracingSdk, hand.call, 2)).toEqual([]);
  });

  it('the guarded pair: the library, the guarded and the plain hand-written call give one result and record no span', async () => {
    const scenarios = sdkScenarios(lib, guards);
    const library = scenarios.find((s) => s.id === 'sdk.dropped-root.continue.beyond-guards') as Scenario;
    const guarded = scenarios.find((s) => s.id === library.baseline) as Scenario;
    const hand = scenarios.find((s) => s.id === guarded.baseline) as Scenario;
    expect([guarded.id, hand.id]).toEqual(['sdk.dropped-root.continue.guarded', 'sdk.dropped-root.continue.hand']);
    expect(await library.call()).toEqual(await hand.call());
    expect(await guarded.call()).toEqual(await hand.call());
    expect(await recordShapes(sdk as TracingSdk, guarded.call, 2)).toEqual([]);
  });

  it('the guarded baseline keeps the promises it is named for: checked options, read-only arguments, guarded hook calls', async () => {
    const { tracer, provider } = sampledOutTracer();
    const seen: unknown[] = [];
    const call = guardedDroppedRootSync(guards as Guards, tracer, [
      { name: 'edits', beforeTool: (_tool, args) => void Object.assign(args, { limit: 1 }) },
      { name: 'reads', beforeTool: (_tool, args) => void seen.push(args.limit) },
    ]);
    const args = { limit: 50 };
    // The first hook's edit throws (frozen copy), is swallowed as its failure (Continue); the caller's object is untouched.
    expect(await call({ toolName: 'search', args, execute: (runWith) => runWith.limit })).toBe(50);
    expect(args.limit).toBe(50);
    expect(seen).toEqual([50]);
    await expect(call({ toolName: 'search', args, execute: () => 1, callid: 'x' } as never)).rejects.toThrow(/unknown option "callid"/);
    await expect(call({ toolName: '', args, execute: () => 1 })).rejects.toThrow(/toolName must be a non-empty string/);
    const refuses = guardedDroppedRootSync(guards as Guards, tracer, [{ name: 'stops', beforeTool: () => lib.abort('no') }]);
    await expect(refuses({ toolName: 'search', args, execute: () => 1 })).rejects.toThrow('the guarded baseline runs hooks that Continue only');
    await provider.shutdown();
  });

  it('the approved scenario records the approval span between the phase and the tool, and runs the tool', async () => {
    const scenario = sdkScenarios(lib).find((s) => s.id === 'sdk.approved') as Scenario;
    expect(scenario.baseline).toBe('sdk.hooks-2');
    const names = (await recordShapes(sdk as TracingSdk, scenario.call, 2)).map((shape) => shape.name);
    expect(names.filter((name) => name === 'toolhooks.approval')).toHaveLength(2);
    expect(names.filter((name) => name === 'toolhooks.execute')).toHaveLength(2);
  });

  it('creates no phase span when no hook is invoked', async () => {
    const scenario = sdkScenarios(lib).find((s) => s.id === 'sdk.no-hook-invoked') as Scenario;
    const names = (await recordShapes(sdk as TracingSdk, scenario.call, 2)).map((shape) => shape.name);
    expect(names).toHaveLength(4);
    expect(names).not.toContain(SPAN_BEFORE_TOOL);
    expect(names).not.toContain(SPAN_AFTER_TOOL);
  });

  it('records the same metrics and log lines with MetricsHook and LoggingHook as the hand-written baseline', async () => {
    const tracingSdk = sdk as TracingSdk;
    const scenarios = sdkScenarios(lib);
    const library = scenarios.find((s) => s.id === 'sdk.metrics-logs') as Scenario;
    const hand = scenarios.find((s) => s.id === 'sdk.metrics-logs.hand') as Scenario;
    logDestinations.library.kept = [];
    logDestinations.hand.kept = [];
    for (let index = 0; index < 3; index += 1) {
      await library.call();
      await hand.call();
    }
    const libraryLines = logDestinations.library.kept;
    const handLines = logDestinations.hand.kept;
    logDestinations.library.kept = undefined;
    logDestinations.hand.kept = undefined;
    expect(libraryLines).toHaveLength(6); // per call: the Redirect and the outcome
    expect(libraryLines.map(logKeys)).toEqual(handLines.map(logKeys));
    const scopes = await tracingSdk.collectMetrics();
    const libraryMetrics = metricShapes(scopes.get(INSTRUMENTATION_NAME));
    expect(Object.keys(libraryMetrics).length).toBeGreaterThanOrEqual(4);
    expect(libraryMetrics).toEqual(metricShapes(scopes.get('hand-written')));
  });

  it('npm run bench -- --quick writes JSON results with every scenario and compares with an earlier file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhooks-bench-'));
    try {
      const file = join(dir, 'results.json');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', 'bench/run.ts', '--quick', '--src', '--json', file, '--compare', 'bench/results/before.json'],
        { timeout: 60_000 },
      );
      expect(stdout).toContain('Compared with');
      const results = JSON.parse(readFileSync(file, 'utf8')) as {
        node: string;
        cpu: string;
        date: string;
        scenarios: { id: string; medianNs: number; ratio?: number; ratioMin?: number; ratioMax?: number; ratioMethod?: string; samples: number }[];
        throughput: { callsPerSecond: number }[];
      };
      // The dropped root is timed side by side with its baseline; every other comparison over the rounds.
      const dropped = results.scenarios.find((s) => s.id === 'sdk.dropped-root');
      expect(dropped?.ratioMethod).toBe('paired');
      expect(Number.isFinite(dropped?.ratio) && (dropped?.ratio ?? 0) > 0).toBe(true);
      expect(dropped?.ratioMin).toBeLessThanOrEqual(dropped?.ratioMax ?? Number.NaN);
      expect(results.scenarios.find((s) => s.id === 'sdk.hooks-2')?.ratioMethod).toBe('rounds');
      expect(stdout).toMatch(/sdk\.dropped-root .*paired\)/);
      expect(results.node).toBe(process.version);
      expect(results.cpu.length).toBeGreaterThan(0);
      expect(results.scenarios.map((s) => s.id)).toEqual([...noSdkScenarios(lib), ...sdkScenarios(lib, guards)].map((s) => s.id));
      for (const scenario of results.scenarios) {
        expect(scenario.medianNs, scenario.id).toBeGreaterThan(0);
        expect(scenario.samples, scenario.id).toBeGreaterThan(0);
      }
      expect(results.throughput.length).toBeGreaterThan(0);
      for (const t of results.throughput) expect(t.callsPerSecond).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
