/**
 * Jaeger on Badger (deploy/jaeger/jaeger.yaml + deploy/jaeger/badger.yaml), the stack's default storage,
 * with the real binary: traces stored before a restart are still returned by the query API after it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startDrivenApp, type DrivenApp } from '../../support/driven-app.js';
import { BADGER_CONFIG, JAEGER_CONFIG, requireJaeger, startJaeger, tagsOf, type RunningJaeger } from '../../support/jaeger.js';
import { SUITE_CONTEXT, pipelineSkipNote } from '../../support/pipeline.js';
import type { BatchReport } from './fixtures/plan.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/pipeline-app.ts', import.meta.url));
const SERVICE = 'toolhooks-badger-fixture';
const CALLS = 60;

async function storedCalls(jaeger: RunningJaeger): Promise<string[]> {
  const traces = await jaeger.findTraces({ service: SERVICE, operation: 'execute_tool work' });
  return traces.map((trace) => String(tagsOf(trace.spans.find((s) => s.references.length === 0)?.tags ?? [])['gen_ai.tool.call.id'])).sort();
}

describe.skipIf(pipelineSkipNote() !== undefined)('Jaeger with Badger storage', () => {
  let jaeger: RunningJaeger | undefined;
  let app: DrivenApp | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    await app?.exit().catch(() => undefined);
    await jaeger?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('returns the traces stored before a restart', { timeout: 120_000 }, async () => {
    const binary = requireJaeger(SUITE_CONTEXT);
    dir = await mkdtemp(join(tmpdir(), 'toolhooks-badger-'));
    const options = { binary, configs: [JAEGER_CONFIG, BADGER_CONFIG], env: { JAEGER_BADGER_DIR: dir } };
    const first = await startJaeger(options);
    jaeger = first;
    const driven = startDrivenApp(FIXTURE, {
      OTEL_SERVICE_NAME: SERVICE,
      OTEL_EXPORTER_OTLP_ENDPOINT: first.otlpHttpUrl,
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
    app = driven;
    const report = await driven.send<BatchReport>(`run stored ${CALLS}`);
    expect(report.unexpected).toEqual([]);
    const ids = Object.keys(report.started).sort();
    await first.waitFor('every call stored', async () => (await storedCalls(first)).length === CALLS);
    const { code, stderr } = await driven.exit();
    expect(code, stderr).toBe(0);

    await first.stop();
    const second = await startJaeger({ ...options, ports: first.ports });
    jaeger = second;
    // Badger reopens its files: the query API answers with what the first process stored.
    expect(await storedCalls(second)).toEqual(ids);
    const aborted = await second.findTraces({ service: SERVICE, tags: { 'toolhooks.outcome': 'aborted' } });
    expect(aborted).toHaveLength(report.kinds.aborted.length);
  });
});
