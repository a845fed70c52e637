/**
 * The tail-sampling pipeline (deploy/tail-sampling.yaml over deploy/jaeger/jaeger.yaml) in the real Jaeger:
 * 1,000 calls with a known set of aborted, failed and hook-error calls; every one of that set is kept
 * with all its spans, and the share of the other completed calls kept is within a binomial tolerance of
 * the default 10%.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../support/programs.js';
import {
  JAEGER_CONFIG,
  TAIL_SAMPLING_CONFIG,
  requireJaeger,
  startJaeger,
  tagsOf,
  type JaegerTrace,
  type RunningJaeger,
} from '../../support/jaeger.js';
import type { CallKind } from './fixtures/many-calls.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/many-calls.ts', import.meta.url));
const SERVICE = 'toolhooks-sampling-fixture';
const CALLS = 1000;
/** Short so the test does not wait 30 s; the fixture's calls take milliseconds and export every 200 ms. */
const DECISION_WAIT_S = 2;

interface FixtureReport {
  readonly kinds: Record<CallKind, string[]>;
  readonly outcomes: Record<string, string>;
}

/** The spans each kind of call has (operation names, sorted). */
const SPANS: Record<CallKind, string[]> = {
  aborted: ['execute_tool work', 'toolhooks.before_tool'],
  failed: ['execute_tool work', 'toolhooks.before_tool', 'toolhooks.execute', 'toolhooks.on_error'],
  'hook-error': ['execute_tool work', 'toolhooks.before_tool', 'toolhooks.execute'],
  completed: ['execute_tool work', 'toolhooks.before_tool', 'toolhooks.execute'],
};

const callIdOf = (trace: JaegerTrace): string => {
  const call = trace.spans.find((s) => s.operationName === 'execute_tool work');
  return String(tagsOf(call?.tags ?? [])['gen_ai.tool.call.id']);
};

async function allTraces(jaeger: RunningJaeger): Promise<Map<string, JaegerTrace>> {
  const traces = await jaeger.findTraces({ service: SERVICE, operation: 'execute_tool work', limit: CALLS * 2 });
  return new Map(traces.map((trace) => [callIdOf(trace), trace]));
}

describe('tail sampling in the real Jaeger (deploy/tail-sampling.yaml)', () => {
  it(`keeps every aborted, failed and hook-error call of ${CALLS}, and about 10% of the rest`, { timeout: 180_000 }, async (ctx) => {
    const jaeger = await startJaeger({
      binary: requireJaeger(ctx),
      configs: [JAEGER_CONFIG, TAIL_SAMPLING_CONFIG],
      // TOOLHOOKS_TRACE_SAMPLE_PERCENT is left unset: the 10% under test is the file's default.
      env: { TOOLHOOKS_TRACE_DECISION_WAIT: `${DECISION_WAIT_S}s` },
    });
    try {
      const run = await runProgram(process.execPath, ['--import', 'tsx', FIXTURE], {
        cwd: ROOT,
        timeoutMs: 120_000,
        env: {
          ...process.env,
          CALLS: String(CALLS),
          OTEL_SERVICE_NAME: SERVICE,
          OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttpUrl,
          // Room for every span of the run, exported often: a dropped span would look like a sampling bug.
          OTEL_BSP_MAX_QUEUE_SIZE: '20000',
          OTEL_BSP_SCHEDULE_DELAY: '200',
          OTEL_METRICS_EXPORTER: 'none',
          OTEL_LOGS_EXPORTER: 'none',
        },
      });
      expect(run.code, run.output).toBe(0);
      const report = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as FixtureReport;
      const { kinds } = report;
      expect(kinds.aborted).toHaveLength(CALLS / 50);
      expect(kinds.failed).toHaveLength(CALLS / 50);
      expect(kinds['hook-error']).toHaveLength(CALLS / 50);
      // The fixture did what the plan says (so a missing trace below is Jaeger's doing, not the app's).
      for (const id of kinds.aborted) expect(report.outcomes[id]).toBe('aborted');
      for (const id of kinds.failed) expect(report.outcomes[id]).toBe('failed');
      for (const id of [...kinds['hook-error'], ...kinds.completed]) expect(report.outcomes[id]).toBe('completed');

      const mustKeep = (['aborted', 'failed', 'hook-error'] as const).flatMap((kind) => kinds[kind].map((id) => [id, kind] as const));
      // Every trace the sampler keeps is released one decision tick after decision_wait; wait for the set…
      // (on a timeout, go on: the checks below name the calls that are missing)
      await jaeger
        .waitFor(
          'every aborted, failed and hook-error call',
          async () => {
            const found = await allTraces(jaeger);
            return mustKeep.every(([id, kind]) => found.get(id)?.spans.length === SPANS[kind].length);
          },
          30_000,
        )
        .catch(() => undefined);
      // …then two decision waits more, so the sampled share has surely landed too.
      await new Promise((done) => setTimeout(done, 2 * DECISION_WAIT_S * 1000 + 1000));
      const found = await allTraces(jaeger);

      for (const [id, kind] of mustKeep) {
        const trace = found.get(id);
        expect(trace, `${kind} call ${id} is in Jaeger`).toBeDefined();
        expect(trace?.spans.map((s) => s.operationName).sort(), `${kind} call ${id} has all its spans`).toEqual(SPANS[kind]);
      }
      for (const id of kinds['hook-error']) {
        const spans = found.get(id)?.spans ?? [];
        const call = spans.find((s) => s.operationName === 'execute_tool work');
        expect(tagsOf(call?.tags ?? [])['toolhooks.hook.errors'], `call ${id}`).toBe(1);
        const phase = spans.find((s) => s.operationName === 'toolhooks.before_tool');
        expect(phase?.logs.map((log) => tagsOf(log.fields)['event'])).toContain('toolhooks.hook.error');
      }

      // Completed calls with nothing to alert on: kept with probability 10%, independently (hash of the
      // random trace id). Binomial(n, 0.1) within 4 standard deviations fails by chance once in ~16,000 runs.
      const plain = kinds.completed;
      const kept = plain.filter((id) => found.has(id));
      for (const id of kept) expect(found.get(id)?.spans.map((s) => s.operationName).sort()).toEqual(SPANS.completed);
      const mean = plain.length * 0.1;
      const sd = Math.sqrt(plain.length * 0.1 * 0.9);
      console.log(`tail sampling: kept ${kept.length} of ${plain.length} completed calls (expected ${mean} ± ${(4 * sd).toFixed(1)}), and all ${mustKeep.length} to alert on`);
      expect(kept.length).toBeGreaterThanOrEqual(Math.floor(mean - 4 * sd));
      expect(kept.length).toBeLessThanOrEqual(Math.ceil(mean + 4 * sd));
      // Nothing else reached Jaeger: every trace there is one of the fixture's calls.
      expect(found.size).toBe(mustKeep.length + kept.length);
    } finally {
      await jaeger.stop();
    }
  });
});
