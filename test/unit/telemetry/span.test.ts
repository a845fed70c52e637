/**
 * No tracer or span method that throws reaches a caller: each method of a real SDK span (and each
 * tracer method) is made to throw, one at a time, and every entry a user calls — executeTool, the
 * other flows, runBefore / runAfter / runError — still returns what it returns with a working tracer.
 */
import type { Span, Tracer } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { CompoundTool, HookAbortError, HookRunner, abort, executeTool, redirect, runPlan, runWithRetry, skip } from '../../../src/index.js';
import { useTestTracing } from '../../support/tracing.js';
import { useDiagRecorder } from '../../support/diag.js';

const tracing = useTestTracing();
useDiagRecorder(); // what the runner reports through diag is kept, not printed

const SPAN_METHODS = [
  'spanContext',
  'setAttribute',
  'setAttributes',
  'addEvent',
  'addLink',
  'addLinks',
  'setStatus',
  'updateName',
  'end',
  'isRecording',
  'recordException',
] as const;

/** A tracer whose spans are real SDK spans except that `method` throws. */
function tracerBreaking(method: string): Tracer {
  const real = tracing.tracer;
  const breakSpan = (span: Span): Span =>
    new Proxy(span, {
      get(target, prop, receiver) {
        if (prop === method) {
          return () => {
            throw new Error(`span.${method} broken`);
          };
        }
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return {
    startSpan: (...args: Parameters<Tracer['startSpan']>) => {
      if (method === 'startSpan') throw new Error('tracer.startSpan broken');
      return breakSpan(real.startSpan(...args));
    },
    startActiveSpan: () => {
      throw new Error('tracer.startActiveSpan broken');
    },
  } as Tracer;
}

const hooks = (): ToolHook[] => [
  { name: 'gate', beforeTool: (tool) => (tool === 'rm' ? abort('no rm') : undefined) },
  { name: 'shadowed', beforeTool: (tool) => (tool === 'rm' ? skip('late') : undefined) },
  { name: 'fix', onError: () => skip('recovered', 'fallback') },
  { name: 'after', afterTool: () => undefined },
  { name: 'watch', onEvent: () => undefined },
];

describe.each([...SPAN_METHODS, 'startSpan'])('a tracer whose %s throws', (method) => {
  const runner = (): HookRunner => new HookRunner({ hooks: hooks(), tracer: tracerBreaking(method) });

  it('changes nothing executeTool returns or throws', async () => {
    const r = runner();
    await expect(executeTool({ hooks: r, toolName: 'ls', args: {}, execute: () => 'listed' })).resolves.toBe('listed');
    await expect(executeTool({ hooks: r, toolName: 'rm', args: {}, execute: () => 'gone' })).rejects.toBeInstanceOf(HookAbortError);
    await expect(
      executeTool({
        hooks: r,
        toolName: 'fails',
        args: {},
        execute: () => {
          throw new Error('tool broke');
        },
      }),
    ).resolves.toBe('fallback');
  });

  it('changes nothing runBefore, runAfter and runError return or throw', async () => {
    const r = runner();
    await expect(r.runBefore('ls', {}, undefined)).resolves.toEqual({ kind: 'continue' });
    await expect(r.runBefore('rm', {}, undefined)).rejects.toBeInstanceOf(HookAbortError);
    await expect(r.runAfter('ls', {}, 'out', undefined, 1)).resolves.toEqual({ kind: 'continue' });
    await expect(r.runError('ls', {}, new Error('x'), undefined)).resolves.toEqual(skip('recovered', 'fallback'));
  });

  it('changes nothing the other flows return', async () => {
    const r = runner();
    const compound = new CompoundTool({ name: 'c', hooks: r, agent: { name: 'agent', run: () => 'planned' }, executor: () => 'ran' });
    await expect(compound.run(undefined, 'go')).resolves.toEqual({ agentOutput: 'planned', result: 'ran' });
    const [subtask] = await runPlan([{ name: 'a', prompt: 'p' }], { hooks: r, runSubtask: () => 1 });
    expect(subtask).toMatchObject({ name: 'a', success: true, output: 1 });
    let attempts = 0;
    const retried = runWithRetry(
      () => {
        attempts += 1;
        if (attempts === 1) throw new Error('first fails');
        return 'ok';
      },
      { hooks: new HookRunner({ hooks: [{ name: 'a', afterTool: () => undefined }], tracer: tracerBreaking(method) }), toolName: 'retry', args: {}, note: 'n' },
    );
    await expect(retried).resolves.toBe('ok');
    const redirecting = new HookRunner({ hooks: [{ name: 'r', beforeTool: (t) => (t === 'a' ? redirect({ newTool: 'b' }) : undefined) }], tracer: tracerBreaking(method) });
    await expect(executeTool({ hooks: redirecting, toolName: 'a', args: {}, execute: () => 'a ran', tools: { b: () => 'b ran' } })).resolves.toBe('b ran');
  });
});
