/**
 * `withHooks(tools, runner, { approvals: 'framework' })`: an Ask becomes the Agents SDK's own
 * interruption, answered with `state.approve` / `state.reject` and resumed with `run(agent, state)` —
 * in the SDK's own `Runner`, with a scripted model that implements the SDK's `Model` interface.
 */
import type { RunToolApprovalItem } from '@openai/agents';
import { Agent, RunContext, RunState, Runner, ToolCallError, ToolGuardrailFunctionOutputFactory, defineToolInputGuardrail, tool } from '@openai/agents';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolEvent, ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, ask, redirect, skip } from '../../../src/index.js';
import { approvalRejections, withHooks } from '../../../src/adapters/openai-agents/index.js';
import {
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_OUTCOME,
  SPAN_APPROVAL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
} from '../../../src/telemetry/semconv.js';
import type { AgentsTurn } from '../../support/agents-model.js';
import { ScriptedModel, outputsSent } from '../../support/agents-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();
afterEach(() => vi.restoreAllMocks());

/** Tools, their executions, and the hooks' before_tool calls (to count passes). */
function setup(hooks: ToolHook[] = [gate]) {
  const shell = vi.fn(async ({ cmd }: { cmd: string }) => `ran ${cmd}`);
  const sandbox = vi.fn(async ({ cmd }: { cmd: string }) => `sandbox ran ${cmd}`);
  const weather = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
  const raw = [
    tool({ name: 'shell', description: 'Run a command', parameters: z.object({ cmd: z.string() }), execute: shell }),
    tool({ name: 'sandbox_shell', description: 'Run a command in a sandbox', parameters: z.object({ cmd: z.string() }), execute: sandbox }),
    tool({ name: 'weather', description: 'Weather by city', parameters: z.object({ city: z.string() }), execute: weather }),
  ];
  const before = vi.fn();
  const events: ToolEvent[] = [];
  const counter: ToolHook = { name: 'count', beforeTool: (name, args) => void before(name, args) };
  const observer: ToolHook = { name: 'observer', onEvent: (event) => void (event.type === 'tool' && events.push(event)) };
  const runner = new HookRunner({ hooks: [counter, ...hooks, observer], tracer: tracing.tracer });
  const tools = withHooks(raw, runner, { approvals: 'framework' });
  return { tools, shell, sandbox, weather, before, events };
}

const gate: ToolHook = { name: 'gate', tools: ['shell'], beforeTool: (_tool, args) => (String(args.cmd).startsWith('rm') || args.cmd === 'ls' ? ask('shell needs a person') : undefined) };

function agentWith(tools: unknown[], turns: AgentsTurn[]) {
  const model = new ScriptedModel(turns);
  return { model, agent: new Agent({ name: 'ops', instructions: 'help', model, tools: tools as never }) };
}

const sdk = (tools?: unknown[]) => new Runner({ tracingDisabled: true, ...(tools === undefined ? {} : { toolErrorFormatter: approvalRejections(tools) }) });

function executeSpans(tool = 'shell'): ReadableSpan[] {
  return tracing.spansNamed(`execute_tool ${tool}`);
}

function summary(span: ReadableSpan) {
  return {
    id: span.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
    outcome: span.attributes[ATTR_OUTCOME],
    approval: span.attributes[ATTR_APPROVAL_OUTCOME],
    approvalId: span.attributes[ATTR_APPROVAL_ID],
    links: span.links.map((link) => link.context.spanId),
  };
}

describe("approvals: 'framework' — an Ask interrupts the run", () => {
  it('approved: the run interrupts, the app approves, the resumed run executes the call once with a link to the asking span', async () => {
    const { tools, shell, weather, before } = setup();
    const { agent, model } = agentWith(tools, [
      { calls: [{ id: 'p1', tool: 'shell', args: { cmd: 'ls' } }, { id: 'w1', tool: 'weather', args: { city: 'Oslo' } }] },
      { text: 'done' },
    ]);
    const first = await sdk().run(agent, 'go');
    expect(first.interruptions).toHaveLength(1);
    const [item] = first.interruptions as RunToolApprovalItem[];
    expect([item?.name, item?.arguments]).toEqual(['shell', '{"cmd":"ls"}']);
    expect(shell).not.toHaveBeenCalled();
    // The call that did not ask ran in the same turn, its hooks once.
    expect(weather).toHaveBeenCalledTimes(1);
    expect(before.mock.calls.map(([name]) => name)).toEqual(['shell', 'weather']);
    const [asking] = executeSpans();
    expect(summary(asking!)).toEqual({ id: 'p1', outcome: 'pending', approval: 'pending', approvalId: 'p1', links: [] });
    expect(tracing.childNames(asking!)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL]);
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes[ATTR_APPROVAL_ID]).toBe('p1');
    expect(summary(tracing.onlySpan('execute_tool weather'))).toMatchObject({ id: 'w1', outcome: 'completed', approval: undefined });

    first.state.approve(item!);
    const resumed = await sdk().run(agent, first.state);
    expect(resumed.finalOutput).toBe('done');
    expect(shell).toHaveBeenCalledTimes(1);
    expect(weather).toHaveBeenCalledTimes(1);
    expect(outputsSent(model, 1)).toEqual({ p1: 'ran ls', w1: 'sunny in Oslo' });
    // Once per pass: the asking pass and the continuation.
    expect(before.mock.calls.map(([name]) => name)).toEqual(['shell', 'weather', 'shell']);
    const [, continuation] = executeSpans();
    expect(summary(continuation!)).toEqual({ id: 'p1', outcome: 'completed', approval: 'approved', approvalId: 'p1', links: [asking!.spanContext().spanId] });
    expect(tracing.spansNamed(SPAN_APPROVAL).map((span) => span.attributes[ATTR_APPROVAL_OUTCOME])).toEqual(['pending', 'approved']);
  });

  it('rejected: the tool never runs, the model reads the rejection as not run, and approvalRejections records the call as denied', async () => {
    const { tools, shell, events } = setup();
    const { agent, model } = agentWith(tools, [{ calls: [{ id: 'r1', tool: 'shell', args: { cmd: 'rm -rf /tmp/x' } }] }, { text: 'ok' }]);
    const runner = sdk(tools);
    const first = await runner.run(agent, 'go');
    first.state.reject(first.interruptions[0] as RunToolApprovalItem);
    await runner.run(agent, first.state);
    expect(shell).not.toHaveBeenCalled();
    const sent = (model.requests[1]?.input as { type?: string; callId?: string }[]).find((entry) => entry.type === 'function_call_result' && entry.callId === 'r1');
    // The SDK still marks the result `completed` (openai-agents-js#1104); its text says the tool did not run.
    expect(sent).toMatchObject({ status: 'completed', output: { type: 'text', text: 'Tool execution was not approved. The tool "shell" was not run.' } });
    const [asking, denied] = executeSpans();
    expect(summary(asking!).outcome).toBe('pending');
    expect(summary(denied!)).toEqual({ id: 'r1', outcome: 'denied', approval: 'denied', approvalId: 'r1', links: [asking!.spanContext().spanId] });
    // The rejection carries what its asking pass tallied: gated.
    expect(events.map((event) => [event.outcome, event.gated])).toEqual([['pending', true], ['denied', true]]);
  });

  it("rejected without approvalRejections: the model reads the SDK's own rejection text; only the asking call is recorded", async () => {
    const { tools, shell } = setup();
    const { agent, model } = agentWith(tools, [{ calls: [{ id: 'r2', tool: 'shell', args: { cmd: 'rm x' } }] }, { text: 'ok' }]);
    const first = await sdk().run(agent, 'go');
    first.state.reject(first.interruptions[0] as RunToolApprovalItem);
    await sdk().run(agent, first.state);
    expect(shell).not.toHaveBeenCalled();
    expect(outputsSent(model, 1)).toEqual({ r2: 'Tool execution was not approved.' });
    expect(executeSpans().map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['pending']);
  });

  it('a state saved with RunState.toString() resumes with fresh hooked tools (another process): approved runs once, rejected is denied', async () => {
    const asking = setup();
    const turns: AgentsTurn[] = [{ calls: [{ id: 's1', tool: 'shell', args: { cmd: 'ls' } }, { id: 's2', tool: 'shell', args: { cmd: 'rm y' } }] }, { text: 'done' }];
    const first = await sdk().run(agentWith(asking.tools, turns).agent, 'go');
    expect(first.interruptions).toHaveLength(2);
    const saved = first.state.toString();

    const fresh = setup();
    const { agent, model } = agentWith(fresh.tools, turns.slice(1));
    const restored = await RunState.fromString(agent, saved);
    const [approve, reject] = restored.getInterruptions() as RunToolApprovalItem[];
    restored.approve(approve!);
    restored.reject(reject!);
    const resumed = await sdk(fresh.tools).run(agent, restored);
    expect(resumed.finalOutput).toBe('done');
    expect(asking.shell).not.toHaveBeenCalled();
    expect(fresh.shell).toHaveBeenCalledTimes(1);
    expect(fresh.shell.mock.calls[0]?.[0]).toEqual({ cmd: 'ls' });
    expect(outputsSent(model, 0)).toEqual({ s1: 'ran ls', s2: 'Tool execution was not approved. The tool "shell" was not run.' });
    // No link: this process did not ask (the asking spans are the other process's).
    const byEnd = executeSpans().map(summary);
    expect(byEnd.slice(0, 2)).toEqual([
      { id: 's1', outcome: 'pending', approval: 'pending', approvalId: 's1', links: [] },
      { id: 's2', outcome: 'pending', approval: 'pending', approvalId: 's2', links: [] },
    ]);
    // The SDK resolves the rejection before it runs the approved call.
    expect(byEnd.slice(2)).toEqual([
      { id: 's2', outcome: 'denied', approval: 'denied', approvalId: 's2', links: [] },
      { id: 's1', outcome: 'completed', approval: 'approved', approvalId: 's1', links: [] },
    ]);
  });

  it('an approval replayed into a third run is ignored with one warning: the tool never runs a second time', async () => {
    const warnings: string[] = [];
    vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => void warnings.push(String(warning)));
    const { tools, shell } = setup();
    const { agent, model } = agentWith(tools, [{ calls: [{ id: 'x1', tool: 'shell', args: { cmd: 'ls' } }] }, { text: 'done' }, { text: 'again' }]);
    const first = await sdk().run(agent, 'go');
    first.state.approve(first.interruptions[0] as RunToolApprovalItem);
    const approved = first.state.toString();

    await sdk().run(agent, await RunState.fromString(agent, approved));
    expect(shell).toHaveBeenCalledTimes(1);
    expect(warnings).toEqual([]);

    const replay = await sdk().run(agent, await RunState.fromString(agent, approved));
    expect(replay.finalOutput).toBe('again');
    expect(shell).toHaveBeenCalledTimes(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('approval "x1" was already resolved');
    expect(outputsSent(model, 2)).toEqual({ x1: 'approval x1 was already resolved; the tool does not run again' });
    expect(executeSpans().map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['pending', 'completed']);
  });
});

describe("approvals: 'framework' — conversations whose models number their calls alike (call_0)", () => {
  it('two conversations waiting at once with the same call id, both approved: each call runs once', async () => {
    const { tools, shell } = setup();
    for (const [a, b] of [['ls', 'rm a'], ['ls', 'ls']]) {
      shell.mockClear();
      const one = agentWith(tools, [{ calls: [{ id: 'call_0', tool: 'shell', args: { cmd: a } }] }, { text: 'one done' }]);
      const two = agentWith(tools, [{ calls: [{ id: 'call_0', tool: 'shell', args: { cmd: b } }] }, { text: 'two done' }]);
      const [first, second] = [await sdk().run(one.agent, 'go'), await sdk().run(two.agent, 'go')];
      first.state.approve(first.interruptions[0] as RunToolApprovalItem);
      second.state.approve(second.interruptions[0] as RunToolApprovalItem);
      expect((await sdk().run(two.agent, second.state)).finalOutput).toBe('two done');
      expect((await sdk().run(one.agent, first.state)).finalOutput).toBe('one done');
      expect(shell.mock.calls.map(([args]) => args.cmd).sort()).toEqual([a, b].sort());
      expect(outputsSent(one.model, 1)).toEqual({ call_0: `ran ${a}` });
      expect(outputsSent(two.model, 1)).toEqual({ call_0: `ran ${b}` });
    }
  });

  it('an approval replayed after another conversation asked with the same call id is refused: the tool does not run a second time', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { tools, shell } = setup();
    const one = agentWith(tools, [{ calls: [{ id: 'call_0', tool: 'shell', args: { cmd: 'ls' } }] }, { text: 'done' }, { text: 'again' }]);
    const first = await sdk().run(one.agent, 'go');
    first.state.approve(first.interruptions[0] as RunToolApprovalItem);
    const approved = first.state.toString();
    await sdk().run(one.agent, await RunState.fromString(one.agent, approved));
    expect(shell).toHaveBeenCalledTimes(1);
    // Another conversation asks under the same call id (and waits).
    const two = agentWith(tools, [{ calls: [{ id: 'call_0', tool: 'shell', args: { cmd: 'rm b' } }] }]);
    expect((await sdk().run(two.agent, 'go')).interruptions).toHaveLength(1);
    await sdk().run(one.agent, await RunState.fromString(one.agent, approved));
    expect(shell).toHaveBeenCalledTimes(1);
    expect(outputsSent(one.model, 2)).toEqual({ call_0: 'approval call_0 was already resolved; the tool does not run again' });
  });

  it('a continuation whose call differs from the one asked about (a run state edited to other arguments) is refused and recorded as denied, never run', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { tools, shell, events } = setup();
    const { agent, model } = agentWith(tools, [{ calls: [{ id: 'e1', tool: 'shell', args: { cmd: 'ls' } }] }, { text: 'done' }]);
    const first = await sdk().run(agent, 'go');
    first.state.approve(first.interruptions[0] as RunToolApprovalItem);
    const saved = first.state.toString();
    const edited = saved.replaceAll('{\\"cmd\\":\\"ls\\"}', '{\\"cmd\\":\\"rm -rf /\\"}');
    expect(edited).not.toBe(saved);
    await sdk().run(agent, await RunState.fromString(agent, edited));
    expect(shell).not.toHaveBeenCalled();
    expect(outputsSent(model, 1)).toEqual({ e1: 'approval e1 was given for another call (other arguments or another tool); the tool does not run' });
    const [asking, refused] = executeSpans();
    expect(summary(asking!).outcome).toBe('pending');
    expect(summary(refused!)).toEqual({ id: 'e1', outcome: 'denied', approval: 'denied', approvalId: 'e1', links: [] });
    // No phase ran for the refused call: neither gated nor ungated.
    expect(events.map((event) => [event.outcome, event.gated])).toEqual([['pending', true], ['denied', undefined]]);
  });

  it('two runs holding the same call id and arguments at once: each call runs once, in its own flow, and every span ends', async () => {
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothArrived = new Promise<void>((resolve) => (release = resolve));
    // Both runs' before_tool phases are in flight before either invokes: both calls are held together.
    const barrier: ToolHook = { name: 'barrier', tools: ['weather'], beforeTool: async () => ((arrived += 1) === 2 ? release() : await bothArrived, undefined) };
    const { tools, weather, before } = setup([barrier]);
    const one = agentWith(tools, [{ calls: [{ id: 'call_0', tool: 'weather', args: { city: 'Oslo' } }] }, { text: 'one' }]);
    const two = agentWith(tools, [{ calls: [{ id: 'call_0', tool: 'weather', args: { city: 'Oslo' } }] }, { text: 'two' }]);
    const results = await Promise.all([sdk().run(one.agent, 'go'), sdk().run(two.agent, 'go')]);
    expect(results.map((result) => result.finalOutput)).toEqual(['one', 'two']);
    expect(weather).toHaveBeenCalledTimes(2);
    // Each call's hooks ran once, in its needsApproval: no invocation fell back to a call of its own.
    expect(before).toHaveBeenCalledTimes(2);
    expect(outputsSent(one.model, 1)).toEqual({ call_0: 'sunny in Oslo' });
    expect(outputsSent(two.model, 1)).toEqual({ call_0: 'sunny in Oslo' });
    const spans = executeSpans('weather');
    expect(spans.map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['completed', 'completed']);
    // Each call's tool ran under its own execute_tool span.
    expect(tracing.spansNamed(SPAN_EXECUTE).map((span) => span.parentSpanContext?.spanId).sort()).toEqual(spans.map((span) => span.spanContext().spanId).sort());
  });
});

describe("approvals: 'framework' — the other decisions, decided in needsApproval and applied in invoke", () => {
  it('Skip, Redirect and Abort run the hooks once per call and take effect as without approvals', async () => {
    const { tools, shell, sandbox, weather, before } = setup([
      { name: 'cache', tools: ['weather'], beforeTool: () => skip('cached', 'cloudy (cached)') },
      { name: 'sandbox', tools: ['shell'], beforeTool: (_tool, args) => (args.cmd === 'curl x' ? redirect({ newTool: 'sandbox_shell' }) : undefined) },
    ]);
    const { agent, model } = agentWith(tools, [
      { calls: [{ id: 'k1', tool: 'weather', args: { city: 'Paris' } }, { id: 'k2', tool: 'shell', args: { cmd: 'curl x' } }, { id: 'k3', tool: 'shell', args: { cmd: 'pwd' } }] },
      { text: 'ok' },
    ]);
    const result = await sdk().run(agent, 'go');
    expect(result.interruptions).toHaveLength(0);
    expect(outputsSent(model, 1)).toEqual({ k1: 'cloudy (cached)', k2: 'sandbox ran curl x', k3: 'ran pwd' });
    expect([weather.mock.calls.length, sandbox.mock.calls.length, shell.mock.calls.length]).toEqual([0, 1, 1]);
    expect(before).toHaveBeenCalledTimes(3);
    // No approval was asked: no approval id, although each call could have asked.
    expect(executeSpans('weather').map(summary)).toEqual([{ id: 'k1', outcome: 'skipped', approval: undefined, approvalId: undefined, links: [] }]);
    expect(executeSpans().map((span) => span.attributes[ATTR_APPROVAL_ID])).toEqual([undefined, undefined]);
    expect(executeSpans().map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['completed', 'completed']);
  });

  it("a held call's tool runs in the SDK's invoke with the call's span active: its own spans nest under toolhooks.execute", async () => {
    const traced = tool({
      name: 'traced',
      description: 'starts a span',
      parameters: z.object({ q: z.string() }),
      execute: async ({ q }) => tracing.tracer.startActiveSpan('tool work', (span) => (span.end(), `found ${q}`)),
    });
    const runner = new HookRunner({ hooks: [{ name: 'audit', beforeTool: () => undefined }], tracer: tracing.tracer });
    const { agent, model } = agentWith(withHooks([traced], runner, { approvals: 'framework' }), [{ calls: [{ id: 't1', tool: 'traced', args: { q: 'x' } }] }, { text: 'ok' }]);
    await sdk().run(agent, 'go');
    expect(outputsSent(model, 1)).toEqual({ t1: 'found x' });
    const execute = tracing.onlySpan(SPAN_EXECUTE);
    expect(tracing.onlySpan('tool work').parentSpanContext?.spanId).toBe(execute.spanContext().spanId);
    expect(execute.parentSpanContext?.spanId).toBe(tracing.onlySpan('execute_tool traced').spanContext().spanId);
  });

  it("a call the tool's input guardrail rejects ends at once, failed with a GuardrailRejectedError; the model reads the guardrail's message", async () => {
    const deploy = vi.fn(async ({ env }: { env: string }) => `deployed to ${env}`);
    const guarded = tool({
      name: 'deploy',
      description: 'Deploy',
      parameters: z.object({ env: z.string() }),
      execute: deploy,
      inputGuardrails: [
        defineToolInputGuardrail({
          name: 'no-prod',
          run: async ({ toolCall }) =>
            JSON.parse(toolCall.arguments).env === 'live' ? ToolGuardrailFunctionOutputFactory.rejectContent('not in production') : ToolGuardrailFunctionOutputFactory.allow(),
        }),
      ],
    });
    const onError = vi.fn();
    const runner = new HookRunner({ hooks: [{ name: 'audit', beforeTool: () => undefined, onError }], tracer: tracing.tracer });
    const { agent, model } = agentWith(withHooks([guarded], runner, { approvals: 'framework' }), [
      { calls: [{ id: 'g1', tool: 'deploy', args: { env: 'live' } }, { id: 'g2', tool: 'deploy', args: { env: 'staging' } }] },
      { text: 'ok' },
    ]);
    const started = performance.now();
    await sdk().run(agent, 'go');
    // Ended when the guardrail rejected it, not after the 60 s wait for an invocation that never comes.
    await vi.waitFor(() => expect(executeSpans('deploy')).toHaveLength(2), { timeout: 2_000 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(outputsSent(model, 1)).toEqual({ g1: 'not in production', g2: 'deployed to staging' });
    expect(deploy).toHaveBeenCalledTimes(1);
    const byId = Object.fromEntries(executeSpans('deploy').map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span]));
    expect(byId.g1?.attributes[ATTR_OUTCOME]).toBe('failed');
    expect(byId.g1?.attributes[ATTR_ERROR_TYPE]).toBe('GuardrailRejectedError');
    expect(byId.g1?.status.message).toContain('guardrail "no-prod" rejected "deploy" for call g1 (rejectContent)');
    expect(byId.g2?.attributes[ATTR_OUTCOME]).toBe('completed');
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it("Abort: the run rejects with the SDK's ToolCallError, whose error is the HookAbortError", async () => {
    const { tools, shell } = setup([{ name: 'policy', tools: ['shell'], beforeTool: () => abort('destructive') }]);
    const { agent } = agentWith(tools, [{ calls: [{ id: 'a1', tool: 'shell', args: { cmd: 'rm -rf /' } }] }]);
    const failure = await sdk().run(agent, 'go').then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ToolCallError);
    expect((failure as ToolCallError).error).toBeInstanceOf(HookAbortError);
    expect(shell).not.toHaveBeenCalled();
    expect(executeSpans().map((span) => [span.attributes[ATTR_OUTCOME], span.attributes[ATTR_ERROR_TYPE]])).toEqual([['aborted', 'HookAbortError']]);
  });

  it("a tool's own needsApproval still asks first; the approved call then runs through the hooks once", async () => {
    const execute = vi.fn(async ({ cmd }: { cmd: string }) => `ran ${cmd}`);
    const before = vi.fn();
    const runner = new HookRunner({ hooks: [{ name: 'audit', beforeTool: () => void before() }], tracer: tracing.tracer });
    const tools = withHooks([tool({ name: 'shell', description: 'x', parameters: z.object({ cmd: z.string() }), needsApproval: true, execute })], runner, { approvals: 'framework' });
    const { agent, model } = agentWith(tools, [{ calls: [{ id: 'o1', tool: 'shell', args: { cmd: 'ls' } }] }, { text: 'done' }]);
    const first = await sdk().run(agent, 'go');
    expect(first.interruptions).toHaveLength(1);
    expect(before).not.toHaveBeenCalled();
    first.state.approve(first.interruptions[0] as RunToolApprovalItem);
    await sdk().run(agent, first.state);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(before).toHaveBeenCalledTimes(1);
    expect(outputsSent(model, 1)).toEqual({ o1: 'ran ls' });
    expect(executeSpans().map(summary)).toEqual([{ id: 'o1', outcome: 'completed', approval: undefined, approvalId: 'o1', links: [] }]);
  });

  it('input the schema refuses is still a failed call without argument values', async () => {
    const { tools, weather, events } = setup();
    const { agent, model } = agentWith(tools, [{ calls: [{ id: 'b1', tool: 'weather', args: { city: 4242 } }] }, { text: 'ok' }]);
    await sdk().run(agent, 'go');
    expect(weather).not.toHaveBeenCalled();
    expect(String(outputsSent(model, 1).b1)).toMatch(/error/i);
    const span = tracing.onlySpan('execute_tool weather');
    expect([span.attributes[ATTR_OUTCOME], span.attributes[ATTR_ERROR_TYPE]]).toEqual(['failed', 'InvalidToolInputError']);
    expect(JSON.stringify([span.attributes, span.status, span.events, events])).not.toContain('4242');
    // Its before_tool phase ran (in needsApproval), with an enforce-mode hook: gated.
    expect(events.map((event) => event.gated)).toEqual([true]);
  });
});

describe("approvals: 'framework' and arguments that are not JSON", () => {
  it('the SDK asks for approval of a call a conditional needsApproval cannot judge; approved, the model reads its parse error and nothing runs', async () => {
    const { tools, weather, before } = setup();
    const { agent, model } = agentWith(tools, [{ calls: [{ id: 'j1', tool: 'weather', args: 'RAW:{"city": "Sec' }] }, { text: 'ok' }]);
    const first = await sdk().run(agent, 'go');
    expect(first.interruptions).toHaveLength(1);
    first.state.approve(first.interruptions[0] as RunToolApprovalItem);
    await sdk().run(agent, first.state);
    expect(String(outputsSent(model, 1).j1)).toMatch(/valid JSON/);
    expect(weather).not.toHaveBeenCalled();
    expect(before).not.toHaveBeenCalled();
    expect(executeSpans('weather')).toHaveLength(0);
  });
});

describe('calls recorded without any phase', () => {
  it('arguments that are not JSON: recorded failed with no toolhooks.gated, so the ungated-calls alert never counts them', async () => {
    const events: ToolEvent[] = [];
    const weather = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
    const runner = new HookRunner({ hooks: [gate, { name: 'observer', onEvent: (event) => void (event.type === 'tool' && events.push(event)) }], tracer: tracing.tracer });
    const tools = withHooks([tool({ name: 'weather', description: 'w', parameters: z.object({ city: z.string() }), execute: weather })], runner);
    // The Runner answers such a call itself; a runner that invokes the tool anyway reaches recordRejectedCall.
    const invoke = (tools[0] as unknown as { invoke: (runContext: unknown, input: string, details: unknown) => Promise<unknown> }).invoke;
    await invoke(new RunContext(), '{"city": "Sec', { toolCall: { type: 'function_call', callId: 'n1', name: 'weather', arguments: '{"city": "Sec' } });
    expect(weather).not.toHaveBeenCalled();
    expect(events.map((event) => [event.outcome, 'gated' in event])).toEqual([['failed', false]]);
  });
});

describe("approvals: 'framework' bad input", () => {
  it('an unknown approvals value and a wrong approvalRejections argument are TypeErrors naming them', () => {
    const { tools } = setup();
    const runner = new HookRunner([]);
    expect(() => withHooks([], runner, { approvals: 'sdk' } as never)).toThrow(/withHooks: options\.approvals must be 'runner' or 'framework', got the string "sdk"/);
    expect(() => approvalRejections({} as never)).toThrow(/approvalRejections: tools must be the array withHooks returned/);
    expect(() => approvalRejections(withHooks([], runner))).toThrow(/holds no tool of withHooks\(tools, runner, \{ approvals: 'framework' \}\)/);
    expect(() => approvalRejections(tools, { formatter: 'x' } as never)).toThrow(/options\.formatter must be a toolErrorFormatter function/);
  });
});
