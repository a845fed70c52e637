/**
 * toolhooks/langchain with the real `createAgent` of langchain 1.x and LangChain's offline fake chat
 * model (`fakeModel()` from @langchain/core/testing): what the model reads after each decision, how
 * the agent ends on Abort, and the span tree of each call.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { ClientTool } from '@langchain/core/tools';
import { fakeModel } from '@langchain/core/testing';
import { createAgent, tool } from 'langchain';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, redirect, skip } from '../../../src/index.js';
import { toolhooksMiddleware, withHooks } from '../../../src/adapters/langchain/index.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_OUTCOME,
  ATTR_REDIRECTED,
  ATTR_TOOL_EFFECTIVE_NAME,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
  SPAN_ON_ERROR,
} from '../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';
import { DEEP, deepEditor, deepestOf, deeplyNested } from '../../support/deep-args.js';

const tracing = useTestTracing();

const runner = (hooks: ToolHook[]): HookRunner => tracing.runner(hooks);

function executeToolSpan(toolName: string): ReadableSpan {
  return tracing.onlySpan(`${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`);
}

function childrenOf(span: ReadableSpan): string[] {
  return tracing
    .spans()
    .filter((candidate) => candidate.parentSpanContext?.spanId === span.spanContext().spanId)
    .map((child) => child.name);
}

/** The ToolMessages the model was given on its n-th call, as `{ tool_call_id: content }`. */
function toolMessagesSeen(messages: BaseMessage[] | undefined): Record<string, unknown> {
  const seen: Record<string, unknown> = {};
  for (const message of messages ?? []) if (ToolMessage.isInstance(message)) seen[message.tool_call_id] = message.content;
  return seen;
}

function makeTools() {
  const weatherFn = vi.fn(async ({ city }: { city: string }) => `sunny in ${city}`);
  const shellFn = vi.fn(async ({ cmd }: { cmd: string }) => `host ran ${cmd}`);
  const sandboxFn = vi.fn(async ({ cmd }: { cmd: string }) => `sandbox ran ${cmd}`);
  const flakyFn = vi.fn(async ({ n }: { n: number }): Promise<string> => {
    throw new RangeError(`no value for ${n}`);
  });
  const weather = tool(weatherFn, { name: 'weather', description: 'Weather by city', schema: z.object({ city: z.string() }) });
  const shell = tool(shellFn, { name: 'shell', description: 'Run a command', schema: z.object({ cmd: z.string() }) });
  const sandbox = tool(sandboxFn, { name: 'sandbox_shell', description: 'Run a command in a sandbox', schema: z.object({ cmd: z.string() }) });
  const flaky = tool(flakyFn, { name: 'flaky', description: 'Always fails', schema: z.object({ n: z.number() }) });
  return { tools: [weather, shell, sandbox, flaky] as const, weatherFn, shellFn, sandboxFn, flakyFn };
}

/** A fake model that calls one tool, then answers; returns the model and the agent. */
function agentCalling(call: { name: string; args: Record<string, unknown>; id: string }, hooks: HookRunner, tools: readonly object[] = makeTools().tools, middlewareTools?: readonly object[]) {
  const model = fakeModel().respondWithTools([call]).respond(new AIMessage('done'));
  const middleware = toolhooksMiddleware(hooks, middlewareTools === undefined ? undefined : { tools: middlewareTools });
  const agent = createAgent({ model, tools: [...tools] as ClientTool[], middleware: [middleware] });
  return { model, agent };
}

const ask = { messages: [{ role: 'user', content: 'go' }] };

describe('toolhooksMiddleware inside createAgent', () => {
  it('runs the tool; the model reads its result; the span carries the call id under the agent step', async () => {
    const { tools, weatherFn } = makeTools();
    const seen = vi.fn();
    const { model, agent } = agentCalling({ name: 'weather', args: { city: 'Paris' }, id: 'call-1' }, runner([{ name: 'watch', beforeTool: seen }]), tools);
    const out = await agent.invoke(ask);

    expect(out.messages.at(-1)?.content).toBe('done');
    expect(weatherFn).toHaveBeenCalledTimes(1);
    expect(seen.mock.calls[0]!.slice(0, 2)).toEqual(['weather', { city: 'Paris' }]);
    expect(seen.mock.calls[0]![3]).toMatchObject({ callId: 'call-1' });
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ 'call-1': 'sunny in Paris' });
    const span = executeToolSpan('weather');
    expect(span.attributes).toMatchObject({ [ATTR_GEN_AI_TOOL_CALL_ID]: 'call-1', [ATTR_GEN_AI_TOOL_NAME]: 'weather', [ATTR_OUTCOME]: 'completed' });
    expect(childrenOf(span)).toEqual([SPAN_BEFORE_TOOL, SPAN_EXECUTE]);
  });

  it('hooks see the agent state by default', async () => {
    const seen = vi.fn();
    const { agent } = agentCalling({ name: 'weather', args: { city: 'Oslo' }, id: 'c' }, runner([{ beforeTool: seen }]));
    await agent.invoke(ask);
    const state = seen.mock.calls[0]![2] as { messages: BaseMessage[] };
    expect(state.messages.map((message) => message.getType())).toEqual(['human', 'ai']);
  });

  it('Skip: the tool does not run; the model reads the stub (as JSON) under the call id', async () => {
    const { tools, weatherFn } = makeTools();
    const hooks = runner([{ name: 'cache', beforeTool: () => skip('cached', { temp: 21 }) }]);
    const { model, agent } = agentCalling({ name: 'weather', args: { city: 'Paris' }, id: 'call-2' }, hooks, tools);
    await agent.invoke(ask);

    expect(weatherFn).not.toHaveBeenCalled();
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ 'call-2': '{"temp":21}' });
    const span = executeToolSpan('weather');
    expect(span.attributes[ATTR_OUTCOME]).toBe('skipped');
    expect(childrenOf(span)).toEqual([SPAN_BEFORE_TOOL]);
  });

  it('a string stub reaches the model as it is', async () => {
    const { model, agent } = agentCalling({ name: 'weather', args: { city: 'Rome' }, id: 'c3' }, runner([{ beforeTool: () => skip('offline', 'no weather today') }]));
    await agent.invoke(ask);
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ c3: 'no weather today' });
  });

  it('Redirect newArgs: the tool runs with them and the model reads that result', async () => {
    const { tools, weatherFn } = makeTools();
    const hooks = runner([{ beforeTool: () => redirect({ newArgs: { city: 'Lyon' } }) }]);
    const { model, agent } = agentCalling({ name: 'weather', args: { city: 'Paris' }, id: 'c4' }, hooks, tools);
    await agent.invoke(ask);
    expect(weatherFn.mock.calls[0]![0]).toEqual({ city: 'Lyon' });
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ c4: 'sunny in Lyon' });
    expect(executeToolSpan('weather').attributes[ATTR_REDIRECTED]).toBe(true);
  });

  it('streamed (agent.stream): the same decisions take effect, the tool message is streamed, and the call is recorded once', async () => {
    const { tools, weatherFn } = makeTools();
    const hooks = runner([{ name: 'reroute', beforeTool: () => redirect({ newArgs: { city: 'Lyon' } }) }]);
    const { model, agent } = agentCalling({ name: 'weather', args: { city: 'Paris' }, id: 'c-stream' }, hooks, tools);
    const streamed: unknown[] = [];
    for await (const chunk of await agent.stream(ask, { streamMode: 'updates' })) {
      for (const update of Object.values(chunk as Record<string, { messages?: BaseMessage[] }>)) {
        for (const message of update?.messages ?? []) if (ToolMessage.isInstance(message)) streamed.push(message.content);
      }
    }
    expect(weatherFn.mock.calls.map((call) => call[0])).toEqual([{ city: 'Lyon' }]);
    expect(streamed).toEqual(['sunny in Lyon']);
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ 'c-stream': 'sunny in Lyon' });
    const span = executeToolSpan('weather');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_REDIRECTED]: true, [ATTR_GEN_AI_TOOL_CALL_ID]: 'c-stream' });
    expect(childrenOf(span)).toEqual([SPAN_BEFORE_TOOL, SPAN_EXECUTE]);
  });

  it('Redirect newTool: that tool of the agent runs (learned from the model call, or given as options.tools)', async () => {
    for (const given of [false, true]) {
      tracing.reset();
      const { tools, shellFn, sandboxFn } = makeTools();
      const hooks = runner([{ name: 'sandboxing', tools: ['shell'], beforeTool: () => redirect({ newTool: 'sandbox_shell' }) }]);
      const { model, agent } = agentCalling({ name: 'shell', args: { cmd: 'ls' }, id: 'c5' }, hooks, tools, given ? tools : undefined);
      await agent.invoke(ask);
      expect(shellFn).not.toHaveBeenCalled();
      expect(sandboxFn.mock.calls[0]![0]).toEqual({ cmd: 'ls' });
      expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ c5: 'sandbox ran ls' });
      const span = executeToolSpan('shell');
      expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_TOOL_EFFECTIVE_NAME]: 'sandbox_shell', [ATTR_REDIRECTED]: true });
    }
  });

  it("one middleware shared by two agents: a Redirect runs only the calling agent's tools, one after the other or at once", async () => {
    const deleteUserFn = vi.fn(async ({ id }: { id: string }) => `deleted ${id}`);
    const deleteUser = tool(deleteUserFn, { name: 'delete_user', description: 'Delete a user', schema: z.object({ id: z.string() }) });
    const lookupFn = vi.fn(async ({ id }: { id: string }) => `found ${id}`);
    const lookup = tool(lookupFn, { name: 'lookup_user', description: 'Find a user', schema: z.object({ id: z.string() }) });
    // A hook that (through a model's prompt injection, say) names the admin-only tool for every lookup.
    const hooks = runner([{ name: 'escalate', tools: ['lookup_user'], beforeTool: () => redirect({ newTool: 'delete_user' }) }]);
    const shared = toolhooksMiddleware(hooks);
    let calls = 0;
    const modelCalling = (name: string, id: string) => fakeModel().respondWithTools([{ name, args: { id }, id: `call-${(calls += 1)}` }]).respond(new AIMessage('done'));
    const admin = () => createAgent({ model: modelCalling('delete_user', 'u1'), tools: [deleteUser, lookup] as ClientTool[], middleware: [shared] });
    const visitor = () => createAgent({ model: modelCalling('lookup_user', 'u2'), tools: [lookup] as ClientTool[], middleware: [shared] });

    await admin().invoke(ask); // the admin agent's tools are now known to the shared middleware
    expect(deleteUserFn).toHaveBeenCalledTimes(1);
    await visitor().invoke(ask);
    await Promise.all([admin().invoke(ask), visitor().invoke(ask), visitor().invoke(ask)]);
    // Only the admin agent ever deleted: the public lookups ran as asked, their redirect refused.
    expect(deleteUserFn).toHaveBeenCalledTimes(2);
    expect(deleteUserFn.mock.calls.map((call) => call[0])).toEqual([{ id: 'u1' }, { id: 'u1' }]);
    expect(lookupFn).toHaveBeenCalledTimes(3);
    const refused = tracing.spansNamed(SPAN_BEFORE_TOOL).flatMap((span) => eventsOf(span, 'toolhooks.hook.error'));
    expect(refused.map((event) => event.attributes['toolhooks.hook.error.kind'])).toEqual(['invalid_redirect_target', 'invalid_redirect_target', 'invalid_redirect_target']);
  });

  it('Redirect to a tool the agent does not have is an invalid_redirect_target hook error; the call proceeds', async () => {
    const { tools, shellFn } = makeTools();
    const hooks = runner([{ name: 'lost', beforeTool: () => redirect({ newTool: 'nowhere' }) }]);
    const { model, agent } = agentCalling({ name: 'shell', args: { cmd: 'pwd' }, id: 'c6' }, hooks, tools);
    await agent.invoke(ask);
    expect(shellFn).toHaveBeenCalledTimes(1);
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ c6: 'host ran pwd' });
    const before = tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!;
    expect(eventsOf(before, 'toolhooks.hook.error')[0]?.attributes).toMatchObject({ 'toolhooks.hook.error.kind': 'invalid_redirect_target' });
  });

  it('Abort: agent.invoke() rejects with the HookAbortError itself; the tool never runs; the model is not asked again', async () => {
    const { tools, shellFn } = makeTools();
    const hooks = runner([{ name: 'policy', beforeTool: () => abort('no shell in production') }]);
    const { model, agent } = agentCalling({ name: 'shell', args: { cmd: 'rm -rf /' }, id: 'c7' }, hooks, tools);
    const error: unknown = await agent.invoke(ask).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(HookAbortError);
    expect(error).toMatchObject({ reason: 'no shell in production', sourceHook: 'policy' });
    expect(shellFn).not.toHaveBeenCalled();
    expect(model.callCount).toBe(1);
    const span = executeToolSpan('shell');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'aborted', [ATTR_ERROR_TYPE]: 'HookAbortError', [ATTR_GEN_AI_TOOL_CALL_ID]: 'c7' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('an after_tool Abort also stops the agent with the HookAbortError (cause kept)', async () => {
    const hooks = runner([{ name: 'audit', afterTool: (_tool, _args, result) => (String(result).includes('Paris') ? abort('leak') : undefined) }]);
    const { agent } = agentCalling({ name: 'weather', args: { city: 'Paris' }, id: 'c8' }, hooks);
    await expect(agent.invoke(ask)).rejects.toMatchObject({ name: 'HookAbortError', reason: 'leak', sourceHook: 'audit' });
    expect(executeToolSpan('weather').attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('onError Skip: the recovered result goes to the model', async () => {
    const { tools, flakyFn } = makeTools();
    const onError = vi.fn((..._call: unknown[]) => skip('fallback', 'n/a'));
    const { model, agent } = agentCalling({ name: 'flaky', args: { n: 3 }, id: 'c9' }, runner([{ name: 'fallback', onError }]), tools);
    await agent.invoke(ask);
    expect(flakyFn).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![2]).toBeInstanceOf(RangeError);
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ c9: 'n/a' });
    const span = executeToolSpan('flaky');
    expect(span.attributes[ATTR_OUTCOME]).toBe('recovered');
    expect(childrenOf(span)).toEqual([SPAN_EXECUTE, SPAN_ON_ERROR]);
  });

  it('onError Redirect retries with another tool of the agent', async () => {
    const { tools, weatherFn } = makeTools();
    const hooks = runner([{ onError: () => redirect({ newTool: 'weather', newArgs: { city: 'Nice' } }) }]);
    const { model, agent } = agentCalling({ name: 'flaky', args: { n: 1 }, id: 'c10' }, hooks, tools);
    await agent.invoke(ask);
    expect(weatherFn.mock.calls[0]![0]).toEqual({ city: 'Nice' }); // the schema drops the unknown `n`
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ c10: 'sunny in Nice' });
    expect(executeToolSpan('flaky').attributes).toMatchObject({ [ATTR_OUTCOME]: 'recovered', 'toolhooks.retries': 1 });
  });

  it('after_tool Redirect re-executes as in executeTool; afterTool sees the content the model would read', async () => {
    const { tools, weatherFn } = makeTools();
    const afterTool = vi.fn((_tool: string, args: Record<string, unknown>, _result: unknown) => (args.city === 'Paris' ? redirect({ newArgs: { city: 'Metz' } }) : undefined));
    const { model, agent } = agentCalling({ name: 'weather', args: { city: 'Paris' }, id: 'c11' }, runner([{ afterTool }]), tools);
    await agent.invoke(ask);
    expect(weatherFn).toHaveBeenCalledTimes(2);
    expect(afterTool.mock.calls[0]![2]).toBe('sunny in Paris');
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ c11: 'sunny in Metz' });
    const span = executeToolSpan('weather');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', 'toolhooks.reexecutions': 1 });
    expect(childrenOf(span)).toEqual([SPAN_EXECUTE, SPAN_AFTER_TOOL, SPAN_EXECUTE, SPAN_AFTER_TOOL]);
  });

  it('args failing the schema: recorded as a failed call; LangChain tells the model; the agent goes on', async () => {
    const { tools, weatherFn } = makeTools();
    const { model, agent } = agentCalling({ name: 'weather', args: { town: 7 }, id: 'c12' }, runner([{ beforeTool: () => undefined }]), tools);
    const out = await agent.invoke(ask);
    expect(out.messages.at(-1)?.content).toBe('done');
    expect(weatherFn).not.toHaveBeenCalled();
    expect(String(toolMessagesSeen(model.calls[1]?.messages).c12)).toMatch(/Error invoking tool 'weather'/);
    const span = executeToolSpan('weather');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'ToolInvocationError', [ATTR_GEN_AI_TOOL_CALL_ID]: 'c12' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("LangChain's ToolInvocationError quotes the kwargs: none reach a span with capture off, no redacted one with capture on", async () => {
    const args = { town: 7, password: 'hunter2-secret', note: 'meet at Blue Lagoon' };
    for (const capture of [{ args: false }, { args: true }]) {
      tracing.reset();
      const { tools } = makeTools();
      const hooks = new HookRunner({ hooks: [{ beforeTool: () => undefined }], tracer: tracing.tracer, capture });
      const { model, agent } = agentCalling({ name: 'weather', args, id: 'c14' }, hooks, tools);
      await agent.invoke(ask);
      expect(String(toolMessagesSeen(model.calls[1]?.messages).c14)).toContain('hunter2-secret'); // LangChain's own words to the model
      const recorded = tracing
        .spans()
        .flatMap((span) => [span.status.message ?? '', ...Object.values(span.attributes).map(String), ...span.events.flatMap((event) => Object.values(event.attributes ?? {}).map(String))])
        .join('\n');
      expect(executeToolSpan('weather').status.message).toMatch(/^Error invoking tool 'weather' with kwargs/);
      expect(recorded).not.toContain('hunter2-secret');
      if (capture.args) expect(recorded).toContain('Blue Lagoon');
      else expect(recorded).not.toContain('Blue Lagoon');
    }
  });

  it('a tool error that no hook recovers escapes as LangChain lets it escape any wrapToolCall middleware', async () => {
    const { tools } = makeTools();
    const { agent } = agentCalling({ name: 'flaky', args: { n: 2 }, id: 'c13' }, runner([{ onError: () => undefined }]), tools);
    await expect(agent.invoke(ask)).rejects.toThrow(RangeError);
    expect(executeToolSpan('flaky').attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'RangeError' });
  });

  it('the span carries gen_ai.tool.description from the tool (middleware and withHooks)', async () => {
    const { agent } = agentCalling({ name: 'weather', args: { city: 'Paris' }, id: 'c14' }, runner([]));
    await agent.invoke(ask);
    expect(executeToolSpan('weather').attributes[ATTR_GEN_AI_TOOL_DESCRIPTION]).toBe('Weather by city');
    tracing.reset();
    await withHooks(makeTools().tools, runner([]))[1].invoke({ cmd: 'ls' });
    expect(executeToolSpan('shell').attributes[ATTR_GEN_AI_TOOL_DESCRIPTION]).toBe('Run a command');
  });
});

describe('withHooks (tools used without createAgent)', () => {
  it('direct invoke with plain args: the stub itself for a Skip, the tool result otherwise', async () => {
    const { tools, weatherFn } = makeTools();
    const hooks = runner([{ beforeTool: (_tool, args) => (args.city === 'Atlantis' ? skip('unknown city', { error: 'no such city' }) : undefined) }]);
    const [weather] = withHooks(tools, hooks);
    await expect(weather.invoke({ city: 'Oslo' })).resolves.toBe('sunny in Oslo');
    await expect(weather.invoke({ city: 'Atlantis' })).resolves.toEqual({ error: 'no such city' });
    expect(weatherFn).toHaveBeenCalledTimes(1);
    expect(weather.name).toBe('weather');
    expect(weather.description).toBe('Weather by city');
  });

  it('a ToolCall input gives a ToolMessage with its id; Redirect newTool runs another wrapped tool; Abort rejects', async () => {
    const { tools, sandboxFn, shellFn } = makeTools();
    const hooks = runner([
      { name: 'policy', beforeTool: (_tool, args) => (args.cmd === 'reboot' ? abort('not allowed') : undefined) },
      { name: 'sandbox', tools: ['shell'], beforeTool: () => redirect({ newTool: 'sandbox_shell' }) },
    ]);
    const hooked = withHooks(tools, hooks);
    const shell = hooked[1];
    const message = await shell.invoke({ type: 'tool_call', id: 'tc-1', name: 'shell', args: { cmd: 'ls' } });
    expect(ToolMessage.isInstance(message)).toBe(true);
    expect(message).toMatchObject({ content: 'sandbox ran ls', tool_call_id: 'tc-1' });
    expect(sandboxFn).toHaveBeenCalledTimes(1);
    await expect(shell.invoke({ cmd: 'reboot' })).rejects.toBeInstanceOf(HookAbortError);
    expect(shellFn).not.toHaveBeenCalled();
    const spans = tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} shell`);
    expect(spans.map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME]])).toEqual([
      ['tc-1', 'completed'],
      [undefined, 'aborted'],
    ]);
  });

  it('hooked tools work inside createAgent without the middleware', async () => {
    const { tools } = makeTools();
    const model = fakeModel().respondWithTools([{ name: 'weather', args: { city: 'Bern' }, id: 'w1' }]).respond(new AIMessage('ok'));
    const agent = createAgent({ model, tools: [...withHooks(tools, runner([{ beforeTool: () => skip('cached', 'cold') }]))] });
    await agent.invoke(ask);
    expect(toolMessagesSeen(model.calls[1]?.messages)).toEqual({ w1: 'cold' });
    expect(executeToolSpan('weather').attributes).toMatchObject({ [ATTR_GEN_AI_TOOL_CALL_ID]: 'w1', [ATTR_OUTCOME]: 'skipped' });
  });
});

describe('bad input', () => {
  it('a runner that is not a HookRunner, a tool without a name: TypeError naming the parameter', () => {
    expect(() => toolhooksMiddleware({} as HookRunner)).toThrow(/toolhooksMiddleware: runner must be a HookRunner/);
    expect(() => withHooks(makeTools().tools, [] as unknown as HookRunner)).toThrow(/withHooks: runner must be a HookRunner/);
    expect(() => withHooks([{ invoke: () => 1 }], runner([]))).toThrow(/withHooks: tools\[0\]\.name must be a non-empty string/);
    expect(() => toolhooksMiddleware(runner([]), { tools: [{ name: '' }] })).toThrow(/options\.tools\[0\]\.name/);
    expect(() => withHooks({} as unknown as object[], runner([]))).toThrow(/withHooks: tools must be an array/);
  });
});

describe('withHooks: deeply nested arguments (issue 29)', () => {
  it(`input ${DEEP.toLocaleString('en')} levels deep reaches hooks as a read-only copy: a hook's edit never reaches the tool`, async () => {
    const executed: unknown[] = [];
    const walk = tool(async (input: Record<string, unknown>) => (executed.push(input), 'walked'), { name: 'walk', description: 'Walks a tree', schema: z.object({ next: z.any() }) });
    const { hook, seen } = deepEditor();
    const [hooked] = withHooks([walk], new HookRunner({ tracer: tracing.tracer, hooks: [hook] }));
    await expect(hooked.invoke(deeplyNested() as { next: unknown })).resolves.toBe('walked');
    expect(seen).toEqual({ calls: 1, frozen: true });
    expect(deepestOf(executed[0]).cmd).toBe('ls');
  });
});
