/**
 * The README's "See your traces in Jaeger" walkthrough, done for real: the real Jaeger v2 with
 * deploy/jaeger/jaeger.yaml, `npm run demo` sending to it, and every step checked through the query API
 * the Jaeger UI calls (`/api/services`, `/api/operations`, `/api/traces`, `/api/v3/traces`).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAIL_SCRIPT, SCRIPT, policyHook } from '../../../examples/agent-tools.js';
import { findProgram, runProgram, type ProgramResult } from '../../support/programs.js';
import { requireJaeger, startJaeger, tagsOf, type JaegerSpan, type JaegerTrace, type RunningJaeger } from '../../support/jaeger.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SERVICE = 'toolhooks-demo';
/** Every call the demo makes: the script, then the two gated mails. */
const CALLS = SCRIPT.length + MAIL_SCRIPT.length;

/** The demo's shell calls the policy hook aborts, by call id, with the reason it gives. */
function expectedAborts(): Map<string, string> {
  const aborted = new Map<string, string>();
  for (const [i, step] of SCRIPT.entries()) {
    if (step.tool !== 'shell') continue;
    // The demo's own policy hook says which calls it aborts (it reads neither state nor context).
    const decision: unknown = policyHook.beforeTool?.('shell', step.args, undefined, {} as never);
    if (typeof decision === 'object' && decision !== null && (decision as { kind?: unknown }).kind === 'abort') {
      aborted.set(`call_${i + 1}`, (decision as { reason?: string }).reason ?? '');
    }
  }
  return aborted;
}

const root = (trace: JaegerTrace): JaegerSpan => {
  const span = trace.spans.find((s) => s.references.length === 0);
  if (span === undefined) throw new Error(`trace ${trace.traceID} has no root span`);
  return span;
};
const childrenOf = (trace: JaegerTrace, parent: JaegerSpan): JaegerSpan[] =>
  trace.spans.filter((s) => s.references.some((r) => r.refType === 'CHILD_OF' && r.spanID === parent.spanID));
const logsOf = (span: JaegerSpan): Record<string, unknown>[] => span.logs.map((log) => tagsOf(log.fields));

describe('the README walkthrough against a real Jaeger', () => {
  let jaeger: RunningJaeger | undefined;
  let demo: ProgramResult | undefined;

  afterAll(async () => {
    await jaeger?.stop();
  });

  /** Starts Jaeger and runs the demo once, for all the steps below (each test skips or fails on its own when Jaeger is missing). */
  async function setUp(ctx: Parameters<typeof requireJaeger>[0]): Promise<RunningJaeger> {
    const binary = requireJaeger(ctx);
    if (jaeger !== undefined) return jaeger;
    jaeger = await startJaeger({ binary });
    const npm = findProgram('npm');
    if (npm === undefined) throw new Error('npm not found on PATH');
    demo = await runProgram(npm, ['run', 'demo'], {
      cwd: ROOT,
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpHttpUrl },
      timeoutMs: 60_000,
    });
    expect(demo.code, demo.output).toBe(0);
    const running = jaeger;
    // Every call of the script is one execute_tool trace; wait until Jaeger has them all.
    await running.waitFor(`${CALLS} demo traces`, async () => (await running.findTraces({ service: SERVICE })).length >= CALLS);
    return running;
  }

  it('the demo reports that it exported (nothing refused by Jaeger)', async (ctx) => {
    await setUp(ctx);
    expect(demo?.stdout).toContain(`Traces, metrics and logs were sent to ${jaeger?.otlpHttpUrl ?? ''}`);
    expect(demo?.output).not.toMatch(/could not be reached/);
  });

  it('lists service toolhooks-demo and operation "execute_tool shell"', async (ctx) => {
    const j = await setUp(ctx);
    expect(await j.services()).toContain(SERVICE);
    const operations = (await j.operations(SERVICE)).map((op) => op.name);
    expect(operations).toEqual(expect.arrayContaining(['execute_tool shell', 'toolhooks.before_tool', 'toolhooks.execute']));
  });

  it('the tag search toolhooks.outcome=aborted returns exactly the aborted calls, each with its decision', async (ctx) => {
    const j = await setUp(ctx);
    const aborts = expectedAborts();
    expect(aborts.size).toBeGreaterThan(0);
    const traces = await j.findTraces({ service: SERVICE, operation: 'execute_tool shell', tags: { 'toolhooks.outcome': 'aborted' } });
    const callIds = traces.map((trace) => tagsOf(root(trace).tags)['gen_ai.tool.call.id']);
    expect(callIds.sort()).toEqual([...aborts.keys()].sort());

    for (const trace of traces) {
      const call = root(trace);
      const tags = tagsOf(call.tags);
      expect(call.operationName).toBe('execute_tool shell');
      expect(tags).toMatchObject({
        'toolhooks.outcome': 'aborted',
        'error.type': 'HookAbortError',
        error: true, // Jaeger's error flag: the span's status is ERROR
        'otel.status_code': 'ERROR',
      });
      const reason = aborts.get(String(tags['gen_ai.tool.call.id']));
      expect(tags['otel.status_description']).toContain(reason);

      const phases = childrenOf(trace, call);
      expect(phases.map((s) => s.operationName)).toEqual(['toolhooks.before_tool']);
      const [phase] = phases as [JaegerSpan];
      expect(tagsOf(phase.tags)).toMatchObject({ 'toolhooks.decision': 'abort', 'toolhooks.decision.hook': 'policy' });
      // The phase span carries no error flag: an Abort is a decision, not a failure of the phase.
      expect(tagsOf(phase.tags)['error']).toBeUndefined();
      expect(logsOf(phase)).toContainEqual(
        expect.objectContaining({
          event: 'toolhooks.hook.decision',
          'toolhooks.hook.name': 'policy',
          'toolhooks.decision': 'abort',
          'toolhooks.decision.reason': reason,
        }),
      );
      // Aborted before the tool ran: no toolhooks.execute span.
      expect(trace.spans.some((s) => s.operationName === 'toolhooks.execute')).toBe(false);
    }
  });

  it('a swallowed hook error shows as its event with the exception, and the call goes on', async (ctx) => {
    const j = await setUp(ctx);
    const traces = await j.findTraces({ service: SERVICE, operation: 'execute_tool read_file' });
    const withError = traces.filter((trace) => trace.spans.some((s) => logsOf(s).some((log) => log['event'] === 'toolhooks.hook.error')));
    const expected = SCRIPT.filter((step) => step.tool === 'read_file' && String(step.args['path']).startsWith('/etc')).length;
    expect(withError).toHaveLength(expected);
    for (const trace of withError) {
      // The call span counts the swallowed errors of all its phases: what tail sampling keys on.
      expect(tagsOf(root(trace).tags)).toMatchObject({ 'toolhooks.outcome': 'completed', 'toolhooks.hook.errors': 1 });
      const phase = trace.spans.find((s) => s.operationName === 'toolhooks.before_tool');
      expect(tagsOf(phase?.tags ?? [])['toolhooks.hook.errors']).toBe(1);
      expect(logsOf(phase as JaegerSpan)).toContainEqual(
        expect.objectContaining({
          event: 'toolhooks.hook.error',
          'toolhooks.hook.name': 'audit-log',
          'toolhooks.hook.error.kind': 'threw',
          'exception.type': 'TypeError',
          'exception.message': "Cannot read properties of undefined (reading 'user')",
          'exception.stacktrace': expect.stringContaining('TypeError'),
        }),
      );
      expect(trace.spans.filter((s) => s.operationName === 'toolhooks.execute')).toHaveLength(1);
    }
  });

  it('a recovered call shows both toolhooks.execute attempts and the on_error decision between them', async (ctx) => {
    const j = await setUp(ctx);
    const traces = await j.findTraces({ service: SERVICE, operation: 'execute_tool flaky_api', tags: { 'toolhooks.outcome': 'recovered' } });
    expect(traces.length).toBeGreaterThan(0);
    for (const trace of traces) {
      const attempts = trace.spans.filter((s) => s.operationName === 'toolhooks.execute');
      expect(attempts.map((s) => tagsOf(s.tags)['toolhooks.attempt']).sort()).toEqual([1, 2]);
      const onError = trace.spans.find((s) => s.operationName === 'toolhooks.on_error');
      expect(tagsOf(onError?.tags ?? [])).toMatchObject({ 'toolhooks.decision': 'redirect', 'toolhooks.decision.hook': 'retry-503' });
    }
  });

  it('a cache hit is a skipped call: the before_tool decision says so and the tool never ran', async (ctx) => {
    const j = await setUp(ctx);
    const traces = await j.findTraces({ service: SERVICE, operation: 'execute_tool web_search', tags: { 'toolhooks.outcome': 'skipped' } });
    const repeated = SCRIPT.filter((step, i) => step.tool === 'web_search' && SCRIPT.slice(0, i).some((s) => s.tool === 'web_search' && s.args['query'] === step.args['query']));
    expect(traces).toHaveLength(repeated.length);
    for (const trace of traces) {
      const phase = trace.spans.find((s) => s.operationName === 'toolhooks.before_tool');
      expect(tagsOf(phase?.tags ?? [])).toMatchObject({ 'toolhooks.decision': 'skip', 'toolhooks.decision.hook': 'search-cache' });
      expect(trace.spans.some((s) => s.operationName === 'toolhooks.execute')).toBe(false);
    }
  });

  it('each gated mail has its approval span; the tag search toolhooks.approval.outcome=denied finds the refused one', async (ctx) => {
    const j = await setUp(ctx);
    const traces = await j.findTraces({ service: SERVICE, operation: 'execute_tool send_email' });
    expect(traces).toHaveLength(MAIL_SCRIPT.length);
    for (const trace of traces) {
      const call = root(trace);
      // Start times come back in whole milliseconds, so spans of one millisecond tie: compare as sets, and
      // the approval's start with the phase's.
      const kids = childrenOf(trace, call).map((s) => s.operationName).sort();
      const approval = trace.spans.find((s) => s.operationName === 'toolhooks.approval');
      expect(approval, 'approval span').toBeDefined();
      const tags = tagsOf(approval?.tags ?? []);
      expect(tags).toMatchObject({ 'toolhooks.approval.hook': 'mail-gate', 'toolhooks.approval.approver': 'on-call' });
      expect(tagsOf(call.tags)['toolhooks.approval.id']).toBe(tags['toolhooks.approval.id']);
      const before = trace.spans.find((s) => s.operationName === 'toolhooks.before_tool');
      expect(approval?.startTime).toBeGreaterThanOrEqual(before?.startTime ?? Number.POSITIVE_INFINITY);
      expect(tagsOf(before?.tags ?? [])).toMatchObject({ 'toolhooks.decision': 'ask', 'toolhooks.decision.hook': 'mail-gate' });
      if (tags['toolhooks.approval.outcome'] === 'approved') {
        expect(kids).toEqual(['toolhooks.approval', 'toolhooks.before_tool', 'toolhooks.execute']);
        expect(tagsOf(call.tags)['toolhooks.outcome']).toBe('completed');
      } else {
        expect(kids).toEqual(['toolhooks.approval', 'toolhooks.before_tool']);
        expect(tags['toolhooks.approval.denial_reason']).toBe('mail outside the team needs a ticket');
      }
    }
    const denied = await j.findTraces({ service: SERVICE, operation: 'execute_tool send_email', tags: { 'toolhooks.approval.outcome': 'denied' } });
    expect(denied.map((trace) => tagsOf(root(trace).tags)['toolhooks.outcome'])).toEqual(['denied']);
  });

    it('/api/v3/traces returns the same calls as OTLP JSON (what `toolhooks replay` reads)', async (ctx) => {
    const j = await setUp(ctx);
    const body = (await j.v3Traces({ service: SERVICE })) as {
      result?: { resourceSpans?: { resource?: { attributes?: { key: string; value: { stringValue?: string } }[] }; scopeSpans?: { spans?: { name: string }[] }[] }[] };
    };
    const resourceSpans = body.result?.resourceSpans ?? [];
    const services = new Set(resourceSpans.flatMap((rs) => (rs.resource?.attributes ?? []).filter((a) => a.key === 'service.name').map((a) => a.value.stringValue)));
    expect([...services]).toEqual([SERVICE]);
    const names = resourceSpans.flatMap((rs) => (rs.scopeSpans ?? []).flatMap((ss) => (ss.spans ?? []).map((s) => s.name)));
    expect(names.filter((name) => name.startsWith('execute_tool '))).toHaveLength(CALLS);
  });
});
