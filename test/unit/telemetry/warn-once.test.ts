/**
 * The reporting home never throws: with a diag logger whose every method throws, each path that
 * reports — an after_tool Skip, a throwing observer, a failing hook (first and later failures),
 * runWithRetry's enrichNote / isRetryable, CompoundTool's stateUpdater — still returns what it would.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { CompoundTool, HookRunner, executeTool, runWithRetry, skip } from '../../../src/index.js';
import { FailureCounter, report } from '../../../src/telemetry/warn-once.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
const said: string[] = [];
const throwing = (message: string): never => {
  said.push(message);
  throw new Error('diag logger broken');
};
const brokenLogger: DiagLogger = { error: throwing, warn: throwing, info: throwing, debug: () => undefined, verbose: () => undefined };

beforeEach(() => {
  said.length = 0;
  diag.setLogger(brokenLogger, { logLevel: DiagLogLevel.INFO, suppressOverrideMessage: true });
});
afterEach(() => diag.disable());

describe('report', () => {
  it('escapes control characters and never throws, whatever the logger does', () => {
    expect(() => report('warn', 'toolhooks: bad\u001b[31m name')).not.toThrow();
    expect(() => report('error', 'e', new Error('detail'))).not.toThrow();
    expect(() => report('info', 'i')).not.toThrow();
    expect(said[0]).not.toContain('\u001b');
  });

  it('FailureCounter counts and never throws', () => {
    const counter = new FailureCounter('nothing is affected');
    for (let i = 0; i < 10; i += 1) counter.report('it failed', new Error('x'));
    expect(counter.count).toBe(10);
    expect(said).toHaveLength(2); // the 1st and the 10th
  });
});

describe('a diag logger that throws never reaches a caller', () => {
  const runner = (hooks: ToolHook[]): HookRunner => new HookRunner({ hooks, tracer: tracing.tracer });

  it('runAfter with a Skip in after_tool', async () => {
    const r = runner([{ name: 'late', afterTool: () => skip('too late') }]);
    await expect(r.runAfter('t', {}, 'out', undefined, 1)).resolves.toEqual({ kind: 'continue' });
    expect(said.some((line) => line.includes('Skip is ignored'))).toBe(true);
  });

  it('an observer that throws, and a hook that keeps failing', async () => {
    const r = runner([
      { name: 'fails', beforeTool: () => { throw new Error('hook broke'); } },
      { name: 'watch', onEvent: () => { throw new Error('observer broke'); } },
    ]);
    for (let i = 0; i < 2; i += 1) {
      await expect(executeTool({ hooks: r, toolName: 't', args: {}, execute: () => 'ran' })).resolves.toBe('ran');
    }
    expect(said.some((line) => line.includes('observer "watch" threw'))).toBe(true);
    expect(said.some((line) => line.includes('hook "fails" failed'))).toBe(true);
  });

  it('runWithRetry whose enrichNote and isRetryable throw, CompoundTool whose stateUpdater throws', async () => {
    const r = runner([{ name: 'a', afterTool: () => undefined }]);
    let attempts = 0;
    const result = await runWithRetry(
      () => {
        attempts += 1;
        if (attempts === 1) throw new Error('first');
        return 'second';
      },
      { hooks: r, toolName: 'w', args: {}, note: 'n', enrichNote: () => { throw new Error('enrich broke'); } },
    );
    expect(result).toBe('second');
    const noRetry = await runWithRetry(
      () => {
        throw new Error('always');
      },
      { hooks: r, toolName: 'w', args: {}, note: 'n', isRetryable: () => { throw new Error('predicate broke'); } },
    );
    expect(JSON.parse(noRetry)).toMatchObject({ success: false, attempts: 1 });
    const compound = new CompoundTool({
      name: 'c',
      hooks: r,
      agent: { name: 'agent', run: () => 'out' },
      executor: () => 'done',
      stateUpdater: () => {
        throw new Error('updater broke');
      },
    });
    await expect(compound.run(undefined, 'p')).resolves.toEqual({ agentOutput: 'out', result: 'done' });
  });
});
