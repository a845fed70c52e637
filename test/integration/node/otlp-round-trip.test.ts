/**
 * A real OTLP round trip: the app in fixtures/otlp-app.ts runs as its own process with `startTelemetry()`,
 * the runner, the flows, `MetricsHook` and `LoggingHook`, configured only through OTEL_* variables, and
 * exports to an OtlpReceiver on 127.0.0.1 which decodes the payloads with the official OTLP schema. The
 * assertions are what a user would check in Jaeger, Prometheus and a log backend: the span trees with
 * their events, every metric of docs/telemetry.md with its attributes and counts, the log records joined to their spans.
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_DECISION_REASON,
  ATTR_DECISION_SHADOWED,
  ATTR_HOOK_MODE,
  ATTR_DECISION_WINNER,
  ATTR_DECISIONS_SHADOWED,
  ATTR_ERROR_TYPE,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_EXCEPTION_STACKTRACE,
  ATTR_EXCEPTION_TYPE,
  ATTR_FAILURE_MODE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_HOOK_DURATION_MS,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_ERRORS,
  ATTR_HOOK_INDEX,
  ATTR_HOOK_NAME,
  ATTR_HOOKS_INVOKED,
  ATTR_ATTEMPT,
  ATTR_GATED,
  ATTR_OUTCOME,
  ATTR_PHASE,
  ATTR_REDIRECT_ARG_KEYS,
  ATTR_REDIRECTED,
  ATTR_REEXECUTIONS,
  ATTR_RETRIES,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  HOOK_DURATION_BUCKETS,
  INSTRUMENTATION_NAME,
  LOG_SPAN_ID,
  LOG_TRACE_ID,
  METRIC_HOOK_DECISIONS,
  METRIC_HOOK_DURATION,
  METRIC_HOOK_ERRORS,
  METRIC_TOOL_CALLS,
  METRIC_TOOL_DURATION,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_ON_ERROR,
  TOOL_DURATION_BUCKETS,
} from '../../../src/telemetry/semconv.js';
import { OtlpReceiver } from '../../support/otlp-receiver.js';
import type { OtlpAttributes, ReceivedLog, ReceivedMetric, ReceivedSpan } from '../../support/otlp-receiver.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const APP = resolve(ROOT, 'test/integration/node/fixtures/otlp-app.ts');
const SERVICE = 'otlp-round-trip-app';

type Protocol = 'http/protobuf' | 'http/json';
const PROTOCOLS: readonly { protocol: Protocol; contentType: string; encoding: 'protobuf' | 'json' }[] = [
  { protocol: 'http/protobuf', contentType: 'application/x-protobuf', encoding: 'protobuf' },
  { protocol: 'http/json', contentType: 'application/json', encoding: 'json' },
];

type Report = Record<string, unknown>;

/** The app as a child process: its pino stdout lines, its stderr report, its exit. */
interface AppProcess {
  readonly stdout: Report[];
  readonly report: Report[];
  readonly exited: Promise<number | null>;
  send(line: string): void;
  waitFor(predicate: (report: readonly Report[]) => boolean, timeoutMs?: number): Promise<void>;
  kill(): void;
}

function parse(line: string): Report {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Report) : { raw: line };
  } catch {
    return { raw: line };
  }
}

function startApp(env: Record<string, string>): AppProcess {
  const base: NodeJS.ProcessEnv = {};
  // The machine's own OTEL_* settings must not leak into the app.
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('OTEL_')) base[name] = value;
  const child = spawn(process.execPath, ['--import', 'tsx', APP], {
    cwd: ROOT,
    env: {
      ...base,
      OTEL_SERVICE_NAME: SERVICE,
      // Small delays keep the test fast; the export timeout bounds retries of a refused connection.
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_BLRP_SCHEDULE_DELAY: '50',
      OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stdout: Report[] = [];
  const report: Report[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => stdout.push(parse(line)));
  createInterface({ input: child.stderr }).on('line', (line) => report.push(parse(line)));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  running.add(child);
  void exited.then(() => running.delete(child));
  return {
    stdout,
    report,
    exited,
    send: (line) => void child.stdin.write(`${line}\n`),
    async waitFor(predicate, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(report)) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`the app did not report in time; it said:\n${report.map((r) => JSON.stringify(r)).join('\n')}`);
        }
        await new Promise((resolveWait) => setTimeout(resolveWait, 20));
      }
    },
    kill: () => void child.kill('SIGKILL'),
  };
}

const running = new Set<ReturnType<typeof spawn>>();
let receiver: OtlpReceiver | undefined;

afterEach(async () => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
  await receiver?.stop();
  receiver = undefined;
});

/** What each tool call of the app returns or throws, by the call id's number. */
const EXPECTED_RESULTS: readonly Report[] = [
  { tool: 'search', result: 'results for otel' },
  { tool: 'cached', result: 'cached answer' },
  { tool: 'rm', error: { name: 'HookAbortError', type: 'HookAbortError', message: 'destructive command' } },
  { tool: 'broken', error: { name: 'Error', type: 'ToolFailure', message: 'disk on fire' } },
  { tool: 'lookup', result: { id: 7, found: true } },
];

function expectResults(report: readonly Report[], prefix: string): void {
  const calls = report.filter((r) => typeof r['call'] === 'string' && String(r['call']).startsWith(`${prefix}-`));
  expect(calls).toEqual(EXPECTED_RESULTS.map((expected, index) => ({ call: `${prefix}-${index + 1}`, ...expected })));
}

/** The children of a span, in start order. */
function childrenOf(spans: readonly ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] {
  return spans
    .filter((s) => s.parentSpanId === parent.spanId)
    .sort((a, b) => (a.startTimeUnixNano < b.startTimeUnixNano ? -1 : a.startTimeUnixNano > b.startTimeUnixNano ? 1 : 0));
}

/** The `execute_tool` span of one call, found by its `gen_ai.tool.call.id`. */
function rootOf(spans: readonly ReceivedSpan[], callId: string): ReceivedSpan {
  const roots = spans.filter((s) => s.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === callId);
  expect(roots, `execute_tool span of ${callId}`).toHaveLength(1);
  return roots[0] as ReceivedSpan;
}

/** A span event as (name, hook, decision), the way one reads a trace view. */
function eventSummary(span: ReceivedSpan | undefined): string[][] {
  return (span?.events ?? []).map((e) => [e.name, String(e.attributes[ATTR_HOOK_NAME]), String(e.attributes[ATTR_DECISION] ?? e.attributes[ATTR_HOOK_ERROR_KIND])]);
}

interface ExpectedTree {
  tool: string;
  outcome: string;
  errorType?: string;
  statusMessage?: string;
  /** Swallowed hook failures over the call (`toolhooks.hook.errors` on its span). */
  hookErrors?: number;
  children: string[];
}

const EXPECTED_TREES: readonly ExpectedTree[] = [
  { tool: 'search', outcome: 'completed', children: [SPAN_BEFORE_TOOL, SPAN_EXECUTE, SPAN_AFTER_TOOL] },
  { tool: 'cached', outcome: 'skipped', children: [SPAN_BEFORE_TOOL, SPAN_AFTER_TOOL] },
  { tool: 'rm', outcome: 'aborted', errorType: 'HookAbortError', statusMessage: 'destructive command', children: [SPAN_BEFORE_TOOL] },
  { tool: 'broken', outcome: 'failed', errorType: 'ToolFailure', statusMessage: 'disk on fire', children: [SPAN_BEFORE_TOOL, SPAN_EXECUTE, SPAN_ON_ERROR] },
  { tool: 'lookup', outcome: 'completed', hookErrors: 1, children: [SPAN_BEFORE_TOOL, SPAN_EXECUTE, SPAN_AFTER_TOOL] },
];
const SPANS_PER_BATCH = EXPECTED_TREES.reduce((sum, tree) => sum + 1 + tree.children.length, 0);

/** Checks the five span trees of one batch of calls and returns them by call number. */
function expectSpanTrees(spans: readonly ReceivedSpan[], prefix: string): { root: ReceivedSpan; children: ReceivedSpan[] }[] {
  return EXPECTED_TREES.map((expected, index) => {
    const callId = `${prefix}-${index + 1}`;
    const root = rootOf(spans, callId);
    expect(root).toMatchObject({
      name: `execute_tool ${expected.tool}`,
      kind: 'SPAN_KIND_INTERNAL',
      parentSpanId: undefined,
      scope: { name: INSTRUMENTATION_NAME },
      resource: { 'service.name': SERVICE },
      status: { code: expected.errorType === undefined ? 'STATUS_CODE_UNSET' : 'STATUS_CODE_ERROR', message: expected.statusMessage ?? '' },
    });
    const attributes: OtlpAttributes = {
      [ATTR_GEN_AI_OPERATION_NAME]: 'execute_tool',
      [ATTR_GEN_AI_TOOL_NAME]: expected.tool,
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_GEN_AI_TOOL_CALL_ID]: callId,
      [ATTR_OUTCOME]: expected.outcome,
      [ATTR_REDIRECTED]: false,
      [ATTR_RETRIES]: 0,
      [ATTR_REEXECUTIONS]: 0,
      [ATTR_HOOK_ERRORS]: expected.hookErrors ?? 0,
    };
    if (expected.errorType !== undefined) attributes[ATTR_ERROR_TYPE] = expected.errorType;
    expect(root.attributes).toEqual(attributes);

    const children = childrenOf(spans, root);
    expect(children.map((c) => c.name), callId).toEqual(expected.children);
    for (const child of children) {
      expect(child).toMatchObject({ traceId: root.traceId, kind: 'SPAN_KIND_INTERNAL', scope: { name: INSTRUMENTATION_NAME } });
      expect(childrenOf(spans, child)).toEqual([]);
    }
    return { root, children };
  });
}

function phaseAttributes(tool: string, phase: string, decision: string, invoked: number, extra: OtlpAttributes = {}): OtlpAttributes {
  return {
    [ATTR_GEN_AI_TOOL_NAME]: tool,
    [ATTR_PHASE]: phase,
    [ATTR_DECISION]: decision,
    [ATTR_HOOKS_INVOKED]: invoked,
    [ATTR_DECISIONS_SHADOWED]: 0,
    [ATTR_HOOK_ERRORS]: 0,
    ...extra,
  };
}

/** The phase and execute spans of one batch: attributes, status and every event with its attributes. */
function expectPhaseSpans(trees: { root: ReceivedSpan; children: ReceivedSpan[] }[]): void {
  const [search, cached, rm, broken, lookup] = trees.map((t) => t.children);

  // search: policy continues; the tool runs; the auditor continues.
  expect(search?.[0]?.attributes).toEqual(phaseAttributes('search', 'before_tool', 'continue', 1));
  expect(eventSummary(search?.[0])).toEqual([[EVENT_HOOK_DECISION, 'policy', 'continue']]);
  expect(search?.[0]?.events[0]?.attributes).toEqual({
    [ATTR_HOOK_NAME]: 'policy',
    [ATTR_HOOK_INDEX]: 0,
    [ATTR_DECISION]: 'continue',
    [ATTR_HOOK_DURATION_MS]: expect.any(Number),
  });
  expect(search?.[1]).toMatchObject({ attributes: { [ATTR_GEN_AI_TOOL_NAME]: 'search', [ATTR_ATTEMPT]: 1 }, status: { code: 'STATUS_CODE_UNSET' } });
  expect(search?.[2]?.attributes).toEqual(phaseAttributes('search', 'after_tool', 'continue', 1));
  expect(eventSummary(search?.[2])).toEqual([[EVENT_HOOK_DECISION, 'auditor', 'continue']]);

  // cached: policy's Skip wins, the rewriter's Redirect is shadowed by it.
  const before = cached?.[0];
  expect(before?.attributes).toEqual(
    phaseAttributes('cached', 'before_tool', 'skip', 2, { [ATTR_DECISION_HOOK]: 'policy', [ATTR_DECISIONS_SHADOWED]: 1 }),
  );
  expect(eventSummary(before)).toEqual([
    [EVENT_HOOK_DECISION, 'policy', 'skip'],
    [EVENT_HOOK_DECISION, 'rewriter', 'redirect'],
    [EVENT_HOOK_DECISION_SHADOWED, 'rewriter', 'redirect'],
  ]);
  expect(before?.events[0]?.attributes).toMatchObject({ [ATTR_HOOK_INDEX]: 0, [ATTR_DECISION_REASON]: 'cache hit' });
  expect(before?.events[1]?.attributes).toMatchObject({
    [ATTR_HOOK_INDEX]: 1,
    [ATTR_DECISION_REASON]: 'normalise the query',
    [ATTR_REDIRECT_ARG_KEYS]: ['q'],
  });
  expect(before?.events[2]?.attributes).toEqual({
    [ATTR_HOOK_NAME]: 'rewriter',
    [ATTR_DECISION]: 'redirect',
    [ATTR_DECISION_REASON]: 'normalise the query',
    [ATTR_DECISION_WINNER]: 'policy',
  });
  expect(before?.status.code).toBe('STATUS_CODE_UNSET');
  expect(cached?.[1]?.attributes).toEqual(phaseAttributes('cached', 'after_tool', 'continue', 1));

  // rm: policy aborts; the phase span stays UNSET, the execute_tool span carries the error.
  expect(rm?.[0]?.attributes).toEqual(phaseAttributes('rm', 'before_tool', 'abort', 1, { [ATTR_DECISION_HOOK]: 'policy' }));
  expect(rm?.[0]?.events[0]?.attributes).toMatchObject({ [ATTR_DECISION]: 'abort', [ATTR_DECISION_REASON]: 'destructive command' });
  expect(rm?.[0]?.status.code).toBe('STATUS_CODE_UNSET');

  // broken: the tool throws, the on_error hook continues, the error escapes.
  expect(broken?.[1]).toMatchObject({
    attributes: { [ATTR_GEN_AI_TOOL_NAME]: 'broken', [ATTR_ATTEMPT]: 1, [ATTR_ERROR_TYPE]: 'ToolFailure' },
    status: { code: 'STATUS_CODE_ERROR', message: 'disk on fire' },
  });
  expect(broken?.[2]?.attributes).toEqual(phaseAttributes('broken', 'on_error', 'continue', 1));
  expect(eventSummary(broken?.[2])).toEqual([[EVENT_HOOK_DECISION, 'auditor', 'continue']]);

  // lookup: the crashing hook is recorded and swallowed (fail-open); the tool still runs.
  const crashed = lookup?.[0];
  expect(crashed?.attributes).toEqual(phaseAttributes('lookup', 'before_tool', 'continue', 2, { [ATTR_HOOK_ERRORS]: 1 }));
  expect(eventSummary(crashed)).toEqual([
    [EVENT_HOOK_DECISION, 'policy', 'continue'],
    [EVENT_HOOK_ERROR, 'crashy', 'threw'],
    [EVENT_HOOK_DECISION, 'crashy', 'continue'],
  ]);
  expect(crashed?.events[1]?.attributes).toEqual({
    [ATTR_HOOK_NAME]: 'crashy',
    [ATTR_HOOK_ERROR_KIND]: 'threw',
    [ATTR_FAILURE_MODE]: 'open',
    [ATTR_EXCEPTION_TYPE]: 'TypeError',
    [ATTR_EXCEPTION_MESSAGE]: 'crashy hook bug',
    [ATTR_EXCEPTION_STACKTRACE]: expect.stringContaining('TypeError: crashy hook bug'),
  });
  expect(crashed?.status.code).toBe('STATUS_CODE_UNSET');
  expect(lookup?.[1]?.status.code).toBe('STATUS_CODE_UNSET');
}

/** A metric's data points as `attributes → value (or count)`, keyed for exact comparison. */
function pointsByAttributes(metric: ReceivedMetric | undefined): Record<string, number | undefined> {
  const out: Record<string, number | undefined> = {};
  for (const point of metric?.dataPoints ?? []) {
    const key = Object.entries(point.attributes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',');
    expect(out[key], `one data point per attribute set (${key})`).toBeUndefined();
    out[key] = metric?.type === 'histogram' ? point.count : point.value;
  }
  return out;
}

function key(attributes: Record<string, string | boolean>): string {
  return Object.entries(attributes)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(',');
}

/** Every metric of docs/telemetry.md after `batches` runs of the five calls (the metrics are cumulative). */
function expectMetrics(r: OtlpReceiver, batches: number): void {
  const duration = r.latestMetric(METRIC_TOOL_DURATION);
  expect(duration).toMatchObject({
    type: 'histogram',
    unit: 's',
    aggregationTemporality: 'AGGREGATION_TEMPORALITY_CUMULATIVE',
    scope: { name: INSTRUMENTATION_NAME },
    resource: { 'service.name': SERVICE },
  });
  for (const point of duration?.dataPoints ?? []) {
    expect(point.explicitBounds).toEqual(TOOL_DURATION_BUCKETS);
    expect(point.bucketCounts?.reduce((a, b) => a + b, 0)).toBe(point.count);
    expect(point.sum).toBeGreaterThan(0);
  }
  const tool = (name: string, outcome: string, errorType?: string): string =>
    // Every call of the app goes through its enforce-mode policy hook: all gated.
    key({ [ATTR_GEN_AI_TOOL_NAME]: name, [ATTR_OUTCOME]: outcome, [ATTR_GATED]: true, ...(errorType === undefined ? {} : { [ATTR_ERROR_TYPE]: errorType }) });
  const timed = (name: string, outcome: string, errorType?: string): string =>
    key({
      [ATTR_GEN_AI_TOOL_NAME]: name,
      [ATTR_GEN_AI_TOOL_TYPE]: 'function',
      [ATTR_OUTCOME]: outcome,
      ...(errorType === undefined ? {} : { [ATTR_ERROR_TYPE]: errorType }),
    });
  expect(pointsByAttributes(duration)).toEqual({
    [timed('search', 'completed')]: batches,
    [timed('cached', 'skipped')]: batches,
    [timed('rm', 'aborted', 'HookAbortError')]: batches,
    [timed('broken', 'failed', 'ToolFailure')]: batches,
    [timed('lookup', 'completed')]: batches,
  });

  const calls = r.latestMetric(METRIC_TOOL_CALLS);
  expect(calls).toMatchObject({ type: 'sum', unit: '{call}', isMonotonic: true, scope: { name: INSTRUMENTATION_NAME } });
  expect(pointsByAttributes(calls)).toEqual({
    [tool('search', 'completed')]: batches,
    [tool('cached', 'skipped')]: batches,
    [tool('rm', 'aborted')]: batches,
    [tool('broken', 'failed')]: batches,
    [tool('lookup', 'completed')]: batches,
  });

  const decision = (phase: string, hook: string, kind: string, toolName: string, shadowed = false): string =>
    key({
      [ATTR_PHASE]: phase,
      [ATTR_HOOK_NAME]: hook,
      [ATTR_DECISION]: kind,
      [ATTR_DECISION_SHADOWED]: shadowed,
      [ATTR_GEN_AI_TOOL_NAME]: toolName,
      [ATTR_HOOK_MODE]: 'enforce',
    });
  const decisions = r.latestMetric(METRIC_HOOK_DECISIONS);
  expect(decisions).toMatchObject({ type: 'sum', unit: '{decision}', isMonotonic: true });
  // Every invoked hook that did not fail, Continue included; the crashing hook is counted as an error.
  expect(pointsByAttributes(decisions)).toEqual({
    [decision('before_tool', 'policy', 'continue', 'search')]: batches,
    [decision('before_tool', 'policy', 'continue', 'broken')]: batches,
    [decision('before_tool', 'policy', 'continue', 'lookup')]: batches,
    [decision('before_tool', 'policy', 'skip', 'cached')]: batches,
    [decision('before_tool', 'policy', 'abort', 'rm')]: batches,
    [decision('before_tool', 'rewriter', 'redirect', 'cached', true)]: batches,
    [decision('after_tool', 'auditor', 'continue', 'search')]: batches,
    [decision('after_tool', 'auditor', 'continue', 'cached')]: batches,
    [decision('after_tool', 'auditor', 'continue', 'lookup')]: batches,
    [decision('on_error', 'auditor', 'continue', 'broken')]: batches,
  });

  const errors = r.latestMetric(METRIC_HOOK_ERRORS);
  expect(errors).toMatchObject({ type: 'sum', unit: '{error}', isMonotonic: true });
  expect(pointsByAttributes(errors)).toEqual({
    [key({ [ATTR_PHASE]: 'before_tool', [ATTR_HOOK_NAME]: 'crashy', [ATTR_HOOK_ERROR_KIND]: 'threw', [ATTR_HOOK_MODE]: 'enforce' })]: batches,
  });

  const hookDuration = r.latestMetric(METRIC_HOOK_DURATION);
  expect(hookDuration).toMatchObject({ type: 'histogram', unit: 's' });
  for (const point of hookDuration?.dataPoints ?? []) expect(point.explicitBounds).toEqual(HOOK_DURATION_BUCKETS);
  const hook = (phase: string, name: string): string => key({ [ATTR_PHASE]: phase, [ATTR_HOOK_NAME]: name });
  expect(pointsByAttributes(hookDuration)).toEqual({
    [hook('before_tool', 'policy')]: 5 * batches,
    [hook('before_tool', 'rewriter')]: batches,
    [hook('before_tool', 'crashy')]: batches,
    [hook('after_tool', 'auditor')]: 3 * batches,
    [hook('on_error', 'auditor')]: batches,
  });
}

/** Which span each log record must be linked to: the tool's span, or the phase span it was written in. */
const EXPECTED_LOGS: readonly { call: number; body: string; span: 'tool' | 'before_tool'; severity: string }[] = [
  { call: 1, body: 'tool call completed', span: 'tool', severity: 'info' },
  { call: 2, body: 'hook decided skip', span: 'before_tool', severity: 'info' },
  { call: 2, body: 'hook decision shadowed', span: 'before_tool', severity: 'info' },
  { call: 2, body: 'tool call skipped', span: 'tool', severity: 'info' },
  { call: 3, body: 'hook decided abort', span: 'before_tool', severity: 'info' },
  { call: 3, body: 'tool call aborted', span: 'tool', severity: 'warn' },
  { call: 4, body: 'tool call failed', span: 'tool', severity: 'warn' },
  { call: 5, body: 'hook failed', span: 'before_tool', severity: 'warn' },
  { call: 5, body: 'tool call completed', span: 'tool', severity: 'info' },
];

/** The log records of one batch, each linked to the span it was written in; the same on pino's stdout. */
function expectLogs(
  logs: readonly ReceivedLog[],
  stdout: readonly Report[],
  trees: { root: ReceivedSpan; children: ReceivedSpan[] }[],
  prefix: string,
): void {
  const ours = logs.filter((l) => String(l.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).startsWith(`${prefix}-`));
  expect(ours.map((l) => [l.attributes[ATTR_GEN_AI_TOOL_CALL_ID], l.body])).toEqual(
    EXPECTED_LOGS.map((e) => [`${prefix}-${e.call}`, e.body]),
  );
  EXPECTED_LOGS.forEach((expected, index) => {
    const record = ours[index];
    const tree = trees[expected.call - 1];
    const span = expected.span === 'tool' ? tree?.root : tree?.children.find((c) => c.name === SPAN_BEFORE_TOOL);
    expect(span, `${expected.body} of call ${expected.call}`).toBeDefined();
    expect(record).toMatchObject({
      traceId: span?.traceId,
      spanId: span?.spanId,
      flags: 1, // sampled
      severityText: expected.severity,
      scope: { name: INSTRUMENTATION_NAME },
      resource: { 'service.name': SERVICE },
    });
    // LoggingHook's default logger wrote the same record to stdout, with the same span context.
    const line = stdout.filter((l) => String(l[ATTR_GEN_AI_TOOL_CALL_ID]).startsWith(`${prefix}-`))[index];
    expect(line).toMatchObject({ msg: expected.body, [LOG_TRACE_ID]: span?.traceId, [LOG_SPAN_ID]: span?.spanId, trace_flags: '01' });
  });
  expect(ours.find((l) => l.body === 'hook failed')?.attributes).toMatchObject({
    [ATTR_HOOK_NAME]: 'crashy',
    [ATTR_HOOK_ERROR_KIND]: 'threw',
    [ATTR_EXCEPTION_TYPE]: 'TypeError',
    [ATTR_EXCEPTION_MESSAGE]: 'crashy hook bug',
  });
  expect(ours.find((l) => l.body === 'tool call aborted')?.attributes).toMatchObject({
    [ATTR_OUTCOME]: 'aborted',
    [ATTR_ERROR_TYPE]: 'HookAbortError',
    [ATTR_DECISION_REASON]: 'destructive command',
  });
}

function diagMessages(report: readonly Report[], level: string): string[] {
  return report.filter((r) => r['diag'] === level).map((r) => String(r['message']));
}

/** The count in a drop-reporting message such as "span export recovered; 17 spans were dropped while it failed". */
function recoveredCount(report: readonly Report[], signal: string): number {
  const messages = diagMessages(report, 'info').filter((m) => m.startsWith(`toolhooks: ${signal} export recovered; `));
  if (messages.length === 0) return 0;
  expect(messages).toHaveLength(1);
  return Number(/recovered; (\d+) /.exec(messages[0] ?? '')?.[1]);
}

describe.each(PROTOCOLS)('OTLP round trip from a child process over $protocol', ({ protocol, contentType, encoding }) => {
  it('exports the span trees, every documented metric and the linked log records of completed, skipped, aborted, failed and crashing-hook calls', async () => {
    receiver = await OtlpReceiver.start();
    const app = startApp({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTLP_APP_SCENARIO: 'round-trip' });
    expect(await app.exited).toBe(0);
    expect(app.report).toContainEqual({ event: 'started', status: 'started' });
    expect(app.report.at(-1)).toEqual({ event: 'done' });
    expectResults(app.report, 'run');
    // The only diag output is the runner's note on the crashing hook: no export trouble.
    expect(diagMessages(app.report, 'warn')).toEqual([expect.stringContaining('hook "crashy" failed in before_tool')]);
    expect(diagMessages(app.report, 'error')).toEqual([]);

    const requests = receiver.requests();
    expect(new Set(requests.map((r) => r.path))).toEqual(new Set(['/v1/traces', '/v1/metrics', '/v1/logs']));
    for (const request of requests) {
      expect(request).toMatchObject({ contentType, status: 200 });
      expect(request.decodeError).toBeUndefined();
    }
    expect(receiver.spans().every((s) => s.encoding === encoding)).toBe(true);

    const spans = receiver.spans();
    expect(spans).toHaveLength(SPANS_PER_BATCH);
    const trees = expectSpanTrees(spans, 'run');
    expect(new Set(trees.map((t) => t.root.traceId)).size).toBe(5); // one trace per tool call
    expectPhaseSpans(trees);
    expectMetrics(receiver, 1);
    expect(receiver.logs()).toHaveLength(EXPECTED_LOGS.length);
    expectLogs(receiver.logs(), app.stdout, trees, 'run');
  });

  it('starts while the collector is down: no tool call fails, and what is recorded once it is up arrives', async () => {
    receiver = await OtlpReceiver.start();
    await receiver.refuse(); // the port is closed: connections are refused until start()
    const app = startApp({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_METRIC_EXPORT_INTERVAL: '300',
      OTLP_APP_SCENARIO: 'late-collector',
    });
    // Every signal has met the outage before the collector comes up.
    await app.waitFor((report) => {
      const warnings = diagMessages(report, 'warn');
      return (
        report.some((r) => r['event'] === 'waiting') &&
        ['span', 'metric', 'log'].every((signal) => warnings.some((w) => w.startsWith(`toolhooks: ${signal} export failed (`)))
      );
    });
    expectResults(app.report, 'down');
    for (const signal of ['span', 'metric', 'log']) {
      const failed = diagMessages(app.report, 'warn').filter((w) => w.startsWith(`toolhooks: ${signal} export failed (`));
      expect(failed, `${signal}: reported once`).toHaveLength(1);
      expect(failed[0]).toContain('ECONNREFUSED');
    }

    await receiver.start(); // same port
    app.send('go');
    expect(await app.exited).toBe(0);
    expectResults(app.report, 'up');
    expect(diagMessages(app.report, 'error')).toEqual([]);

    // Everything recorded after the collector came up arrived, complete.
    const spans = receiver.spans();
    const upTraces = new Set(
      spans.filter((s) => String(s.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).startsWith('up-')).map((s) => s.traceId),
    );
    const upSpans = spans.filter((s) => upTraces.has(s.traceId));
    expect(upSpans).toHaveLength(SPANS_PER_BATCH);
    const trees = expectSpanTrees(upSpans, 'up');
    expectPhaseSpans(trees);
    expectLogs(receiver.logs(), app.stdout, trees, 'up');

    // What was recorded while it was down either arrived late (an export retried into the recovery) or
    // was dropped and counted: nothing vanished unreported.
    const downSpans = spans.filter((s) => !upTraces.has(s.traceId));
    expect(downSpans.length + recoveredCount(app.report, 'span')).toBe(SPANS_PER_BATCH);
    const downLogs = receiver.logs().filter((l) => String(l.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).startsWith('down-'));
    expect(downLogs.length + recoveredCount(app.report, 'log')).toBe(EXPECTED_LOGS.length);
    expect(recoveredCount(app.report, 'span') + recoveredCount(app.report, 'log')).toBeGreaterThan(0);

    // Metrics are cumulative: the calls made while the collector was down are in the totals too.
    expectMetrics(receiver, 2);
  });
});

