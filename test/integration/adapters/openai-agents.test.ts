/**
 * toolhooks/openai-agents inside the OpenAI Agents SDK's own `Runner`, with a scripted model that
 * implements the SDK's `Model` interface (no network).
 */
import type { RunToolApprovalItem } from '@openai/agents';
import { Agent, RunState, Runner, ToolCallError, tool } from '@openai/agents';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolEvent, ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';
import { withHooks } from '../../../src/adapters/openai-agents/index.js';
import { ATTR_ERROR_TYPE, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_OUTCOME, SPAN_BEFORE_TOOL } from '../../../src/telemetry/semconv.js';
import type { AgentsTurn } from '../../support/agents-model.js';
import { ScriptedModel, outputsSent } from '../../support/agents-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

function hooks(list: ToolHook[], events?: ToolEvent[]): HookRunner {
  const observer: ToolHook[] = events === undefined ? [] : [{ name: 'observer', onEvent: (event) => void (event.type === 'tool' && events.push(event)) }];
  return new HookRunner({ hooks: [...list, ...observer], tracer: tracing.tracer });
}

function makeTools() {
  const weather = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
  const shell = vi.fn(async ({ cmd }: { cmd: string }) => `host ran ${cmd}`);
  const sandbox = vi.fn(async ({ cmd }: { cmd: string }) => `sandbox ran ${cmd}`);
  const tools = [
    tool({ name: 'weather', description: 'Weather by city', parameters: z.object({ city: z.string() }), execute: weather }),
    tool({ name: 'shell', description: 'Run a command', parameters: z.object({ cmd: z.string() }), execute: shell }),
    tool({ name: 'sandbox_shell', description: 'Run a command in a sandbox', parameters: z.object({ cmd: z.string() }), execute: sandbox }),
  ];
  return { tools, weather, shell, sandbox };
}

async function runAgent(tools: unknown[], turns: AgentsTurn[]) {
  const model = new ScriptedModel(turns);
  const agent = new Agent({ name: 'ops', instructions: 'help', model, tools: tools as never });
  const runner = new Runner({ tracingDisabled: true });
  const result = await runner.run(agent, 'go');
  return { model, result };
}

describe('withHooks inside the Agents SDK Runner', () => {
  it('Skip and Redirect reach the model as the tool outputs it reads', async () => {
    const { tools, weather, shell, sandbox } = makeTools();
    const runner = hooks([
      { name: 'cache', tools: ['weather'], beforeTool: () => skip('cached', 'cloudy (cached)') },
      { name: 'sandbox', tools: ['shell'], beforeTool: () => redirect({ newTool: 'sandbox_shell' }) },
      { name: 'arg-fix', tools: ['sandbox_shell'], beforeTool: () => undefined },
    ]);
    const { model, result } = await runAgent(withHooks(tools, runner), [
      { calls: [{ id: 'c1', tool: 'weather', args: { city: 'Paris' } }, { id: 'c2', tool: 'shell', args: { cmd: 'curl x' } }] },
      { text: 'done' },
    ]);
    expect(result.finalOutput).toBe('done');
    expect(outputsSent(model, 1)).toEqual({ c1: 'cloudy (cached)', c2: 'sandbox ran curl x' });
    expect(weather).not.toHaveBeenCalled();
    expect(shell).not.toHaveBeenCalled();
    expect(sandbox).toHaveBeenCalledTimes(1);
    const spans = tracing.spansNamed('execute_tool weather');
    expect(spans.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]])).toEqual([['c1', 'skipped']]);
  });

  it('Redirect newArgs reach the tool through its own schema', async () => {
    const { tools, weather } = makeTools();
    const runner = hooks([{ name: 'city', tools: ['weather'], beforeTool: () => redirect({ newArgs: { city: 'Lisbon' } }) }]);
    const { model } = await runAgent(withHooks(tools, runner), [{ calls: [{ id: 'c1', tool: 'weather', args: { city: 'Paris' } }] }, { text: 'ok' }]);
    expect(weather.mock.calls[0]?.[0]).toEqual({ city: 'Lisbon' });
    expect(outputsSent(model, 1)).toEqual({ c1: 'sunny in Lisbon' });
  });

  it("Abort: the run rejects with the SDK's ToolCallError, whose error is the HookAbortError", async () => {
    const { tools, shell } = makeTools();
    const runner = hooks([{ name: 'policy', tools: ['shell'], beforeTool: () => abort('destructive command') }]);
    const failure = await runAgent(withHooks(tools, runner), [{ calls: [{ id: 'c9', tool: 'shell', args: { cmd: 'rm -rf /' } }] }]).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ToolCallError);
    expect((failure as ToolCallError).error).toBeInstanceOf(HookAbortError);
    expect(((failure as ToolCallError).error as HookAbortError).reason).toBe('destructive command');
    expect(shell).not.toHaveBeenCalled();
    const span = tracing.onlySpan('execute_tool shell');
    expect(span.attributes[ATTR_OUTCOME]).toBe('aborted');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('HookAbortError');
  });

  it('after_tool Redirect re-executes and onError sees failures of tools built with errorFunction: null', async () => {
    let calls = 0;
    const flaky = tool({
      name: 'flaky',
      description: 'fails once',
      parameters: z.object({ n: z.number() }),
      errorFunction: null,
      execute: async ({ n }) => {
        calls += 1;
        if (n < 2) throw new Error('too small');
        return `ok ${n}`;
      },
    });
    const runner = hooks([{ name: 'retry', onError: () => redirect({ newArgs: { n: 2 } }) }]);
    const { model } = await runAgent(withHooks([flaky], runner), [{ calls: [{ id: 'f1', tool: 'flaky', args: { n: 1 } }] }, { text: 'ok' }]);
    expect(calls).toBe(2);
    expect(outputsSent(model, 1)).toEqual({ f1: 'ok 2' });
    expect(tracing.onlySpan('execute_tool flaky').attributes[ATTR_OUTCOME]).toBe('recovered');
  });

  it('input the tool\'s schema refuses is recorded as failed with no values; the model reads the SDK error', async () => {
    const { tools, weather } = makeTools();
    const events: ToolEvent[] = [];
    const runner = hooks([{ name: 'any', beforeTool: () => undefined }], events);
    const { model } = await runAgent(withHooks(tools, runner), [{ calls: [{ id: 'b1', tool: 'weather', args: { city: 4242 } }] }, { text: 'ok' }]);
    expect(weather).not.toHaveBeenCalled();
    expect(String(outputsSent(model, 1).b1)).toMatch(/error/i);
    const span = tracing.onlySpan('execute_tool weather');
    expect(span.attributes[ATTR_OUTCOME]).toBe('failed');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('InvalidToolInputError');
    expect(JSON.stringify([span.attributes, span.status, span.events, events])).not.toContain('4242');
    expect(events.map((event) => event.outcome)).toEqual(['failed']);
  });

  it('arguments that are not JSON never reach a tool: the Runner answers the model itself', async () => {
    const { tools, weather } = makeTools();
    const runner = hooks([{ name: 'any', beforeTool: () => undefined }]);
    const { model } = await runAgent(withHooks(tools, runner), [{ calls: [{ id: 'j1', tool: 'weather', args: 'RAW:{"city": "Sec' }] }, { text: 'ok' }]);
    expect(weather).not.toHaveBeenCalled();
    expect(String(outputsSent(model, 1).j1)).toMatch(/valid JSON/);
    expect(tracing.spansNamed(SPAN_BEFORE_TOOL)).toHaveLength(0);
  });
});

describe('Ask and Replace through hooked tools', () => {
  it("Ask with the runner's approver: approved runs the tool, denied gives the model the denial and records denied; Replace is what the model reads", async () => {
    const { tools, shell, weather } = makeTools();
    const runner = new HookRunner({
      hooks: [
        { name: 'gate', tools: ['shell'], beforeTool: () => ask('shell needs a person') },
        { name: 'tidy', tools: ['weather'], afterTool: () => replaceResult('weather: redacted') },
      ],
      approver: (request) => (request.args.cmd === 'ls' ? { approved: true, approver: 'ops' } : { approved: false, reason: 'not that one' }),
      tracer: tracing.tracer,
    });
    const { model } = await runAgent(withHooks(tools, runner), [
      { calls: [{ id: 'k1', tool: 'shell', args: { cmd: 'ls' } }, { id: 'k2', tool: 'shell', args: { cmd: 'rm x' } }, { id: 'k3', tool: 'weather', args: { city: 'Oslo' } }] },
      { text: 'ok' },
    ]);
    expect(shell).toHaveBeenCalledTimes(1);
    expect(weather).toHaveBeenCalledTimes(1);
    expect(outputsSent(model, 1)).toEqual({ k1: 'host ran ls', k2: 'Tool call denied: not that one', k3: 'weather: redacted' });
    const outcomes = Object.fromEntries(tracing.spans().filter((span) => span.name.startsWith('execute_tool')).map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]]));
    expect(outcomes).toEqual({ k1: 'completed', k2: 'denied', k3: 'completed' });
  });
});

describe("the SDK's own approvals through hooked tools", () => {
  function approvalSetup() {
    const execute = vi.fn(async ({ cmd }: { cmd: string }) => `ran ${cmd}`);
    const shell = tool({ name: 'shell', description: 'Run a command', parameters: z.object({ cmd: z.string() }), needsApproval: true, execute });
    const model = new ScriptedModel([{ calls: [{ id: 'p1', tool: 'shell', args: { cmd: 'ls' } }] }, { text: 'done' }]);
    const agent = new Agent({ name: 'ops', instructions: 'help', model, tools: withHooks([shell], hooks([{ name: 'audit', beforeTool: () => undefined }])) });
    return { agent, model, execute, runner: new Runner({ tracingDisabled: true }) };
  }

  it('needsApproval still interrupts the run; approving a state restored from RunState.toString() runs the call through the hooks', async () => {
    const { agent, model, execute, runner } = approvalSetup();
    const first = await runner.run(agent, 'go');
    expect(first.interruptions).toHaveLength(1);
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.spansNamed('execute_tool shell')).toHaveLength(0);

    const restored = await RunState.fromString(agent, first.state.toString());
    const [pending] = restored.getInterruptions();
    restored.approve(pending as RunToolApprovalItem);
    const resumed = await runner.run(agent, restored);
    expect(resumed.finalOutput).toBe('done');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(outputsSent(model, 1)).toEqual({ p1: 'ran ls' });
    const span = tracing.onlySpan('execute_tool shell');
    expect([span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]]).toEqual(['p1', 'completed']);
  });

  it('a rejected call never reaches the tool or the hooks; the model reads the SDK\'s rejection', async () => {
    const { agent, model, execute, runner } = approvalSetup();
    const first = await runner.run(agent, 'go');
    first.state.reject(first.interruptions[0] as RunToolApprovalItem);
    await runner.run(agent, first.state);
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.spansNamed('execute_tool shell')).toHaveLength(0);
    expect(String(outputsSent(model, 1).p1)).toMatch(/not approved|rejected|denied/i);
  });
});

describe('withHooks bad input', () => {
  it('a tool of another SDK shape is a TypeError at wrap time naming the supported range', () => {
    const legacy = [{ type: 'function', name: 'old', execute: async () => 'x' }];
    expect(() => withHooks(legacy, hooks([]))).toThrow(/tools\[0\] is a function tool of another version.*@openai\/agents >=0\.14\.0 <0\.21/);
    expect(() => withHooks({} as never, hooks([]))).toThrow(/tools must be an Agent's array of tools/);
    expect(() => withHooks([], hooks([]), { stat: 1 } as never)).toThrow(/state/);
  });
});
