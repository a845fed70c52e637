/**
 * toolhooks/adk inside Google ADK's own InMemoryRunner, driven by a scripted model (a BaseLlm
 * returning canned function calls), offline. ADK is imported before any tracer provider is
 * registered, so its own tracing stays off here (adk-traced.test.ts has it on).
 */
import type { BasePlugin, Event } from '@google/adk';
import { BasePlugin as AdkBasePlugin, FunctionTool, InMemoryRunner, LlmAgent, LogLevel, setLogLevel } from '@google/adk';
import { context, trace } from '@opentelemetry/api';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolHook } from '../../../src/index.js';
import { abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';
import { toolhooksPlugin } from '../../../src/adapters/adk/index.js';
import { ATTR_APPROVAL_OUTCOME, ATTR_ERROR_TYPE, ATTR_GEN_AI_TOOL_CALL_ID, ATTR_OUTCOME, SPAN_APPROVAL } from '../../../src/telemetry/semconv.js';
import type { Turn } from '../../support/adk-model.js';
import { ScriptedLlm, runTurn } from '../../support/adk-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();
setLogLevel(LogLevel.ERROR);

function makeTools() {
  const shell = vi.fn(async ({ cmd }: { cmd: string }) => `host ran ${cmd}`);
  const sandbox = vi.fn(async ({ cmd }: { cmd: string }) => `sandbox ran ${cmd}`);
  const flaky = vi.fn(async (): Promise<string> => {
    throw new Error('disk full');
  });
  return {
    shell,
    sandbox,
    flaky,
    tools: [
      new FunctionTool({ name: 'shell', description: 'Run a command', parameters: z.object({ cmd: z.string() }), execute: shell }),
      new FunctionTool({ name: 'sandbox_shell', description: 'Run in a sandbox', parameters: z.object({ cmd: z.string() }), execute: sandbox }),
      new FunctionTool({ name: 'flaky', description: 'Fails', execute: flaky }),
    ],
  };
}

const USER = { role: 'user', parts: [{ text: 'go' }] };

async function setup(hooks: ToolHook[], turns: readonly Turn[], options: { approvals?: 'runner' | 'framework'; approver?: ToolHook extends never ? never : Parameters<typeof tracing.runner>[1]; plugins?: BasePlugin[] } = {}) {
  const model = new ScriptedLlm(turns);
  const made = makeTools();
  const agent = new LlmAgent({ name: 'ops', model, instruction: 'help', tools: made.tools });
  const runner = tracing.runner(hooks, options.approver ?? {});
  const plugin = toolhooksPlugin(runner, options.approvals === undefined ? undefined : { approvals: options.approvals });
  const adk = new InMemoryRunner({ agent, appName: 'app', plugins: [...(options.plugins ?? []), plugin] });
  const session = await adk.sessionService.createSession({ appName: 'app', userId: 'u' });
  return { model, adk, session, plugin, agent, hooks: runner, ...made };
}

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, args });

describe('toolhooksPlugin inside an ADK InMemoryRunner', () => {
  it('is an ADK BasePlugin in shape, and ADK registers it', async () => {
    const plugin: BasePlugin = toolhooksPlugin(tracing.runner([]));
    expect(plugin.name).toBe('toolhooks');
    const methods = Object.getOwnPropertyNames(AdkBasePlugin.prototype).filter((name) => name !== 'constructor');
    expect(methods.filter((name) => typeof (plugin as unknown as Record<string, unknown>)[name] !== 'function')).toEqual([]);
    // Every callback but the tool ones and the run and event checks has no opinion.
    for (const name of methods.filter((method) => !['beforeToolCallback', 'beforeRunCallback', 'onEventCallback'].includes(method))) {
      expect(await (plugin as unknown as Record<string, (params: object) => Promise<unknown>>)[name]!({})).toBeUndefined();
    }
    expect(await plugin.onEventCallback({ invocationContext: {} as never, event: { content: { parts: [] } } as never })).toBeUndefined();
  });

  it('Continue, Skip, Redirect (arguments and tool) and Abort: what the model reads, one execute_tool span each', async () => {
    const { model, adk, session, shell, sandbox } = await setup(
      [
        { name: 'cache', tools: ['shell'], beforeTool: (_t, args) => (args.cmd === 'date' ? skip('cached', 'Monday') : undefined) },
        { name: 'sandbox', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).startsWith('curl') ? redirect({ newTool: 'sandbox_shell' }) : undefined) },
        { name: 'quiet', tools: ['shell'], beforeTool: (_t, args) => (args.cmd === 'ls' ? redirect({ newArgs: { cmd: 'ls -q' } }) : undefined) },
        { name: 'policy', tools: ['shell'], beforeTool: (_t, args) => (String(args.cmd).includes('rm -rf') ? abort('destructive command') : undefined) },
      ],
      [{ calls: [call('c1', 'shell', { cmd: 'ls' }), call('c2', 'shell', { cmd: 'date' }), call('c3', 'shell', { cmd: 'curl x' }), call('c4', 'shell', { cmd: 'rm -rf /' })] }, { text: 'done' }],
    );
    await runTurn(adk, session.id, USER);
    expect(model.responses.get('c1')).toEqual({ result: 'host ran ls -q' });
    expect(model.responses.get('c2')).toEqual({ result: 'Monday' });
    expect(model.responses.get('c3')).toEqual({ result: 'sandbox ran curl x' });
    expect(model.responses.get('c4')).toEqual({ error: 'This tool call was aborted by policy. Reason: destructive command' });
    expect(model.requests).toBe(2); // the run went on after the Abort: the model read the reason
    expect(shell).toHaveBeenCalledTimes(1);
    expect(sandbox).toHaveBeenCalledTimes(1);
    const spans = tracing.spans().filter((span) => span.name.startsWith('execute_tool'));
    expect(spans.map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
    const byId = (id: string) => spans.find((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === id);
    expect(byId('c2')?.attributes[ATTR_OUTCOME]).toBe('skipped');
    expect(byId('c4')?.attributes[ATTR_OUTCOME]).toBe('aborted');
    expect(byId('c4')?.attributes[ATTR_ERROR_TYPE]).toBe('HookAbortError');
    expect(tracing.childNames(byId('c1')!)).toEqual(['toolhooks.before_tool', 'toolhooks.execute']);
  });

  it("ADK's tracing off: each call's execute_tool span is still in the app's trace, under the app's span", async () => {
    const { adk, session } = await setup([], [{ calls: [call('c1', 'shell', { cmd: 'ls' })] }, { text: 'done' }]);
    const root = tracing.tracer.startSpan('app request');
    await context.with(trace.setSpan(context.active(), root), () => runTurn(adk, session.id, USER));
    root.end();
    expect(tracing.spans().filter((span) => span.instrumentationScope.name === 'gcp.vertex.agent')).toEqual([]);
    const span = tracing.onlySpan('execute_tool shell');
    expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(span.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  });

  it('a Redirect to a tool the agent does not have is a hook error (invalid_redirect_target) and the requested tool runs', async () => {
    const { model, adk, session, shell } = await setup([{ name: 'elsewhere', tools: ['shell'], beforeTool: () => redirect({ newTool: 'no_such_tool' }) }], [{ calls: [call('c1', 'shell', { cmd: 'ls' })] }, { text: 'done' }]);
    await runTurn(adk, session.id, USER);
    expect(model.responses.get('c1')).toEqual({ result: 'host ran ls' });
    expect(shell).toHaveBeenCalledTimes(1);
    const before = tracing.onlySpan('toolhooks.before_tool');
    expect(JSON.stringify(before.events.map((event) => event.attributes))).toContain('invalid_redirect_target');
  });

  it("the run's abortSignal is the hooks' ctx.signal", async () => {
    const signals: AbortSignal[] = [];
    const { adk, session } = await setup([{ name: 'look', beforeTool: (_t, _a, _s, ctx) => void signals.push(ctx.signal) }], [{ calls: [call('c1', 'shell', { cmd: 'ls' })] }, { text: 'done' }]);
    const controller = new AbortController();
    for await (const event of adk.runAsync({ userId: 'u', sessionId: session.id, newMessage: USER, abortSignal: controller.signal })) void event;
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);
    controller.abort(new Error('user left'));
    expect(signals[0]?.aborted).toBe(true);
  });

  it('after_tool Replace is the response; a tool error reaches on_error, a Skip there recovers it, else the model reads the error', async () => {
    const { model, adk, session, flaky } = await setup(
      [
        { name: 'redact', tools: ['shell'], afterTool: () => replaceResult({ redacted: true }) },
        { name: 'fallback', tools: ['flaky'], onError: (_t, args) => (args.recover === true ? skip('fallback', 'cached copy') : undefined) },
      ],
      [{ calls: [call('c1', 'shell', { cmd: 'cat secrets' }), call('c2', 'flaky', { recover: true }), call('c3', 'flaky', {})] }, { text: 'done' }],
    );
    await runTurn(adk, session.id, USER);
    expect(model.responses.get('c1')).toEqual({ redacted: true });
    expect(model.responses.get('c2')).toEqual({ result: 'cached copy' });
    expect(model.responses.get('c3')).toEqual({ error: "Error in tool 'flaky': disk full" });
    expect(flaky).toHaveBeenCalledTimes(2);
    expect(tracing.outcomesOf('flaky').sort()).toEqual(['failed', 'recovered']);
  });

  it("another plugin's onToolErrorCallback recovers a tool's error as in ADK, before on_error", async () => {
    class Recover extends AdkBasePlugin {
      override async onToolErrorCallback(): Promise<Record<string, unknown>> {
        return { recovered: true };
      }
    }
    const onError = vi.fn();
    const { model, adk, session } = await setup([{ name: 'watch', onError }], [{ calls: [call('c1', 'flaky', {})] }, { text: 'done' }], { plugins: [new Recover('recover')] });
    await runTurn(adk, session.id, USER);
    expect(model.responses.get('c1')).toEqual({ recovered: true });
    expect(onError).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('flaky')).toEqual(['completed']);
  });

  it("the agent's own beforeToolCallback still answers for the tool, inside the call", async () => {
    const model = new ScriptedLlm([{ calls: [call('c1', 'shell', { cmd: 'ls' })] }, { text: 'done' }]);
    const { tools, shell } = makeTools();
    const agent = new LlmAgent({ name: 'ops', model, instruction: 'help', tools, beforeToolCallback: async () => ({ from: 'agent callback' }) });
    const adk = new InMemoryRunner({ agent, appName: 'app', plugins: [toolhooksPlugin(tracing.runner([]))] });
    const session = await adk.sessionService.createSession({ appName: 'app', userId: 'u' });
    await runTurn(adk, session.id, USER);
    expect(model.responses.get('c1')).toEqual({ from: 'agent callback' });
    expect(shell).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['completed']);
  });

  it('an Ask goes to the runner approver by default', async () => {
    const approver = vi.fn(async () => ({ approved: false as const, reason: 'not now' }));
    const { model, adk, session, shell } = await setup([{ name: 'gate', tools: ['shell'], beforeTool: () => ask('shell needs a yes') }], [{ calls: [call('c1', 'shell', { cmd: 'ls' })] }, { text: 'done' }], { approver: { approver } });
    await runTurn(adk, session.id, USER);
    expect(approver).toHaveBeenCalledTimes(1);
    expect(shell).not.toHaveBeenCalled();
    expect(JSON.stringify(model.responses.get('c1'))).toContain('not now');
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes[ATTR_APPROVAL_OUTCOME]).toBe('denied');
  });

  it('takes args handed over frozen, as a Proxy or with getters, on one snapshot', async () => {
    let reads = 0;
    const seen: unknown[] = [];
    const { adk, session, shell } = await setup([{ name: 'look', beforeTool: (_t, args) => void seen.push(args.cmd) }], []);
    const args = new Proxy({ cmd: 'ls' }, { get: (target, key) => (key === 'cmd' ? `ls #${++reads}` : Reflect.get(target, key)) });
    const plugin = toolhooksPlugin(tracing.runner([{ name: 'look', beforeTool: (_t, a) => void seen.push(a.cmd) }]));
    const tool = (await (adk.agent as LlmAgent).canonicalTools()).find((entry) => entry.name === 'shell')!;
    const toolContext = { functionCallId: 'p1', invocationContext: { agent: adk.agent }, requestConfirmation: () => undefined };
    const response = await plugin.beforeToolCallback({ tool: tool as never, toolArgs: args, toolContext: toolContext as never });
    expect(response).toEqual({ result: `host ran ${String(seen[0])}` });
    expect(shell).toHaveBeenCalledTimes(1);
    expect(reads).toBe(1);
    void session;
  });

  it('arguments JSON cannot hold (a BigInt) are copied one level deep, read once', async () => {
    const { adk, shell } = await setup([], []);
    const tool = (await (adk.agent as LlmAgent).canonicalTools()).find((entry) => entry.name === 'shell')!;
    const toolContext = { functionCallId: 'b1', invocationContext: { agent: adk.agent }, requestConfirmation: () => undefined };
    const plugin = toolhooksPlugin(tracing.runner([]));
    expect(await plugin.beforeToolCallback({ tool: tool as never, toolArgs: { cmd: 'ls', n: 1n }, toolContext: toolContext as never })).toEqual({ result: 'host ran ls' });
    expect(shell).toHaveBeenCalledTimes(1); // (its schema drops `n`)
  });
});

describe('toolhooksPlugin with approvals: framework (ADK tool confirmation)', () => {
  const gate: ToolHook = { name: 'gate', tools: ['shell'], beforeTool: () => ask('shell needs a yes') };

  async function paused() {
    const set = await setup([gate], [{ calls: [call('c1', 'shell', { cmd: 'ls' })] }, { text: 'done' }], { approvals: 'framework' });
    const events = (await runTurn(set.adk, set.session.id, USER)) as { content?: { parts?: { functionCall?: { id?: string; name?: string; args?: Record<string, unknown> } }[] } }[];
    const request = events.flatMap((event) => event.content?.parts ?? []).map((part) => part.functionCall).find((fc) => fc?.name === 'adk_request_confirmation');
    return { ...set, request };
  }

  /** The session's events as the in-memory store holds them (getSession returns a copy). */
  function storedEvents(adk: InMemoryRunner, sessionId: string): Event[] {
    const store = (adk.sessionService as unknown as { sessions: Record<string, Record<string, Record<string, { events: Event[] }>>> }).sessions;
    return store.app?.u?.[sessionId]?.events ?? [];
  }

  function answer(id: string, confirmed: boolean) {
    return { role: 'user', parts: [{ functionResponse: { id, name: 'adk_request_confirmation', response: { confirmed } } }] };
  }

  it('an Ask pauses the run with a confirmation pinned to the call; the answer, in a new runner and plugin, runs it', async () => {
    const { adk, session, request, shell, agent } = await paused();
    expect(request?.args?.originalFunctionCall).toMatchObject({ id: 'c1', name: 'shell', args: { cmd: 'ls' } });
    expect((request?.args?.toolConfirmation as { hint?: string }).hint).toBe('shell needs a yes');
    expect(shell).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['pending']);
    // Another process: a new plugin (no in-process memory) over the same session store.
    const resumed = new InMemoryRunner({ agent, appName: 'app', plugins: [toolhooksPlugin(tracing.runner([gate]), { approvals: 'framework' })] });
    (resumed as unknown as { sessionService: unknown }).sessionService = adk.sessionService;
    await runTurn(resumed, session.id, answer(request!.id!, true));
    expect(shell).toHaveBeenCalledWith({ cmd: 'ls' }, expect.anything());
    expect(tracing.outcomesOf('shell')).toEqual(['pending', 'completed']);
    expect(tracing.spansNamed(SPAN_APPROVAL).map((span) => span.attributes[ATTR_APPROVAL_OUTCOME])).toEqual(['pending', 'approved']);
  });

  it('a confirmation answered twice in one process runs the tool once: the second is refused as already resolved', async () => {
    const { adk, shell } = await setup([gate], []);
    const plugin = toolhooksPlugin(tracing.runner([gate]), { approvals: 'framework' });
    const tool = (await (adk.agent as LlmAgent).canonicalTools()).find((entry) => entry.name === 'shell')!;
    const confirmed = () => ({ functionCallId: 'r1', toolConfirmation: { confirmed: true }, invocationContext: { agent: adk.agent }, requestConfirmation: () => undefined });
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    expect(await plugin.beforeToolCallback({ tool: tool as never, toolArgs: { cmd: 'ls' }, toolContext: confirmed() as never })).toEqual({ result: 'host ran ls' });
    expect(JSON.stringify(await plugin.beforeToolCallback({ tool: tool as never, toolArgs: { cmd: 'ls' }, toolContext: confirmed() as never }))).toContain('already resolved');
    warn.mockRestore();
    expect(shell).toHaveBeenCalledTimes(1);
  });

  it('a rejected confirmation denies the call: the model reads the denial', async () => {
    const { adk, session, request, shell, model } = await paused();
    await runTurn(adk, session.id, answer(request!.id!, false));
    expect(shell).not.toHaveBeenCalled();
    expect(JSON.stringify(model.responses.get('c1'))).toContain('rejected in the tool confirmation');
    expect(tracing.spansNamed(SPAN_APPROVAL).map((span) => span.attributes[ATTR_APPROVAL_OUTCOME])).toEqual(['pending', 'denied']);
  });

  it("a confirmation pinned to other arguments is refused by ADK (arguments_mismatch) and recorded", async () => {
    const { adk, session, request, shell } = await paused();
    // The pinned copy (the same object as the call in ADK's events) replaced by one for other arguments.
    for (const event of storedEvents(adk, session.id)) {
      for (const part of event.content?.parts ?? []) {
        const args = part.functionCall?.name === 'adk_request_confirmation' ? part.functionCall.args : undefined;
        if (args !== undefined) args.originalFunctionCall = { ...(args.originalFunctionCall as object), args: { cmd: 'rm -rf /' } };
      }
    }
    await expect(runTurn(adk, session.id, answer(request!.id!, true))).rejects.toThrow(/arguments_mismatch/);
    expect(shell).not.toHaveBeenCalled();
    const refused = tracing.spansNamed('execute_tool shell').find((span) => span.attributes[ATTR_ERROR_TYPE] === 'AdkConfirmationRefused');
    expect(refused?.attributes[ATTR_OUTCOME]).toBe('failed');
    expect(refused?.attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('c1');
  });

  it('a confirmation that comes back to other arguments than this process asked about is refused (bound to the call)', async () => {
    const { adk, session, request, shell, model } = await paused();
    // Both the call and its pinned copy changed: ADK sees them agree; the plugin remembers what it asked.
    for (const event of storedEvents(adk, session.id)) {
      for (const part of event.content?.parts ?? []) {
        if (part.functionCall?.id === 'c1') part.functionCall.args = { cmd: 'rm -rf /' };
        if (part.functionCall?.name === 'adk_request_confirmation') (part.functionCall.args!.originalFunctionCall as { args: unknown }).args = { cmd: 'rm -rf /' };
      }
    }
    await runTurn(adk, session.id, answer(request!.id!, true));
    expect(shell).not.toHaveBeenCalled();
    expect(JSON.stringify(model.responses.get('c1'))).toContain('arguments_mismatch');
    expect(tracing.spansNamed(SPAN_APPROVAL).map((span) => span.attributes[ATTR_APPROVAL_OUTCOME])).toEqual(['pending', 'denied']);
  });
});

describe('toolhooksPlugin: bad input', () => {
  it('a runner passed where the options go, unknown options, a non-runner: TypeErrors naming the fix', () => {
    const runner = tracing.runner([]);
    expect(() => toolhooksPlugin(runner, runner as never)).toThrow(/options is a HookRunner; pass one runner, then the options object/);
    expect(() => toolhooksPlugin(runner, { approval: 'framework' } as never)).toThrow(/unknown option "approval"; did you mean "approvals"/);
    expect(() => toolhooksPlugin({} as never)).toThrow(/runner must be a HookRunner/);
    expect(() => toolhooksPlugin(runner, { name: '' })).toThrow(/options.name must be a non-empty string/);
  });

  it('two toolhooks plugins in one Runner: the run fails with a TypeError naming the fix', async () => {
    const model = new ScriptedLlm([{ text: 'done' }]);
    const agent = new LlmAgent({ name: 'ops', model, instruction: 'help', tools: makeTools().tools });
    const runner = tracing.runner([]);
    const adk = new InMemoryRunner({ agent, appName: 'app', plugins: [toolhooksPlugin(runner), toolhooksPlugin(runner, { name: 'toolhooks-2' })] });
    const session = await adk.sessionService.createSession({ appName: 'app', userId: 'u' });
    await expect(runTurn(adk, session.id, USER)).rejects.toThrow(/register one toolhooksPlugin/);
  });

  it('an ADK that calls without a tool context: one warning naming the supported range, the call left to ADK', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const plugin = toolhooksPlugin(tracing.runner([]));
    expect(await plugin.beforeToolCallback({ tool: {} as never, toolArgs: {}, toolContext: {} as never })).toBeUndefined();
    expect(await plugin.beforeToolCallback({ tool: {} as never, toolArgs: {}, toolContext: {} as never })).toBeUndefined();
    const messages = warn.mock.calls.map((args) => String(args[0])).filter((message) => message.includes('toolhooksPlugin supports'));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('@google/adk >=2.0.0 <3');
    warn.mockRestore();
  });
});
