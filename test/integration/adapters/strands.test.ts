/**
 * toolhooks/strands inside Strands Agents' own Agent (`@strands-agents/sdk` 1.19 in the Strands lane; the
 * version matrix runs it on 1.11.2 too), driven by a scripted model, offline. No tracer provider is
 * registered globally here, so Strands' own tracing records nothing (strands-traced.test.ts has it on).
 */
import { Agent, FunctionTool, JsonBlock, TextBlock, Tool, ToolResultBlock } from '@strands-agents/sdk';
import type { InterventionHandler, ToolContext, ToolStreamGenerator } from '@strands-agents/sdk';
import { describe, expect, it, vi } from 'vitest';
import type { HookRunnerOptions, ToolHook } from '../../../src/index.js';
import { HookRunner, abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';
import { toolhooksHooks } from '../../../src/adapters/strands/index.js';
import type { ToolhooksHooksOptions } from '../../../src/adapters/strands/index.js';
import { ATTR_APPROVAL_OUTCOME, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_OUTCOME, SPAN_APPROVAL } from '../../../src/telemetry/semconv.js';
import type { StrandsTurn } from '../../support/strands-model.js';
import { ScriptedModel } from '../../support/strands-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

function makeTools() {
  const shell = vi.fn((input: unknown) => `host ran ${(input as { cmd: string }).cmd}`);
  const sandbox = vi.fn((input: unknown) => `sandbox ran ${(input as { cmd: string }).cmd}`);
  const flaky = vi.fn((): string => {
    throw new Error('disk full');
  });
  const schema = { type: 'object' as const, properties: { cmd: { type: 'string' as const } }, required: ['cmd'] };
  return {
    shell,
    sandbox,
    flaky,
    tools: [
      new FunctionTool({ name: 'shell', description: 'Run a command', inputSchema: schema, callback: shell }),
      new FunctionTool({ name: 'sandbox_shell', description: 'Run in a sandbox', inputSchema: schema, callback: sandbox }),
      new FunctionTool({ name: 'flaky', description: 'Fails', inputSchema: { type: 'object', properties: {} }, callback: flaky }),
    ],
  };
}

function setup(hooks: ToolHook[], turns: readonly StrandsTurn[], options: { runner?: Omit<HookRunnerOptions, 'hooks' | 'tracer'>; hooks?: ToolhooksHooksOptions; interventions?: InterventionHandler[] } = {}) {
  const model = new ScriptedModel(turns);
  const made = makeTools();
  const runner = tracing.runner(hooks, options.runner ?? {});
  const handler = toolhooksHooks(runner, options.hooks);
  const agent = new Agent({ model, tools: made.tools, printer: false, interventions: [...(options.interventions ?? []), handler] });
  return { model, agent, handler, runner, ...made };
}

const call = (id: string, name: string, input: Record<string, unknown>) => ({ id, name, input });
const text = (value: string) => [{ text: value }];

describe('toolhooksHooks inside a Strands Agent', () => {
  it('Continue, Skip, Redirect (arguments and tool) and Abort: what the model reads, one execute_tool span each', async () => {
    const { model, agent, shell, sandbox } = setup(
      [
        { name: 'cache', tools: ['shell'], beforeTool: (_t, args) => (args.cmd === 'date' ? skip('cached', 'Monday') : undefined) },
        { name: 'sandbox', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).startsWith('curl') ? redirect({ newTool: 'sandbox_shell' }) : undefined) },
        { name: 'quiet', tools: ['shell'], beforeTool: (_t, args) => (args.cmd === 'ls' ? redirect({ newArgs: { cmd: 'ls -q' } }) : undefined) },
        { name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) },
      ],
      [{ calls: [call('c1', 'shell', { cmd: 'ls' }), call('c2', 'shell', { cmd: 'date' }), call('c3', 'shell', { cmd: 'curl x' }), call('c4', 'shell', { cmd: 'rm -rf /' }), call('c5', 'shell', { cmd: 'pwd' })] }, { text: 'done' }],
    );
    const result = await agent.invoke('go');
    expect(result.stopReason).toBe('endTurn');
    expect(model.results.get('c1')).toEqual({ status: 'success', content: text('host ran ls -q') });
    expect(model.results.get('c2')).toEqual({ status: 'success', content: text('Monday') });
    expect(model.results.get('c3')).toEqual({ status: 'success', content: text('sandbox ran curl x') });
    expect(model.results.get('c4')).toEqual({ status: 'error', content: text('This tool call was aborted by policy. Reason: destructive command') });
    expect(model.results.get('c5')).toEqual({ status: 'success', content: text('host ran pwd') });
    expect(shell.mock.calls.map(([input]) => input)).toEqual([{ cmd: 'ls -q' }, { cmd: 'pwd' }]);
    expect(sandbox).toHaveBeenCalledTimes(1);
    const spans = tracing.spansNamed('execute_tool shell');
    expect(spans).toHaveLength(5);
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).sort()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(Object.fromEntries(spans.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]]))).toEqual({
      c1: 'completed',
      c2: 'skipped',
      c3: 'completed',
      c4: 'aborted',
      c5: 'completed',
    });
  });

  it('Replace, a JSON result, and a tool error through on_error (the model reads what the hooks left)', async () => {
    const { model, agent, flaky } = setup(
      [
        { name: 'mask', tools: ['shell'], afterTool: () => replaceResult({ redacted: true }, 'masked') },
        { name: 'fallback', tools: ['flaky'], onError: () => skip('fallback', 'cached answer') },
      ],
      [{ calls: [call('r1', 'shell', { cmd: 'cat secrets' }), call('r2', 'flaky', {})] }, { text: 'done' }],
    );
    await agent.invoke('go');
    expect(model.results.get('r1')).toEqual({ status: 'success', content: [{ json: { redacted: true } }] });
    expect(model.results.get('r2')).toEqual({ status: 'success', content: text('cached answer') });
    expect(flaky).toHaveBeenCalledTimes(1);
    expect(tracing.outcomesOf('shell')).toHaveLength(1);
  });

  it("a tool's error with no hook recovering it: the model reads Strands' own error result", async () => {
    const { model, agent } = setup([], [{ calls: [call('e1', 'flaky', {})] }, { text: 'done' }]);
    await agent.invoke('go');
    expect(model.results.get('e1')).toEqual({ status: 'error', content: text('Error: disk full') });
    expect(tracing.onlySpan('execute_tool flaky').attributes[ATTR_OUTCOME]).toBe('failed');
  });

  it("Ask through the runner's approver: approved runs the tool, denied gives the model the denial", async () => {
    const approver = vi.fn(async (request: { args: Record<string, unknown> }) => ({ approved: request.args.cmd === 'ls' }));
    const { model, agent, shell } = setup(
      [{ name: 'gate', tools: ['shell'], beforeTool: () => ask('needs a human') }],
      [{ calls: [call('a1', 'shell', { cmd: 'ls' }), call('a2', 'shell', { cmd: 'rm x' })] }, { text: 'done' }],
      { runner: { approver } },
    );
    await agent.invoke('go');
    expect(approver).toHaveBeenCalledTimes(2);
    expect(shell).toHaveBeenCalledTimes(1);
    expect(model.results.get('a1')).toEqual({ status: 'success', content: text('host ran ls') });
    expect(model.results.get('a2')?.content).toEqual(text('Tool call denied: denied'));
    expect(tracing.spansNamed(SPAN_APPROVAL).map((span) => span.attributes[ATTR_APPROVAL_OUTCOME]).sort()).toEqual(['approved', 'denied']);
  });

  it("runs the tool Strands would run: one an earlier intervention renamed the call to", async () => {
    const rename = { name: 'rename', beforeToolCall: (event: { toolUse: { name: string } }) => ({ type: 'transform' as const, apply: () => void (event.toolUse = { ...event.toolUse, name: 'sandbox_shell' }) }) };
    const seen: string[] = [];
    const { model, agent, shell, sandbox } = setup([{ name: 'look', beforeTool: (tool) => void seen.push(tool) }], [{ calls: [call('n1', 'shell', { cmd: 'ls' })] }, { text: 'done' }], { interventions: [rename as unknown as InterventionHandler] });
    await agent.invoke('go');
    expect(shell).not.toHaveBeenCalled();
    expect(sandbox).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['sandbox_shell']);
    expect(model.results.get('n1')).toEqual({ status: 'success', content: text('sandbox ran ls') });
  });

  it('decides on one snapshot of the input: hooks and the tool see the same values', async () => {
    const seen: unknown[] = [];
    const { agent, shell } = setup([{ name: 'look', beforeTool: (_t, args) => void seen.push({ ...args }) }], [{ calls: [call('s1', 'shell', { cmd: 'ls' })] }, { text: 'done' }]);
    await agent.invoke('go');
    expect(seen).toEqual([{ cmd: 'ls' }]);
    expect(shell.mock.calls[0]?.[0]).toEqual({ cmd: 'ls' });
  });
});

/** A tool written against Strands' `Tool` directly, returning whatever block (or nothing) a test gives it. */
class RawTool extends Tool {
  readonly name = 'raw';
  readonly description = 'Returns a canned result';
  readonly toolSpec = { name: 'raw', description: 'Returns a canned result', inputSchema: { type: 'object' as const, properties: {} } };
  constructor(readonly result: (toolUseId: string) => ToolResultBlock | undefined) {
    super();
  }
  // eslint-disable-next-line require-yield
  async *stream(context: ToolContext): ToolStreamGenerator {
    return this.result(context.toolUse.toolUseId) as ToolResultBlock;
  }
}

describe('toolhooksHooks: what hooks see of a Strands result, and what the model reads back', () => {
  function withRaw(hooks: ToolHook[], result: (toolUseId: string) => ToolResultBlock | undefined, extraTools: Tool[] = []) {
    const model = new ScriptedModel([{ calls: [call('w1', 'raw', {})] }, { text: 'done' }]);
    const agent = new Agent({ model, printer: false, tools: [new RawTool(result), ...extraTools], interventions: [toolhooksHooks(tracing.runner(hooks))] });
    return { model, agent };
  }

  it('one JSON block: hooks see its value; several blocks: hooks see the block, and the model reads it as it was', async () => {
    const seen: unknown[] = [];
    const look: ToolHook = { name: 'look', afterTool: (_t, _a, result) => void seen.push(result) };
    const json = withRaw([look], (id) => new ToolResultBlock({ toolUseId: id, status: 'success', content: [new JsonBlock({ json: { n: 1 } })] }));
    await json.agent.invoke('go');
    expect(seen).toEqual([{ n: 1 }]);
    expect(json.model.results.get('w1')).toEqual({ status: 'success', content: [{ json: { n: 1 } }] });
    const two = withRaw([look], (id) => new ToolResultBlock({ toolUseId: id, status: 'success', content: [new TextBlock('a'), new TextBlock('b')] }));
    await two.agent.invoke('go');
    expect((seen[1] as ToolResultBlock).type).toBe('toolResultBlock');
    expect(two.model.results.get('w1')).toEqual({ status: 'success', content: [{ text: 'a' }, { text: 'b' }] });
  });

  it('what a tool streams reaches Strands once the call is over', async () => {
    const model = new ScriptedModel([{ calls: [call('g1', 'progress', {})] }, { text: 'done' }]);
    const progress = new FunctionTool({
      name: 'progress',
      description: 'Reports progress',
      inputSchema: { type: 'object', properties: {} },
      callback: async function* () {
        yield 'half way';
        return 'finished';
      },
    });
    const agent = new Agent({ model, printer: false, tools: [progress], interventions: [toolhooksHooks(tracing.runner([]))] });
    const streamed: unknown[] = [];
    for await (const event of agent.stream('go')) if (event.type === 'toolStreamUpdateEvent') streamed.push(event.event.data);
    expect(streamed).toEqual(['half way']);
    expect(model.results.get('g1')).toEqual({ status: 'success', content: [{ text: 'finished' }] });
  });

  it('a Replace with a ToolResultBlock is what the model reads; a tool with no result or an error result without an error is a failure', async () => {
    const block = withRaw([{ name: 'swap', afterTool: () => replaceResult(new ToolResultBlock({ toolUseId: 'w1', status: 'error', content: [new TextBlock('swapped')] })) }], (id) => new ToolResultBlock({ toolUseId: id, status: 'success', content: [new TextBlock('x')] }));
    await block.agent.invoke('go');
    expect(block.model.results.get('w1')).toEqual({ status: 'error', content: [{ text: 'swapped' }] });

    const nothing = withRaw([], () => undefined);
    await nothing.agent.invoke('go');
    expect(nothing.model.results.get('w1')).toEqual({ status: 'error', content: [{ text: "Tool 'raw' did not return a result" }] });

    const errors: unknown[] = [];
    const failed = withRaw([{ name: 'see', onError: (_t, _a, error) => void errors.push((error as Error).message) }], (id) => new ToolResultBlock({ toolUseId: id, status: 'error', content: [new TextBlock('no'), new JsonBlock({ json: { code: 7 } })] }));
    await failed.agent.invoke('go');
    expect(errors).toEqual(['no\n{"code":7}']);
    expect(failed.model.results.get('w1')).toEqual({ status: 'error', content: [{ text: 'no' }, { json: { code: 7 } }] });
  });
});

describe('toolhooksHooks: bad input', () => {
  const runner = new HookRunner({ hooks: [] });

  it('the runner passed where options are expected, unknown options, a bad approvals mode: TypeErrors naming the fix', () => {
    expect(() => toolhooksHooks(runner, runner as never)).toThrow(/options is a HookRunner; pass one runner, then the options object/);
    expect(() => toolhooksHooks({} as never)).toThrow(/runner must be a HookRunner/);
    expect(() => toolhooksHooks(runner, { approval: 'framework' } as never)).toThrow(TypeError);
    expect(() => toolhooksHooks(runner, { approvals: 'strands' } as never)).toThrow(/options\.approvals must be 'runner' or 'framework'/);
    expect(() => toolhooksHooks(runner, { name: '' })).toThrow(/options\.name must be a non-empty string/);
  });

  it('two toolhooks handlers in one Agent fail the invocation with a TypeError naming the fix', async () => {
    const first = toolhooksHooks(tracing.runner([]), { name: 'first' });
    const { agent, shell } = setup([], [{ calls: [call('d1', 'shell', { cmd: 'ls' })] }, { text: 'done' }], { interventions: [first] });
    await expect(agent.invoke('go')).rejects.toThrow(/two toolhooks handlers are registered in this Agent's interventions/);
    expect(shell).not.toHaveBeenCalled();
  });

  it('a Strands outside the supported range (no tool use on the event): one warning naming the range, calls unhooked', () => {
    const warnings: string[] = [];
    const listener = (warning: Error) => void warnings.push(warning.message);
    process.on('warning', listener);
    const handler = toolhooksHooks(runner);
    expect(handler.beforeToolCall({} as never)).toEqual({ type: 'proceed' });
    expect(handler.beforeToolCall({} as never)).toEqual({ type: 'proceed' });
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        process.off('warning', listener);
        expect(warnings.filter((message) => message.includes('@strands-agents/sdk >=1.11.2 <2'))).toHaveLength(1);
        resolve();
      }),
    );
  });
});
