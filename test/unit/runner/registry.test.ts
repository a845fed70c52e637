/** How a flow finds the core of the runner it was given, and what it says when it was given something else. */
import { describe, expect, it } from 'vitest';
import { RunnerCore } from '../../../src/runner/core.js';
import { attachCore, runnerCore } from '../../../src/runner/registry.js';
import { HookRunner } from '../../../src/runner/hook-runner.js';
import { resolveCapture } from '../../../src/telemetry/capture/options.js';
import { createTestTracing } from '../../support/tracing.js';

const tracing = createTestTracing();
const core = (): RunnerCore => new RunnerCore([], tracing.tracer, resolveCapture(undefined), undefined);

describe('runnerCore', () => {
  it('finds the core attached to a runner', () => {
    const runner = {};
    const c = core();
    attachCore(runner, c);
    expect(runnerCore(runner, 'executeTool')).toBe(c);
  });

  it('rejects anything that is not a runner, naming where and how to make one', () => {
    expect(() => runnerCore([], 'executeTool')).toThrow(
      "executeTool: hooks must be a HookRunner (new HookRunner([...hooks]) from 'toolhooks'), got an array (wrap it: new HookRunner(hooks))",
    );
    expect(() => runnerCore(null, 'runPlan')).toThrow(/runPlan: hooks must be a HookRunner .* got null/);
    expect(() => runnerCore({}, 'runPlan')).toThrow(/got object/);
  });

  it('finds the core every HookRunner attaches when it is made', () => {
    expect(runnerCore(new HookRunner([]), 'executeTool')).toBeInstanceOf(RunnerCore);
  });
});
