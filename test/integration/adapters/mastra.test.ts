/**
 * toolhooks/mastra inside Mastra's own Agent, driven by the AI SDK's mock model (`ai/test`), offline.
 */
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolEvent, ToolHook } from '../../../src/index.js';
import { HookRunner, abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';
import { recordInvalidToolCalls, withHooks } from '../../../src/adapters/mastra/index.js';
import { ATTR_ERROR_TYPE, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_OUTCOME } from '../../../src/telemetry/semconv.js';
import { answers, callsTools, toolResultsSent } from '../../support/ai-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

function hooks(list: ToolHook[]): HookRunner {
  return new HookRunner({ hooks: list, tracer: tracing.tracer });
}

function makeTools() {
  const weather = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
  const shell = vi.fn(async ({ cmd }: { cmd: string }) => `host ran ${cmd}`);
  const sandbox = vi.fn(async ({ cmd }: { cmd: string }) => `sandbox ran ${cmd}`);
  const tools = {
    weather: createTool({ id: 'weather', description: 'Weather by city', inputSchema: z.object({ city: z.string() }), execute: weather }),
    shell: createTool({ id: 'shell', description: 'Run a command', inputSchema: z.object({ cmd: z.string() }), execute: shell }),
    sandbox_shell: createTool({ id: 'sandbox_shell', description: 'Run in a sandbox', inputSchema: z.object({ cmd: z.string() }), execute: sandbox }),
  };
  return { tools, weather, shell, sandbox };
}

async function generate(tools: Record<string, unknown>, steps: ReturnType<typeof callsTools>[]) {
  const model = new MockLanguageModelV4({ doGenerate: steps as never });
  const agent = new Agent({ id: 'ops', name: 'ops', instructions: 'help', model: model as never, tools: tools as never });
  const result = await agent.generate('go', { maxSteps: steps.length } as never);
  return { model, result, sent: toolResultsSent(model.doGenerateCalls[1]?.prompt as never) };
}

describe('withHooks inside a Mastra Agent', () => {
  it('Skip, Redirect and Abort reach the model; an Abort is the tool error and the run goes on', async () => {
    const { tools, weather, shell, sandbox } = makeTools();
    const runner = hooks([
      { name: 'cache', tools: ['weather'], beforeTool: () => skip('cached', 'cloudy (cached)') },
      { name: 'sandbox', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).startsWith('curl') ? redirect({ newTool: 'sandbox_shell' }) : undefined) },
      { name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) },
    ]);
    const { result, sent } = await generate(withHooks(tools, runner), [
      callsTools({ id: 'c1', tool: 'weather', input: { city: 'Paris' } }, { id: 'c2', tool: 'shell', input: { cmd: 'curl x' } }, { id: 'c3', tool: 'shell', input: { cmd: 'rm -rf /' } }),
      answers('done'),
    ]);
    expect(result.text).toBe('done');
    expect(sent.c1).toEqual({ type: 'text', value: 'cloudy (cached)' });
    expect(sent.c2).toEqual({ type: 'text', value: 'sandbox ran curl x' });
    expect(sent.c3?.type).toBe('error-text');
    expect(String(sent.c3?.value)).toContain('destructive command');
    expect(weather).not.toHaveBeenCalled();
    expect(shell).not.toHaveBeenCalled();
    expect(sandbox).toHaveBeenCalledTimes(1);
    const aborted = tracing.spansNamed('execute_tool shell').find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === 'c3');
    expect(aborted?.attributes[ATTR_OUTCOME]).toBe('aborted');
    expect(aborted?.attributes[ATTR_ERROR_TYPE]).toBe('HookAbortError');
    expect(tracing.onlySpan('execute_tool weather').attributes[ATTR_OUTCOME]).toBe('skipped');
  });

  it('onError Redirect retries a failing tool with new input; after_tool Redirect re-executes', async () => {
    let calls = 0;
    const flaky = createTool({
      id: 'flaky',
      description: 'fails on small n',
      inputSchema: z.object({ n: z.number() }),
      execute: async ({ n }) => {
        calls += 1;
        if (n < 2) throw new Error('too small');
        return `ok ${n}`;
      },
    });
    const runner = hooks([{ name: 'retry', onError: () => redirect({ newArgs: { n: 2 } }) }]);
    const { sent } = await generate(withHooks({ flaky }, runner), [callsTools({ id: 'f1', tool: 'flaky', input: { n: 1 } }), answers('ok')]);
    expect(calls).toBe(2);
    expect(sent.f1).toEqual({ type: 'text', value: 'ok 2' });
    expect(tracing.onlySpan('execute_tool flaky').attributes[ATTR_OUTCOME]).toBe('recovered');
  });

  it('input that fails the tool schema never reaches the hooks; recordInvalidToolCalls records it as failed, without values', async () => {
    const { tools, weather } = makeTools();
    const beforeTool = vi.fn();
    const events: ToolEvent[] = [];
    const runner = hooks([{ name: 'any', beforeTool, onEvent: (event) => void (event.type === 'tool' && events.push(event)) }]);
    const afterToolCall = vi.fn();
    const model = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 'v1', tool: 'weather', input: { city: 4242 } }), answers('ok')] as never });
    const agent = new Agent({
      id: 'ops',
      name: 'ops',
      instructions: 'help',
      model: model as never,
      tools: withHooks(tools, runner) as never,
      hooks: recordInvalidToolCalls(runner, { hooks: { afterToolCall } }) as never,
    });
    await agent.generate('go', { maxSteps: 2 } as never);
    const sent = toolResultsSent(model.doGenerateCalls[1]?.prompt as never);
    expect(weather).not.toHaveBeenCalled();
    expect(beforeTool).not.toHaveBeenCalled();
    expect(JSON.stringify(sent.v1)).toContain('Tool input validation failed');
    expect(afterToolCall).toHaveBeenCalledTimes(1);
    const span = tracing.onlySpan('execute_tool weather');
    expect(span.attributes[ATTR_OUTCOME]).toBe('failed');
    expect(span.attributes[ATTR_ERROR_TYPE]).toBe('ValidationError');
    expect(span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('v1');
    expect(events.map((event) => event.outcome)).toEqual(['failed']);
    expect(JSON.stringify([span.attributes, span.status, span.events, events])).not.toContain('4242');
  });
});

describe('Ask and Replace through hooked tools', () => {
  it("Ask with the runner's approver: approved runs, denied gives the model the denial and records denied; Replace is what the model reads", async () => {
    const { tools, shell, weather } = makeTools();
    const runner = new HookRunner({
      hooks: [
        { name: 'gate', tools: ['shell'], beforeTool: () => ask('shell needs a person') },
        { name: 'tidy', tools: ['weather'], afterTool: () => replaceResult('weather: redacted') },
      ],
      approver: (request) => (request.args.cmd === 'ls' ? { approved: true } : { approved: false, reason: 'not that one' }),
      tracer: tracing.tracer,
    });
    const { sent } = await generate(withHooks(tools, runner), [
      callsTools({ id: 'k1', tool: 'shell', input: { cmd: 'ls' } }, { id: 'k2', tool: 'shell', input: { cmd: 'rm x' } }, { id: 'k3', tool: 'weather', input: { city: 'Oslo' } }),
      answers('ok'),
    ]);
    expect(shell).toHaveBeenCalledTimes(1);
    expect(weather).toHaveBeenCalledTimes(1);
    expect([sent.k1, sent.k2, sent.k3]).toEqual([
      { type: 'text', value: 'host ran ls' },
      { type: 'text', value: 'Tool call denied: not that one' },
      { type: 'text', value: 'weather: redacted' },
    ]);
    const outcomes = Object.fromEntries(tracing.spans().filter((span) => span.name.startsWith('execute_tool')).map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]]));
    expect(outcomes).toEqual({ k1: 'completed', k2: 'denied', k3: 'completed' });
  });
});

describe("Mastra's own approvals through hooked tools", () => {
  async function suspended() {
    const execute = vi.fn(async ({ cmd }: { cmd: string }) => `ran ${cmd}`);
    const shell = createTool({ id: 'shell', description: 'Run a command', inputSchema: z.object({ cmd: z.string() }), requireApproval: true, execute });
    const model = new MockLanguageModelV4({ doGenerate: [callsTools({ id: 'r1', tool: 'shell', input: { cmd: 'ls' } }), answers('done')] as never });
    const ops = new Agent({ id: 'ops', name: 'ops', instructions: 'help', model: model as never, tools: withHooks({ shell }, hooks([{ name: 'audit', beforeTool: () => undefined }])) as never });
    // A suspended run is resumed from Mastra's storage (here its in-memory store).
    const mastra = new Mastra({ agents: { ops }, storage: new InMemoryStore() });
    const agent = mastra.getAgent('ops');
    const first = await agent.generate('go', { maxSteps: 3 } as never);
    return { agent, model, execute, first };
  }

  it('requireApproval still suspends the run; approveToolCallGenerate runs the call through the hooks', async () => {
    const { agent, model, execute, first } = await suspended();
    expect(first.finishReason).toBe('suspended');
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.spansNamed('execute_tool shell')).toHaveLength(0);
    const resumed = await agent.approveToolCallGenerate({ runId: first.runId as string, toolCallId: 'r1' } as never);
    expect(resumed.text).toBe('done');
    expect(execute).toHaveBeenCalledTimes(1);
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt as never).r1).toEqual({ type: 'text', value: 'ran ls' });
    const span = tracing.onlySpan('execute_tool shell');
    expect([span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]]).toEqual(['r1', 'completed']);
  });

  it('a declined call never reaches the tool or the hooks', async () => {
    const { agent, execute, first } = await suspended();
    await agent.declineToolCallGenerate({ runId: first.runId as string, toolCallId: 'r1', reason: 'not now' } as never);
    expect(execute).not.toHaveBeenCalled();
    expect(tracing.spansNamed('execute_tool shell')).toHaveLength(0);
  });
});

describe('withHooks bad input', () => {
  it('a tool of an older Mastra, a non-record and unknown options are TypeErrors at wrap time', () => {
    const legacy = { old: { id: 'old', description: 'x', execute: async ({ context }: { context: unknown }) => context } };
    expect(() => withHooks(legacy, hooks([]))).toThrow(/tools\["old"\] looks like a tool of an older Mastra.*@mastra\/core >=1\.58\.0 <2/);
    expect(() => withHooks([] as never, hooks([]))).toThrow(/tools must be a Mastra Agent's tools record/);
    expect(() => withHooks({}, hooks([]), { maxretries: 1 } as never)).toThrow(/maxRetries/);
  });
});
