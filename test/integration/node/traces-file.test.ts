/**
 * startTelemetry({ file }) and TOOLHOOKS_TRACES_FILE: real tool calls recorded to a file of OTLP/JSON
 * lines, then read back by replay, which finds exactly the decisions a changed policy would change; a file
 * that cannot be written is said once, naming the path, and the calls go on.
 * The same file decoded line by line by the Collector's OTLP/JSON decoder (pdata), the one its otlpjsonfile
 * receiver runs on each line: test/system/traces-file/otlpjson-decode.test.ts (the receiver itself is not
 * built here; see docs/telemetry.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { startTelemetry } from '../../../src/node/index.js';
import { replay } from '../../../src/replay/index.js';
import type { ReplayReport } from '../../../src/replay/index.js';
import { resetOtelGlobals } from '../../support/otel-globals.js';
import { useTempDir } from '../../support/temp-dir.js';
import { policyV2 } from '../replay/policy-v2.js';
import { runPlannedCalls } from '../replay/record-traffic.js';

const dir = useTempDir('traces-file');

afterEach(() => {
  vi.unstubAllEnvs();
  resetOtelGlobals();
});

/** A report without trace and span ids (they are new on every run). */
function withoutIds(report: ReplayReport): unknown {
  const strip = ({ traceId: _t, spanId: _s, ...rest }: { traceId: string; spanId: string }): unknown => rest;
  return { ...report, changed: report.changed.map(strip), hookErrors: report.hookErrors.map(strip) };
}

describe('traces to a file', () => {
  it('records OTLP/JSON lines that replay reads back, decision for decision', async () => {
    const file = join(dir, 'traces.jsonl');
    // Relative to the current directory, as a user writes it.
    const telemetry = startTelemetry({ file: relative(process.cwd(), file), serviceName: 'file-test' });
    expect(telemetry.status).toBe('started');
    await runPlannedCalls();
    await telemetry.shutdown();

    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) {
      const request = JSON.parse(line) as { resourceSpans: { resource: { attributes: { key: string; value: unknown }[] } }[] };
      expect(request.resourceSpans[0]?.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'file-test' } });
    }
    const report = await replay({ hooks: await policyV2(), source: file });
    // The decisions policy v2 changes (test/integration/replay/expected.ts), without the ids of this run.
    expect(report.calls).toBe(9);
    expect(report.replayed).toBe(8);
    expect(report.notReplayable).toBe(1);
    expect(withoutIds(report)).toMatchObject({
      unchanged: 3,
      changed: [
        { tool: 'http_get', callId: 'call_3', replayed: { decision: 'abort' } },
        { tool: 'search', callId: 'call_4', replayed: { decision: 'continue' } },
        { tool: 'read_file', callId: null, replayed: { decision: 'redirect' } },
        { tool: 'write_file', callId: 'call_6', replayed: { decision: 'abort' } },
        { tool: 'fetch', callId: 'call_7', replayed: { decision: 'abort' } },
      ],
      hookErrors: [{ tool: 'search', callId: 'call_8', hook: 'flaky' }],
    });
  });

  it('appends to the file TOOLHOOKS_TRACES_FILE names, and sends nothing over OTLP', async () => {
    const file = join(dir, 'from-env.jsonl');
    vi.stubEnv('TOOLHOOKS_TRACES_FILE', file);
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    for (const round of [1, 2]) {
      const telemetry = startTelemetry();
      await executeTool({ hooks: new HookRunner([]), toolName: `round_${round}`, args: {}, execute: () => 'ok' });
      await telemetry.shutdown();
      resetOtelGlobals();
    }
    const text = readFileSync(file, 'utf8');
    // Two runs, two lines: the second appended to the first.
    expect(text.split('\n').filter((line) => line !== '')).toHaveLength(2);
    expect(text).toContain('"execute_tool round_1"');
    expect(text).toContain('"execute_tool round_2"');
  });

  it('says once, naming the path, when the file cannot be written, and the calls go on', async () => {
    const file = join(dir, 'missing-dir', 'traces.jsonl');
    const warnings: { message: string; code: string | undefined }[] = [];
    const onWarning = (warning: Error & { code?: string }): void => void warnings.push({ message: warning.message, code: warning.code });
    process.on('warning', onWarning);
    try {
      const telemetry = startTelemetry({ file });
      const hooks = new HookRunner([]);
      for (let batch = 0; batch < 3; batch += 1) {
        expect(await executeTool({ hooks, toolName: 'search', args: { batch }, execute: () => 'found' })).toBe('found');
        await telemetry.forceFlush();
      }
      await telemetry.shutdown();
      // A process warning is emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    const ours = warnings.filter((warning) => warning.code === 'TOOLHOOKS_TRACES_FILE_UNWRITABLE');
    expect(ours).toHaveLength(1);
    expect(ours[0]?.message).toContain(`cannot write traces to ${file}`);
    expect(ours[0]?.message).toContain('tool calls go on');
    expect(existsSync(file)).toBe(false);
  });

  it('rejects a file option that is not a path, naming it', () => {
    expect(() => startTelemetry({ file: '' })).toThrow('startTelemetry: options.file must be a file path such as "traces.jsonl", got the string ""');
    expect(() => startTelemetry({ file: 42 as unknown as string })).toThrow(/options\.file must be a file path/);
  });
});
