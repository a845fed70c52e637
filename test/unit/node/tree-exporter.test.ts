import { describe, expect, it } from 'vitest';
import { HookRunner, abort, ask, executeTool, redirect } from '../../../src/index.js';
import { TreeSpanExporter } from '../../../src/node/index.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();

describe('TreeSpanExporter', () => {
  it('prints a finished call as a tree with outcome, decisions, shadowed decisions and hook errors', async () => {
    tracing.reset();
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      hooks: [
        {
          name: 'broken',
          beforeTool: () => {
            throw new Error('line one\nline two');
          },
        },
        { name: 'router', beforeTool: () => redirect({ newTool: 'sandbox', reason: 'untrusted' }) },
        { name: 'gate', beforeTool: () => abort('nope') },
      ],
    });
    await executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 1, tools: { sandbox: () => 2 }, callId: 'c9' }).catch(() => undefined);
    const written: string[] = [];
    const exporter = new TreeSpanExporter({ write: (text) => void written.push(text) });
    // Children end (and arrive) before their root; the tree is printed when the root arrives.
    const spans = tracing.spans();
    exporter.export(spans.slice(0, -1), () => undefined);
    expect(written).toEqual([]);
    exporter.export(spans.slice(-1), () => undefined);
    const lines = written.join('').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^execute_tool shell {2}\d+\.\d ms {2}id=c9 {2}outcome=aborted {2}error\.type=HookAbortError {2}"nope"$/);
    expect(lines[1]).toMatch(/^└─ toolhooks\.before_tool .* decision=abort by gate$/);
    expect(lines.slice(2).map((l) => l.trim().replace(/ \(\d+\.\d+ ms\)$/, ''))).toEqual([
      '! broken: threw Error: line one line two [fail-open]',
      '• broken: continue',
      '• router: redirect → sandbox "untrusted"',
      '• gate: abort "nope"',
      '~ router: redirect "untrusted" (shadowed by gate)',
    ]);
  });

  it('names the policies that decided, after the reason, for a policy hook (and its audit twin)', async () => {
    tracing.reset();
    const { policyHook } = await import('../../../src/policy/index.js');
    const engine = { name: 'test', evaluate: () => ({ decision: 'deny' as const, reason: 'no', policies: ['no-rm', 'prod'] }) };
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [policyHook(engine, { name: 'shadow', mode: 'audit' }), policyHook(engine)] });
    await executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 1 }).catch(() => undefined);
    const written: string[] = [];
    new TreeSpanExporter({ write: (text) => void written.push(text) }).export(tracing.spans(), () => undefined);
    const text = written.join('');
    expect(text).toMatch(/◦ shadow: would abort "no" \[no-rm, prod\] \(\d+\.\d+ ms\) \[audit\]/);
    expect(text).toMatch(/• policy: abort "no" \[no-rm, prod\] \(\d+\.\d+ ms\)/);
  });

  it('prints spans whose root never arrives on flush, and nothing twice', async () => {
    tracing.reset();
    const parent = tracing.tracer.startSpan('remote-parent');
    const { context, trace } = await import('@opentelemetry/api');
    await context.with(trace.setSpan(context.active(), parent), async () => {
      await executeTool({ hooks: new HookRunner({ tracer: tracing.tracer }), toolName: 'orphaned', args: {}, execute: () => 1 });
    });
    const written: string[] = [];
    const exporter = new TreeSpanExporter({ write: (text) => void written.push(text) });
    exporter.export(tracing.spans(), () => undefined); // the parent never ended, so it is not among them
    expect(written).toEqual([]);
    await exporter.forceFlush();
    await exporter.shutdown();
    expect(written.join('')).toMatch(/^execute_tool orphaned .*outcome=completed\n└─ toolhooks\.execute/);
    expect(written).toHaveLength(1);
    parent.end();
  });

  it('prints the approval wait and who decided, escaped', async () => {
    tracing.reset();
    const gate = { name: 'gate', beforeTool: () => ask('mail') };
    const approved = new HookRunner({ tracer: tracing.tracer, hooks: [gate], approver: () => ({ approved: true, approver: 'on-call' }) });
    await executeTool({ hooks: approved, toolName: 'send_email', args: {}, execute: () => 1 });
    const denied = new HookRunner({ tracer: tracing.tracer, hooks: [gate], approver: () => ({ approved: false, approver: 'bob\u001b[31m', reason: 'not now\nreally' }) });
    await executeTool({ hooks: denied, toolName: 'send_email', args: {}, execute: () => 1 });
    const written: string[] = [];
    const exporter = new TreeSpanExporter({ write: (text) => void written.push(text) });
    exporter.export(tracing.spans(), () => undefined);
    const [first, second] = written.map((text) => text.trimEnd().split('\n'));
    expect(first?.[0]).toMatch(/outcome=completed/);
    expect(first?.[1]).toMatch(/^├─ toolhooks\.before_tool .* decision=ask by gate$/);
    expect(first?.at(-2)).toMatch(/^├─ \? approval: approved by on-call \(\d+\.\d ms\)$/);
    expect(first?.at(-1)).toMatch(/^└─ toolhooks\.execute /);
    expect(second?.[0]).toMatch(/outcome=denied/);
    expect(second?.at(-1)).toMatch(/^└─ \? approval: denied by bob\\u001b\[31m "not now really" \(\d+\.\d ms\)$/);
    expect(written.join('')).not.toContain('\u001b');
  });

  it('shows a wait of a second or more in seconds', () => {
    // A finished approval span as the SDK hands it over, waiting 4.2 s.
    const span = {
      name: 'toolhooks.approval',
      attributes: { 'toolhooks.approval.outcome': 'approved', 'toolhooks.approval.approver': 'on-call' },
      startTime: [100, 0],
      endTime: [104, 200_000_000],
      events: [],
      status: { code: 0 },
      parentSpanContext: undefined,
      spanContext: () => ({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }),
    };
    const written: string[] = [];
    new TreeSpanExporter({ write: (text) => void written.push(text) }).export([span as never], () => undefined);
    expect(written.join('')).toBe('? approval: approved by on-call (4.2 s)\n\n');
  });
});
