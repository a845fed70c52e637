/**
 * Replay from the real Jaeger: traffic recorded by toolhooks (capture on) goes to Jaeger v2 over
 * OTLP/HTTP and to a test receiver at once; Jaeger's `/api/v3/traces` answer, replayed from its URL
 * and from a saved file, gives exactly the diff the receiver's copy gives.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatReplayJson, replay } from '../../../src/replay/index.js';
import type { ReplayReport } from '../../../src/replay/index.js';
import { parseOtlpJson } from '../../../src/replay/otlp-json.js';
import { expectedV2Report } from '../../integration/replay/expected.js';
import { POLICY_V2_SOURCE, policyV2 } from '../../integration/replay/policy-v2.js';
import { recordTraffic } from '../../integration/replay/record-traffic.js';
import { runToolhooks } from '../../integration/replay/serve.js';
import { requireJaeger, startJaeger, type RunningJaeger } from '../../support/jaeger.js';
import { useTempDir } from '../../support/temp-dir.js';

const SERVICE = 'replay-system-test';
const dir = useTempDir('replay-jaeger');
let jaeger: RunningJaeger | undefined;

afterAll(async () => {
  await jaeger?.stop();
});

function inSpanOrder(report: ReplayReport): ReplayReport {
  return { ...report, changed: [...report.changed].sort((a, b) => `${a.spanId}${a.phase}`.localeCompare(`${b.spanId}${b.phase}`)) };
}

describe('replay from the real Jaeger', () => {
  it('replays the calls from /api/v3/traces with exactly the diff of the recorded copy', async (ctx) => {
    const binary = requireJaeger(ctx);
    jaeger = await startJaeger({ binary });
    const traffic = await recordTraffic({ alsoTo: `${jaeger.otlpHttpUrl}/v1/traces`, serviceName: SERVICE });
    const running = jaeger;
    // Jaeger 2.13 (module v1.76) answers 500 to /api/v3/traces without query.num_traces.
    const url = `${running.queryUrl}/api/v3/traces?${new URLSearchParams({
      'query.service_name': SERVICE,
      'query.start_time_min': new Date(Date.now() - 3_600_000).toISOString(),
      'query.start_time_max': new Date(Date.now() + 3_600_000).toISOString(),
      'query.num_traces': '100',
    }).toString()}`;
    // Jaeger answers once it has stored every span the receiver got.
    const body = await running.waitFor('every recorded span in Jaeger', async () => {
      const response = await fetch(url);
      const text = await response.text();
      if (!response.ok) throw new Error(`HTTP ${response.status} ${text}`);
      return parseOtlpJson(text, 'jaeger').length === traffic.spans.length ? text : undefined;
    });
    expect(JSON.parse(body)).toHaveProperty('result.resourceSpans');
    const expected = expectedV2Report(traffic);
    const hooks = await policyV2();

    const file = join(dir, 'jaeger.json');
    writeFileSync(file, body);
    // Calls that started in the same millisecond (start times are whole milliseconds) come in the order
    // the source lists them, and Jaeger lists traces in its own order: compare the changes as a set.
    expect(inSpanOrder(await replay({ hooks, source: file }))).toEqual(inSpanOrder(expected));

    writeFileSync(join(dir, 'policy-v2.mjs'), POLICY_V2_SOURCE);
    const run = await runToolhooks(['replay', '--json', '--fail-on-change', '--hooks', 'policy-v2.mjs', url], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(inSpanOrder(JSON.parse(run.stdout) as ReplayReport)).toEqual(inSpanOrder(JSON.parse(formatReplayJson(expected)) as ReplayReport));
  }, 120_000);
});
