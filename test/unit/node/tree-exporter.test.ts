import { describe, expect, it } from 'vitest';
import { HookRunner, abort, executeTool, redirect } from '../../../src/index.js';
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
});
