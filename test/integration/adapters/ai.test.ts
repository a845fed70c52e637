import { SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { ToolExecutionOptions } from 'ai-v6';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolEvent, ToolHook } from '../../../src/index.js';
import { HookAbortError, HookRunner, abort, redirect, skip } from '../../../src/index.js';
import { recordInvalidToolCalls, withHooks } from '../../../src/adapters/ai/index.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_OUTCOME,
  ATTR_REDIRECTED,
  ATTR_TOOL_EFFECTIVE_NAME,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../../../src/telemetry/semconv.js';
import { answers, callsTools, streams, toolResultsSent } from '../../support/ai-model.js';
import { brokenIsRecording, useTestTracing } from '../../support/tracing.js';
import { telemetryFailuresDuring } from '../../support/diag.js';
import { DEEP, deepEditor, deepestOf, deeplyNested } from '../../support/deep-args.js';

const tracing = useTestTracing();

const runner = (hooks: ToolHook[]): HookRunner => tracing.runner(hooks);

function executeToolSpan(toolName: string, callId?: string): ReadableSpan {
  const spans = tracing
    .spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`)
    .filter((span) => callId === undefined || span.attributes[ATTR_GEN_AI_TOOL_CALL_ID] === callId);
  expect(spans).toHaveLength(1);
  return spans[0]!;
}

function parentOf(span: ReadableSpan): ReadableSpan | undefined {
  return tracing.spans().find((candidate) => candidate.spanContext().spanId === span.parentSpanContext?.spanId);
}

/** A small tool set: a weather tool, a shell with a sandboxed twin, a client-side tool without execute. */
function makeTools() {
  const weather = vi.fn(async ({ city }: { city: string }, _options: ToolExecutionOptions) => `sunny in ${city}`);
  const shell = vi.fn(async ({ cmd }: { cmd: string }, _options: ToolExecutionOptions) => `host ran ${cmd}`);
  const sandbox = vi.fn(async ({ cmd }: { cmd: string }, _options: ToolExecutionOptions) => `sandbox ran ${cmd}`);
  const toModelOutput = vi.fn(({ output }: { output: unknown }) => ({ type: 'text' as const, value: `weather: ${String(output)}` }));
  const tools = {
    weather: tool({ description: 'Weather by city', inputSchema: z.object({ city: z.string() }), execute: weather, toModelOutput }),
    shell: tool({ description: 'Run a command', inputSchema: z.object({ cmd: z.string() }), execute: shell }),
    sandbox_shell: tool({ description: 'Run a command in a sandbox', inputSchema: z.object({ cmd: z.string() }), execute: sandbox }),
    ask_user: tool({
      description: 'Asks the user (answered by the client)',
      inputSchema: z.object({ question: z.string() }),
      outputSchema: z.object({ answer: z.string() }),
    }),
  };
  return { tools, weather, shell, sandbox, toModelOutput };
}

describe('withHooks: decisions inside generateText', () => {
  it('runs the tool, records the call under its toolCallId, and the model receives the result', async () => {
    const { tools, weather } = makeTools();
    const model = new MockLanguageModelV3({
      doGenerate: [callsTools({ id: 'call-1', tool: 'weather', input: { city: 'Paris' } }), answers('It is sunny.')],
    });
    const result = await generateText({ model, tools: withHooks(tools, runner([])), prompt: 'Weather?', stopWhen: stepCountIs(3) });

    expect(result.text).toBe('It is sunny.');
    expect(weather).toHaveBeenCalledTimes(1);
    expect(weather.mock.calls[0]![0]).toEqual({ city: 'Paris' });
    expect(weather.mock.calls[0]![1]).toMatchObject({ toolCallId: 'call-1' });
    // the tool's own toModelOutput still shapes what the model sees
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ 'call-1': { type: 'text', value: 'weather: sunny in Paris' } });
    const span = executeToolSpan('weather');
    expect(span.attributes).toMatchObject({ [ATTR_GEN_AI_TOOL_CALL_ID]: 'call-1', [ATTR_GEN_AI_TOOL_NAME]: 'weather', [ATTR_OUTCOME]: 'completed' });
  });

  it('Skip: the tool never runs and its stub is the tool result the model receives', async () => {
    const { tools, shell } = makeTools();
    const hooks = runner([{ name: 'dry-run', tools: ['shell'], beforeTool: () => skip('dry run', { skipped: true, note: 'not executed' }) }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'c1', tool: 'shell', input: { cmd: 'rm -rf build' } }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, hooks), prompt: 'clean', stopWhen: stepCountIs(3) });

    expect(shell).not.toHaveBeenCalled();
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ c1: { type: 'json', value: { skipped: true, note: 'not executed' } } });
    expect(executeToolSpan('shell', 'c1').attributes[ATTR_OUTCOME]).toBe('skipped');
  });

  it('Redirect with newArgs changes the input the tool gets', async () => {
    const { tools, weather } = makeTools();
    const hooks = runner([{ name: 'geo', beforeTool: (_tool, args) => (args.city === 'Paris' ? redirect({ newArgs: { city: 'Lyon' }, reason: 'geo-fenced' }) : undefined) }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'c1', tool: 'weather', input: { city: 'Paris' } }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, hooks), prompt: 'Weather?', stopWhen: stepCountIs(3) });

    expect(weather.mock.calls[0]![0]).toEqual({ city: 'Lyon' });
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ c1: { type: 'text', value: 'weather: sunny in Lyon' } });
    expect(executeToolSpan('weather').attributes).toMatchObject({ [ATTR_REDIRECTED]: true, [ATTR_OUTCOME]: 'completed' });
  });

  it('Redirect with newTool runs another tool of the same set with the same SDK options', async () => {
    const { tools, shell, sandbox } = makeTools();
    const hooks = runner([{ name: 'sandboxer', tools: ['shell'], beforeTool: () => redirect({ newTool: 'sandbox_shell', reason: 'untrusted' }) }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'c9', tool: 'shell', input: { cmd: 'curl example.com' } }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, hooks), prompt: 'fetch', stopWhen: stepCountIs(3) });

    expect(shell).not.toHaveBeenCalled();
    expect(sandbox).toHaveBeenCalledTimes(1);
    expect(sandbox.mock.calls[0]![1]).toMatchObject({ toolCallId: 'c9' });
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ c9: { type: 'text', value: 'sandbox ran curl example.com' } });
    const span = executeToolSpan('shell');
    expect(span.attributes).toMatchObject({ [ATTR_TOOL_EFFECTIVE_NAME]: 'sandbox_shell', [ATTR_OUTCOME]: 'completed' });
    expect(tracing.spansNamed(SPAN_EXECUTE)[0]!.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('sandbox_shell');
  });

  it('Abort: the model receives the reason as the tool error, the call is aborted, and the run goes on', async () => {
    const { tools, shell, weather } = makeTools();
    const hooks = runner([{ name: 'policy', tools: ['shell'], beforeTool: (_tool, args) => (String(args.cmd).startsWith('rm') ? abort('destructive command') : undefined) }]);
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTools({ id: 'a', tool: 'shell', input: { cmd: 'rm -rf /' } }, { id: 'b', tool: 'weather', input: { city: 'Oslo' } }),
        answers('I may not do that.'),
      ],
    });
    const result = await generateText({ model, tools: withHooks(tools, hooks), prompt: 'go', stopWhen: stepCountIs(3) });

    expect(shell).not.toHaveBeenCalled();
    expect(weather).toHaveBeenCalledTimes(1);
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({
      a: { type: 'error-text', value: 'destructive command' },
      b: { type: 'text', value: 'weather: sunny in Oslo' },
    });
    const toolError = result.steps[0]!.content.find((part) => part.type === 'tool-error');
    expect(toolError?.type === 'tool-error' && toolError.error).toBeInstanceOf(HookAbortError);
    const span = executeToolSpan('shell', 'a');
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'aborted', [ATTR_ERROR_TYPE]: 'HookAbortError' });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'destructive command' });
    expect(executeToolSpan('weather', 'b').attributes[ATTR_OUTCOME]).toBe('completed');
  });

  it('a fail-closed abort: the model reads a short reason; the internal error text stays in telemetry', async () => {
    const { tools, shell } = makeTools();
    const hooks = runner([
      {
        name: 'policy',
        failureMode: 'closed',
        beforeTool: () => {
          throw new Error('connect ECONNREFUSED policy-svc.internal.corp:8443 (token expired for svc-account-7)');
        },
      },
    ]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'a', tool: 'shell', input: { cmd: 'ls' } }), answers('ok')] });
    const result = await generateText({ model, tools: withHooks(tools, hooks), prompt: 'go', stopWhen: stepCountIs(3) });

    expect(shell).not.toHaveBeenCalled();
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ a: { type: 'error-text', value: 'hook policy failed' } });
    const toolError = result.steps[0]!.content.find((part) => part.type === 'tool-error');
    const error = toolError?.type === 'tool-error' ? toolError.error : undefined;
    expect(error).toBeInstanceOf(HookAbortError);
    expect((error as HookAbortError).sourceHook).toBe('policy');
    expect(String(((error as HookAbortError).cause as Error).message)).toContain('policy-svc.internal.corp'); // the app keeps the details
    expect(executeToolSpan('shell', 'a').status.message).toContain('policy-svc.internal.corp'); // and so does the trace
  });

  it('Abort with abortRun: generateText rejects with the HookAbortError and asks the model nothing more', async () => {
    const { tools } = makeTools();
    const hooks = runner([{ name: 'policy', tools: ['shell'], beforeTool: () => abort('no shell today') }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'a', tool: 'shell', input: { cmd: 'ls' } }), answers('never reached')] });
    const abortRun = new AbortController();
    const run = generateText({
      model,
      tools: withHooks(tools, hooks, { abortRun }),
      abortSignal: abortRun.signal,
      prompt: 'go',
      stopWhen: stepCountIs(5),
    });

    const error: unknown = await run.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HookAbortError);
    expect(error).toMatchObject({ reason: 'no shell today', sourceHook: 'policy' });
    expect(model.doGenerateCalls).toHaveLength(1);
    expect(abortRun.signal.aborted).toBe(true);
    expect(executeToolSpan('shell').attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('Abort with abortRun in streamText: the stream ends with an abort part and its promises reject', async () => {
    const { tools } = makeTools();
    const hooks = runner([{ name: 'policy', tools: ['shell'], beforeTool: () => abort('no shell today') }]);
    const model = new MockLanguageModelV3({
      doStream: [streams(callsTools({ id: 'a', tool: 'shell', input: { cmd: 'ls' } })), streams(answers('never reached'))],
    });
    const abortRun = new AbortController();
    const result = streamText({ model, tools: withHooks(tools, hooks, { abortRun }), abortSignal: abortRun.signal, prompt: 'go', stopWhen: stepCountIs(5) });

    const partTypes: string[] = [];
    for await (const part of result.fullStream) partTypes.push(part.type);
    expect(partTypes).toContain('abort');
    await expect(result.text).rejects.toBeInstanceOf(HookAbortError);
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('onError Skip recovers a failing tool: the model receives the stub, the call is recovered', async () => {
    const tools = {
      flaky: tool({ inputSchema: z.object({}), execute: async (): Promise<string> => { throw new Error('upstream 503'); } }),
    };
    const hooks = runner([{ name: 'fallback', onError: () => skip('upstream down', 'service unavailable, try later') }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'f', tool: 'flaky', input: {} }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, hooks), prompt: 'go', stopWhen: stepCountIs(3) });

    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ f: { type: 'text', value: 'service unavailable, try later' } });
    expect(executeToolSpan('flaky').attributes[ATTR_OUTCOME]).toBe('recovered');
  });

  it('a failing tool without recovery reaches the model as the SDK reports it, and the call is failed', async () => {
    const tools = {
      flaky: tool({ inputSchema: z.object({}), execute: async (): Promise<string> => { throw new TypeError('bad gateway'); } }),
    };
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'f', tool: 'flaky', input: {} }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, runner([])), prompt: 'go', stopWhen: stepCountIs(3) });

    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ f: { type: 'error-text', value: 'bad gateway' } });
    expect(executeToolSpan('flaky').attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'TypeError' });
  });

  it('parallel calls of one step each get their own span and call id', async () => {
    const { tools } = makeTools();
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTools({ id: 'p1', tool: 'weather', input: { city: 'Rome' } }, { id: 'p2', tool: 'weather', input: { city: 'Kyiv' } }),
        answers('ok'),
      ],
    });
    await generateText({ model, tools: withHooks(tools, runner([])), prompt: 'go', stopWhen: stepCountIs(3) });
    const ids = tracing.spansNamed('execute_tool weather').map((span) => span.attributes[ATTR_GEN_AI_TOOL_CALL_ID]);
    expect(ids.sort()).toEqual(['p1', 'p2']);
  });
});

describe('withHooks: span nesting under the AI SDK telemetry', () => {
  it("puts execute_tool under the SDK's ai.toolCall span, with the phase spans below it", async () => {
    const { tools } = makeTools();
    const hooks = runner([{ name: 'audit', beforeTool: () => undefined }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'n1', tool: 'weather', input: { city: 'Riga' } }), answers('ok')] });
    await generateText({
      model,
      tools: withHooks(tools, hooks),
      prompt: 'go',
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: true, tracer: tracing.tracer },
    });

    const span = executeToolSpan('weather');
    const parent = parentOf(span);
    expect(parent?.name).toBe('ai.toolCall');
    expect(parent?.attributes['ai.toolCall.id']).toBe('n1');
    expect(parentOf(parent!)?.name).toBe('ai.generateText');
    expect(span.spanContext().traceId).toBe(parent!.spanContext().traceId);
    const children = tracing.spans().filter((s) => s.parentSpanContext?.spanId === span.spanContext().spanId).map((s) => s.name);
    expect(children.sort()).toEqual([SPAN_BEFORE_TOOL, SPAN_EXECUTE].sort());
  });
});

describe('withHooks: the returned tool set', () => {
  it('keeps keys and every other property; tools without execute are passed through untouched', () => {
    const { tools, toModelOutput } = makeTools();
    const hooked = withHooks(tools, runner([]));
    expect(Object.keys(hooked)).toEqual(Object.keys(tools));
    expect(hooked.ask_user).toBe(tools.ask_user);
    expect(hooked.weather).not.toBe(tools.weather);
    expect(hooked.weather.description).toBe('Weather by city');
    expect(hooked.weather.inputSchema).toBe(tools.weather.inputSchema);
    expect(hooked.weather.toModelOutput).toBe(toModelOutput);
    expect(hooked.weather.execute).not.toBe(tools.weather.execute);
    expect(tools.weather.execute).toBeTypeOf('function'); // the input set is not modified
  });

  it('a non-object input reaches hooks as { input } and a Redirect can replace it', async () => {
    const echo = vi.fn(async (text: string) => `echo: ${text}`);
    const tools = { echo: tool({ inputSchema: z.string(), execute: echo }) };
    const seen: unknown[] = [];
    const hooks = runner([{ name: 'polite', beforeTool: (_tool, args) => { seen.push(args); return redirect({ newArgs: { input: `${String(args.input)}, please` } }); } }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'e', tool: 'echo', input: 'hello' }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, hooks), prompt: 'go', stopWhen: stepCountIs(3) });

    expect(seen).toEqual([{ input: 'hello' }]);
    expect(echo.mock.calls[0]![0]).toBe('hello, please');
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ e: { type: 'text', value: 'echo: hello, please' } });
  });

  it('passes the state option to hooks and the SDK abortSignal to hook contexts', async () => {
    const { tools } = makeTools();
    const seen: { state: unknown; aborted: boolean; callId: string | undefined }[] = [];
    const hooks = new HookRunner<{ user: string }>({
      tracer: tracing.tracer,
      hooks: [{ beforeTool: (_tool, _args, state, ctx) => void seen.push({ state, aborted: ctx.signal.aborted, callId: ctx.callId }) }],
    });
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 's1', tool: 'weather', input: { city: 'Bern' } }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, hooks, { state: { user: 'ada' } }), prompt: 'go', stopWhen: stepCountIs(3), abortSignal: new AbortController().signal });
    expect(seen).toEqual([{ state: { user: 'ada' }, aborted: false, callId: 's1' }]);
  });

  it('a direct call without SDK options still works (as in unit tests of a tool)', async () => {
    const { tools } = makeTools();
    const hooked = withHooks(tools, runner([]));
    await expect(hooked.weather.execute!({ city: 'Nice' }, { toolCallId: 'manual', messages: [] })).resolves.toBe('sunny in Nice');
    expect(executeToolSpan('weather').attributes[ATTR_GEN_AI_TOOL_CALL_ID]).toBe('manual');
  });

  it("an active span whose isRecording throws: reported once as the framework execute_tool span's failure, the call goes on with its own span", async () => {
    const { tools } = makeTools();
    const hooked = withHooks(tools, runner([]));
    const broken = brokenIsRecording(tracing.tracer.startSpan('agent step'));
    const reported = await telemetryFailuresDuring(() => context.with(trace.setSpan(context.active(), broken), () => hooked.weather.execute!({ city: 'Nice' }, { toolCallId: 'c1', messages: [] })));
    expect(reported).toEqual({ value: 'sunny in Nice', failures: 1, messages: [expect.stringContaining('telemetry failed in framework execute_tool span (')] });
    expect(executeToolSpan('weather', 'c1').attributes[ATTR_OUTCOME]).toBe('completed');
  });
});

describe('withHooks: streaming tools (async generator execute)', () => {
  function streamingTools() {
    const progress = tool({
      inputSchema: z.object({ steps: z.number() }),
      async *execute({ steps }) {
        for (let i = 1; i <= steps; i += 1) yield { done: i, of: steps };
      },
    });
    return { progress };
  }

  it('streams preliminary results through; the model receives the last value', async () => {
    const seenAfter: unknown[] = [];
    const hooks = runner([{ name: 'audit', afterTool: (_tool, _args, result) => void seenAfter.push(result) }]);
    const model = new MockLanguageModelV3({
      doStream: [streams(callsTools({ id: 's', tool: 'progress', input: { steps: 3 } })), streams(answers('done'))],
    });
    const result = streamText({ model, tools: withHooks(streamingTools(), hooks), prompt: 'go', stopWhen: stepCountIs(3) });
    const outputs: { output: unknown; preliminary: boolean }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result') outputs.push({ output: part.output, preliminary: part.preliminary === true });
    }
    expect(outputs).toEqual([
      { output: { done: 1, of: 3 }, preliminary: true },
      { output: { done: 2, of: 3 }, preliminary: true },
      { output: { done: 3, of: 3 }, preliminary: true },
      { output: { done: 3, of: 3 }, preliminary: false },
    ]);
    expect(seenAfter).toEqual([{ done: 3, of: 3 }]);
    expect(toolResultsSent(model.doStreamCalls[1]?.prompt)).toEqual({ s: { type: 'json', value: { done: 3, of: 3 } } });
    expect(executeToolSpan('progress').attributes[ATTR_OUTCOME]).toBe('completed');
  });

  it('a stream that fails midway and is recovered by onError ends with the stub as the result', async () => {
    const tools = {
      flaky: tool({
        inputSchema: z.object({}),
        async *execute() {
          yield 'chunk 1';
          throw new Error('connection reset');
        },
      }),
    };
    const hooks = runner([{ name: 'fallback', onError: () => skip('stream broke', 'partial: chunk 1') }]);
    const model = new MockLanguageModelV3({ doStream: [streams(callsTools({ id: 'f', tool: 'flaky', input: {} })), streams(answers('ok'))] });
    const result = streamText({ model, tools: withHooks(tools, hooks), prompt: 'go', stopWhen: stepCountIs(3) });
    const outputs: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === 'tool-result') outputs.push([part.output, part.preliminary === true]);
    expect(outputs).toEqual([
      ['chunk 1', true],
      ['partial: chunk 1', true],
      ['partial: chunk 1', false],
    ]);
    expect(executeToolSpan('flaky').attributes[ATTR_OUTCOME]).toBe('recovered');
  });

  it('a plain function returning an async iterable is drained: the model receives its last value', async () => {
    async function* chunks(): AsyncGenerator<string> {
      yield 'a';
      yield 'ab';
    }
    const tools = { spell: tool({ inputSchema: z.object({}), execute: () => chunks() }) };
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'i', tool: 'spell', input: {} }), answers('ok')] });
    await generateText({ model, tools: withHooks(tools, runner([])), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ i: { type: 'text', value: 'ab' } });
  });

  it('a Skip of a streaming tool yields the stub alone', async () => {
    const hooks = runner([{ name: 'cache', beforeTool: () => skip('cached', { done: 9, of: 9 }) }]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 's', tool: 'progress', input: { steps: 3 } }), answers('done')] });
    await generateText({ model, tools: withHooks(streamingTools(), hooks), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ s: { type: 'json', value: { done: 9, of: 9 } } });
  });
});

describe('malformed tool input from the model', () => {
  it("the SDK's validation error still reaches the model; the hooked execute never runs", async () => {
    const { tools, weather } = makeTools();
    const beforeTool = vi.fn();
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'bad', tool: 'weather', input: { city: 42 } }), answers('sorry')] });
    await generateText({ model, tools: withHooks(tools, runner([{ beforeTool }])), prompt: 'go', stopWhen: stepCountIs(3) });

    expect(weather).not.toHaveBeenCalled();
    expect(beforeTool).not.toHaveBeenCalled();
    const sent = toolResultsSent(model.doGenerateCalls[1]?.prompt).bad;
    expect(sent?.type).toBe('error-text');
    expect(String(sent?.value)).toMatch(/^Invalid input for tool weather/);
    expect(tracing.spansNamed('execute_tool weather')).toHaveLength(0); // nothing to record it without recordInvalidToolCalls
  });

  it('recordInvalidToolCalls records invalid input and unknown tools as failed calls, without changing what the model sees', async () => {
    const { tools } = makeTools();
    const events: ToolEvent[] = [];
    const hooks = runner([{ name: 'observer', onEvent: (event) => void (event.type === 'tool' && events.push(event)) }]);
    const model = new MockLanguageModelV3({
      doGenerate: [
        callsTools({ id: 'bad', tool: 'weather', input: { city: 42 } }, { id: 'ghost', tool: 'teleport', input: {} }, { id: 'json', tool: 'weather', input: 'RAW:{"city":' }),
        answers('sorry'),
      ],
    });
    await generateText({
      model,
      tools: withHooks(tools, hooks),
      experimental_repairToolCall: recordInvalidToolCalls(hooks),
      prompt: 'go',
      stopWhen: stepCountIs(3),
      experimental_telemetry: { isEnabled: true, tracer: tracing.tracer },
    });

    const sent = toolResultsSent(model.doGenerateCalls[1]?.prompt);
    expect(String(sent.bad?.value)).toMatch(/^Invalid input for tool weather/);
    expect(String(sent.ghost?.value)).toMatch(/unavailable tool 'teleport'/);
    expect(sent.json?.type).toBe('error-text');
    const bad = executeToolSpan('weather', 'bad');
    expect(bad.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'InvalidToolInputError' });
    expect(bad.status.code).toBe(SpanStatusCode.ERROR);
    expect(parentOf(bad)?.name).toBe('ai.generateText');
    expect(executeToolSpan('teleport', 'ghost').attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'NoSuchToolError' });
    expect(executeToolSpan('weather', 'json').attributes[ATTR_OUTCOME]).toBe('failed');
    expect(events.map((event) => [event.toolName, event.outcome, event.errorType]).sort()).toEqual([
      ['teleport', 'failed', 'NoSuchToolError'],
      ['weather', 'failed', 'InvalidToolInputError'],
      ['weather', 'failed', 'InvalidToolInputError'],
    ]);
  });

  it('an invalid input quoted in the SDK error reaches no span: none of it with capture off, no redacted value with capture on', async () => {
    const { tools } = makeTools();
    const input = { city: 42, password: 'hunter2-secret', note: 'meet at Blue Lagoon' };
    for (const capture of [{ args: false }, { args: true }]) {
      tracing.reset();
      const hooks = new HookRunner({ hooks: [], tracer: tracing.tracer, capture });
      const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'bad', tool: 'weather', input }), answers('sorry')] });
      await generateText({ model, tools: withHooks(tools, hooks), experimental_repairToolCall: recordInvalidToolCalls(hooks), prompt: 'go', stopWhen: stepCountIs(3) });
      // The SDK's message quotes the whole value; the model still reads it as the SDK wrote it.
      expect(String(toolResultsSent(model.doGenerateCalls[1]?.prompt).bad?.value)).toContain('hunter2-secret');
      const span = executeToolSpan('weather', 'bad');
      const recorded = [span.status.message ?? '', ...Object.values(span.attributes).map(String)].join('\n');
      // With capture on, the SDK's message with the argument values scrubbed; off, none of the input at all.
      if (capture.args) expect(span.status.message).toMatch(/^Invalid input for tool weather/);
      else expect(span.status.message).toMatch(/^InvalidToolInputError: the model's call to "weather" was rejected before it ran/);
      expect(recorded).not.toContain('hunter2-secret');
      if (capture.args) expect(recorded).toContain('Blue Lagoon');
      else expect(recorded).not.toContain('Blue Lagoon');
    }
  });

  it('input that is not JSON at all: with capture on, the values of redacted keys are scrubbed from the quoted raw text (issue 29)', async () => {
    const { tools } = makeTools();
    const raw = '{"city":"Bern","password":"hunter2-secret","apiKey":"sk-live-77","note":"meet at Blue Lagoon"';
    tracing.reset();
    const hooks = new HookRunner({ hooks: [], tracer: tracing.tracer, capture: { args: true } });
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'raw', tool: 'weather', input: `RAW:${raw}` }), answers('sorry')] });
    await generateText({ model, tools: withHooks(tools, hooks), experimental_repairToolCall: recordInvalidToolCalls(hooks), prompt: 'go', stopWhen: stepCountIs(3) });
    const span = executeToolSpan('weather', 'raw');
    expect(span.status.message).toMatch(/^Invalid input for tool weather/);
    expect(span.status.message).toContain('"password":"[REDACTED]"');
    const recorded = [span.status.message ?? '', ...Object.values(span.attributes).map(String), ...span.events.map((event) => JSON.stringify(event.attributes))].join('\n');
    expect(recorded).not.toContain('hunter2-secret');
    expect(recorded).not.toContain('sk-live-77');
    expect(recorded).toContain('Blue Lagoon'); // capture on: what is not under a redacted key stays readable
  });

  it("defers to the caller's repair: a repaired call runs through the hooks and is not recorded as failed", async () => {
    const { tools, weather } = makeTools();
    const hooks = runner([]);
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'fix', tool: 'weather', input: { city: 42 } }), answers('ok')] });
    await generateText({
      model,
      tools: withHooks(tools, hooks),
      experimental_repairToolCall: recordInvalidToolCalls(hooks, {
        repair: async ({ toolCall }) => ({ ...toolCall, input: JSON.stringify({ city: 'Porto' }) }),
      }),
      prompt: 'go',
      stopWhen: stepCountIs(3),
    });
    expect(weather.mock.calls[0]![0]).toEqual({ city: 'Porto' });
    expect(executeToolSpan('weather', 'fix').attributes[ATTR_OUTCOME]).toBe('completed');
  });

  it('works with a JSON-schema tool too', async () => {
    const tools = {
      add: tool({
        inputSchema: jsonSchema<{ a: number; b: number }>({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }),
        execute: async ({ a, b }) => a + b,
      }),
    };
    const model = new MockLanguageModelV3({ doGenerate: [callsTools({ id: 'x', tool: 'add', input: { a: 1, b: 2 } }), answers('3')] });
    await generateText({ model, tools: withHooks(tools, runner([])), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(toolResultsSent(model.doGenerateCalls[1]?.prompt)).toEqual({ x: { type: 'json', value: 3 } });
  });
});

describe('bad input', () => {
  it('a tool set that is not an object is a TypeError naming tools', () => {
    const hooks = runner([]);
    for (const bad of [null, undefined, 'tools', 3, [tool({ inputSchema: z.object({}), execute: async () => 1 })]]) {
      expect(() => withHooks(bad as never, hooks)).toThrow(new RegExp('^withHooks: tools must be an AI SDK tool set'));
    }
    expect(() => withHooks({ broken: null } as never, hooks)).toThrow(/withHooks: tools\["broken"\] must be a tool object, got null/);
    expect(() => withHooks({ broken: { inputSchema: z.object({}), execute: 'run' } } as never, hooks)).toThrow(
      /withHooks: tools\["broken"\]\.execute must be a function, got string/,
    );
  });

  it('a runner that is not a HookRunner is a TypeError naming runner', () => {
    const { tools } = makeTools();
    for (const bad of [undefined, null, {}, { runBefore: () => undefined }, [{}]]) {
      expect(() => withHooks(tools, bad as never)).toThrow(/^withHooks: runner must be a HookRunner/);
      expect(() => recordInvalidToolCalls(bad as never)).toThrow(/^recordInvalidToolCalls: runner must be a HookRunner/);
    }
  });

  it('bad options are TypeErrors/RangeErrors naming the option', () => {
    const { tools } = makeTools();
    const hooks = runner([]);
    expect(() => withHooks(tools, hooks, 'fast' as never)).toThrow(/withHooks: options must be an object/);
    expect(() => withHooks(tools, hooks, { abortRun: new AbortController().signal as never })).toThrow(/options\.abortRun must be an AbortController/);
    expect(() => withHooks(tools, hooks, { maxRetries: -1 })).toThrow(RangeError);
    expect(() => recordInvalidToolCalls(hooks, { repair: 'yes' as never })).toThrow(/options\.repair must be a function/);
  });
});

describe('withHooks: deeply nested arguments (issue 29)', () => {
  it(`input ${DEEP.toLocaleString('en')} levels deep reaches hooks as a read-only copy: a hook's edit never reaches execute`, async () => {
    const executed: unknown[] = [];
    const tools = { walk: tool({ description: 'Walks a tree', inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object' }), execute: async (input) => (executed.push(input), 'walked') }) };
    const { hook, seen } = deepEditor();
    const input = deeplyNested();
    await expect(withHooks(tools, runner([hook])).walk.execute!(input, { toolCallId: 'deep', messages: [] })).resolves.toBe('walked');
    expect(seen).toEqual({ calls: 1, frozen: true });
    expect(deepestOf(executed[0]).cmd).toBe('ls');
  });
});
