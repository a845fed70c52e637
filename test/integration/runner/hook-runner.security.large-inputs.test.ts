/**
 * Security (issue 6), huge values: 10 MB strings everywhere an attacker or a runaway tool could put them
 * (arguments, results, reasons, thrown messages, a 1 MB key) leave every attribute, status, event and diag
 * message bounded, with capture on and off. The other security checks are in
 * test/unit/runner/hook-runner.security.test.ts; these are in the integration tier for their size.
 */
import { describe, expect, it } from 'vitest';
import type { ToolArgs, ToolHookEvent } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, executeTool, redirect } from '../../../src/index.js';
import { ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, ATTR_REDIRECT_ARG_KEYS, EVENT_HOOK_DECISION, SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';
import { useDiagRecorder } from '../../support/diag.js';
import { expectNoPollutionAfterEach } from '../../support/hostile-values.js';

const tracing = useTestTracing();
const diagRecorder = useDiagRecorder();
const warnings = diagRecorder.messages;
expectNoPollutionAfterEach('isAdmin');

/** Every string a span or span event holds, for size and content checks. */
function allTelemetry(): string {
  return JSON.stringify(
    tracing.spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })),
  );
}

function stringAttributes(): string[] {
  return tracing
    .spans()
    .flatMap((span) => [span.attributes, ...span.events.map((event) => event.attributes ?? {})])
    .flatMap((attributes) => Object.values(attributes))
    .flatMap((value) => (Array.isArray(value) ? value : [value]))
    .filter((value): value is string => typeof value === 'string');
}

describe('huge values stay bounded', () => {
  const MB10 = 'x'.repeat(10 * 1024 * 1024);
  const hugeKey = 'k'.repeat(1024 * 1024);

  /** Three calls that put 10 MB strings everywhere an attacker or a runaway tool could. */
  async function hostileCalls(capture: { args: boolean; results: boolean }, events: ToolHookEvent[]): Promise<unknown[]> {
    const newArgs: ToolArgs = { blob: MB10, [hugeKey]: 1 };
    for (let i = 0; i < 1000; i += 1) newArgs[`key${i}`] = i;
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      capture,
      hooks: [
        {
          name: 'rewriter',
          beforeTool: (tool) => (tool === 'fetch' ? redirect({ newArgs, reason: MB10 }) : undefined),
          afterTool: () => {
            throw new Error(MB10);
          },
          onError: () => abort(MB10),
        },
        { name: 'gate', failureMode: 'closed', beforeTool: (tool) => (tool === 'gated' ? Promise.reject(new Error(MB10)) : undefined) },
        { name: 'observer', onEvent: (event) => void events.push(event) },
      ],
    });
    const settle = (promise: Promise<unknown>): Promise<unknown> => promise.catch((error: unknown) => error);
    return Promise.all([
      settle(executeTool({ hooks, toolName: 'fetch', args: { url: MB10 }, execute: () => ({ body: MB10 }) })),
      settle(
        executeTool({
          hooks,
          toolName: 'crash',
          args: { url: MB10 },
          execute: () => {
            throw new Error(MB10);
          },
        }),
      ),
      settle(executeTool({ hooks, toolName: 'gated', args: {}, execute: () => 'never' })),
    ]);
  }

  it('with capture on: every attribute, status, event and diag message has a bound', async () => {
    const events: ToolHookEvent[] = [];
    const [fetched, crashed, gated] = await hostileCalls({ args: true, results: true }, events);
    expect(fetched).toEqual({ body: MB10 }); // the tool's own result is never cut: only telemetry is
    expect(crashed).toBeInstanceOf(HookAbortError);
    expect(gated).toBeInstanceOf(HookAbortError);
    // A fail-closed reason quotes the hook's error, cut to maxLength (4096).
    expect((gated as HookAbortError).reason.length).toBeLessThan(4096 + 100);
    expect((gated as HookAbortError).reason).toMatch(/^hook gate failed: x+…\[truncated \d+\]$/);

    for (const value of stringAttributes()) expect(value.length).toBeLessThanOrEqual(16_384);
    for (const span of tracing.spans()) expect(span.status.message?.length ?? 0).toBeLessThanOrEqual(4096 + 32);
    const decision = eventsOf(tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!, EVENT_HOOK_DECISION).find(
      (event) => event.attributes[ATTR_REDIRECT_ARG_KEYS] !== undefined,
    )!;
    const keys = decision.attributes[ATTR_REDIRECT_ARG_KEYS] as string[];
    expect(keys.length).toBeLessThanOrEqual(64);
    expect(keys[1]).toMatch(/^k+…\[truncated \d+\]$/);
    expect(allTelemetry().length).toBeLessThan(512 * 1024);
    expect(JSON.stringify(events).length).toBeLessThan(256 * 1024);
    for (const warning of warnings) expect(warning.length).toBeLessThan(8 * 1024);
  });

  it('with capture off: no 10 MB value reaches telemetry at all, beyond the bounded reasons and messages', async () => {
    const events: ToolHookEvent[] = [];
    await hostileCalls({ args: false, results: false }, events);
    expect(allTelemetry().length).toBeLessThan(128 * 1024);
    expect(JSON.stringify(events).length).toBeLessThan(128 * 1024);
    expect(allTelemetry()).not.toContain(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS);
  });
});
