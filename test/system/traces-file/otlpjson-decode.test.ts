/**
 * The traces file of `startTelemetry({ file })` decoded line by line by the Collector's OTLP/JSON decoder
 * (pdata), the one its otlpjsonfile receiver runs on each line: real tool calls are recorded to a file,
 * then otlpjson-check (test/system/traces-file/otlpjson-check/, a small Go program on
 * `ptrace.JSONUnmarshaler` from go.opentelemetry.io/collector/pdata v1.67.0, the release the collector
 * v0.161.0 is built with) decodes every line. Every line must decode, and the decoder must see the same
 * spans as replay: count, names, ids, parents and attributes.
 *
 * This is the receiver's decoder, not the receiver: the otlpjsonfile receiver module is not served by the
 * Go module proxy the project builds from, so no collector here includes it (docs/telemetry.md, "Traces to
 * a file"). The file-tailing around the decoder (where a line ends, which files are read) is the
 * receiver's and is not tested here.
 *
 * otlpjson-check is built by `bash scripts/ci-install-tools.sh otlpjson-check` into
 * `${XDG_CACHE_HOME:-~/.cache}/toolhooks/otlpjson-check-pdata-v1.67.0/otlpjson-check` (or given as
 * `OTLPJSON_CHECK_BIN`); missing, the test fails in CI and is skipped elsewhere, saying how to build it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTelemetry } from '../../../src/node/index.js';
import { replay } from '../../../src/replay/index.js';
import { parseOtlpJson } from '../../../src/replay/otlp-json.js';
import { policyV2 } from '../../integration/replay/policy-v2.js';
import { PLANNED, runPlannedCalls } from '../../integration/replay/record-traffic.js';
import { resetOtelGlobals } from '../../support/otel-globals.js';
import { builtProgram, requireBuiltProgram, runProgram } from '../../support/programs.js';
import type { SkippableContext } from '../../support/programs.js';
import { useTempDir } from '../../support/temp-dir.js';

/** The pdata release otlpjson-check is built with (its go.mod; the collector v0.161.0's). */
const PDATA_VERSION = 'v1.67.0';

/** otlpjson-check for a test that needs it: fails in CI when missing, else skips with how to build it. */
function requireOtlpjsonCheck(ctx: SkippableContext): string {
  const binary = builtProgram('OTLPJSON_CHECK_BIN', `otlpjson-check-pdata-${PDATA_VERSION}`, 'otlpjson-check');
  return requireBuiltProgram(
    ctx,
    binary,
    `otlpjson-check not found at ${binary}. Build it with \`bash scripts/ci-install-tools.sh otlpjson-check\` (needs Go;` +
      ` builds test/system/traces-file/otlpjson-check with pdata ${PDATA_VERSION} once, about a minute on 2 cores)` +
      ' or point OTLPJSON_CHECK_BIN at it.',
  );
}

/** One span as otlpjson-check prints it (the decoder's view: hex ids, attributes as plain values). */
interface DecodedSpan {
  readonly line: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly scope: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly resource: Readonly<Record<string, unknown>>;
}

/** otlpjson-check's report on a whole file. */
interface DecodeReport {
  readonly lines: number;
  readonly spanCount: number;
  readonly spans: readonly DecodedSpan[];
  readonly errors: readonly { line: number; error: string }[];
}

/** The attribute keys of every span in the raw file, by span id: what the decoder must not drop. */
function rawAttributeKeys(text: string): Map<string, string[]> {
  type RawSpan = { spanId: string; attributes?: { key: string }[] };
  type RawLine = { resourceSpans: { scopeSpans: { spans: RawSpan[] }[] }[] };
  const keys = new Map<string, string[]>();
  for (const line of text.split('\n').filter((entry) => entry !== '')) {
    const request = JSON.parse(line) as RawLine;
    for (const span of request.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans))) {
      keys.set(span.spanId, (span.attributes ?? []).map((attribute) => attribute.key).sort());
    }
  }
  return keys;
}

const dir = useTempDir('otlpjson-decode');

afterEach(() => {
  resetOtelGlobals();
});

describe('the traces file, decoded by the Collector\'s OTLP/JSON decoder (pdata), the one its otlpjsonfile receiver runs on each line', () => {
  it('decodes every line, and sees the spans replay reads: count, names, ids, parents and attributes', async (ctx) => {
    const check = requireOtlpjsonCheck(ctx);
    const file = join(dir, 'traces.jsonl');
    // Two runs of the app, the second appending to the first's file: at least two lines.
    for (const run of [1, 2]) {
      const telemetry = startTelemetry({ file, serviceName: 'otlpjson-decode-test' });
      expect(telemetry.status, `run ${run}`).toBe('started');
      await runPlannedCalls();
      await telemetry.shutdown();
      resetOtelGlobals();
    }

    const result = await runProgram(check, [file]);
    expect(result.code, result.output).toBe(0);
    const decoded = JSON.parse(result.stdout) as DecodeReport;
    const text = readFileSync(file, 'utf8');
    expect(decoded.errors).toEqual([]);
    expect(decoded.lines).toBe(text.split('\n').filter((line) => line !== '').length);
    expect(decoded.lines).toBeGreaterThanOrEqual(2);

    // What replay reads from the same file, span for span.
    const read = parseOtlpJson(text, file);
    expect(decoded.spanCount).toBe(read.length);
    expect(decoded.spans).toHaveLength(read.length);
    const bySpanId = new Map(decoded.spans.map((span) => [span.spanId, span]));
    const rawKeys = rawAttributeKeys(text);
    for (const span of read) {
      const seen = bySpanId.get(span.spanId);
      expect(seen, `the decoder has no span ${span.spanId} (${span.name})`).toBeDefined();
      expect({ traceId: seen!.traceId, parentSpanId: seen!.parentSpanId, name: seen!.name }).toEqual({
        traceId: span.traceId,
        parentSpanId: span.parentSpanId,
        name: span.name,
      });
      // Every attribute in the file reaches the decoder, and the scalar ones (all replay reads) carry the same values.
      expect(Object.keys(seen!.attributes).sort(), span.name).toEqual(rawKeys.get(span.spanId));
      expect(seen!.attributes, span.name).toMatchObject(Object.fromEntries(span.attributes));
      expect(seen!.resource['service.name']).toBe('otlpjson-decode-test');
      expect(seen!.scope).toBe('toolhooks');
    }

    // One execute_tool span per planned call and run, with the call ids the agent gave.
    const twice = <T>(items: readonly T[]): T[] => [...items, ...items];
    const toolSpans = decoded.spans.filter((span) => span.name.startsWith('execute_tool '));
    expect(toolSpans.map((span) => span.name).sort()).toEqual(twice(PLANNED.map((call) => `execute_tool ${call.tool}`)).sort());
    expect(toolSpans.map((span) => span.attributes['gen_ai.tool.call.id']).filter((id) => id !== undefined).sort()).toEqual(
      twice(PLANNED.flatMap((call) => (call.callId === undefined ? [] : [call.callId]))).sort(),
    );

    // And replay, on the very file the decoder took, finds the calls of both runs.
    const report = await replay({ hooks: await policyV2(), source: file });
    expect({ calls: report.calls, replayed: report.replayed, notReplayable: report.notReplayable }).toEqual({ calls: 18, replayed: 16, notReplayable: 2 });
  });

  it('says which line the decoder refuses (a line cut short, as by a full disk), so a passing run means something', async (ctx) => {
    const check = requireOtlpjsonCheck(ctx);
    const file = join(dir, 'broken.jsonl');
    writeFileSync(file, '{"resourceSpans":[]}\n{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"cut\n');
    const result = await runProgram(check, [file]);
    expect(result.code, result.output).toBe(1);
    const decoded = JSON.parse(result.stdout) as DecodeReport;
    expect(decoded.lines).toBe(2);
    expect(decoded.errors.map((error) => error.line)).toEqual([2]);
  });
});
