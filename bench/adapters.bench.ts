/**
 * Cost of each adapter per tool call, measured through the framework's own loop against the same
 * framework without toolhooks, in the same run. Run: `npm run bench:adapters` (Node ≥ 22; about a minute).
 *
 * Each framework run makes CALLS tool calls in one model step (the model is a scripted fake, the tools
 * return at once), so `(run with toolhooks − run without) / CALLS` is what toolhooks adds to one call:
 * its execute_tool span, its phase span for the one invoked hook, and the decision loop. A tracing SDK
 * (BatchSpanProcessor, discarding exporter) is registered for every scenario.
 *
 * For the AI SDK 7 the reference is `@ai-sdk/otel` alone — the telemetry an app would otherwise pick:
 * toolhooks on top of it must add at most its phase span per call (it records on the integration's
 * execute_tool span instead of starting a second one), and the two together must record exactly one
 * execute_tool span per call; the bench checks both and prints MISSED when either does not hold.
 */
import type { BaseLlmConnection, BasePlugin, InMemoryRunner, LlmRequest, LlmResponse } from '@google/adk';
import type { ModelStreamEvent } from '@strands-agents/sdk';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { OpenTelemetry } from '@ai-sdk/otel';
import { Agent as MastraAgent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import { Agent, Runner, Usage, tool as agentsTool } from '@openai/agents';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { HookRunner } from '../src/index.js';
import { withHooks as withAiHooks } from '../src/adapters/ai/index.js';
import { withMcpHooks } from '../src/adapters/mcp/index.js';
import { withHooks as withMastraHooks } from '../src/adapters/mastra/index.js';
import { withHooks as withAgentsHooks } from '../src/adapters/openai-agents/index.js';
import { toolhooksPlugin } from '../src/adapters/adk/index.js';
import { toolhooksHooks } from '../src/adapters/strands/index.js';
import { installTracingSdk } from './sdk.js';

const CALLS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RUNS_PER_ROUND = Number(process.env.BENCH_RUNS ?? 40);

const sdk = installTracingSdk();
/** One enforce hook that is invoked on every call and lets it run: the cheapest hook that records a phase. */
const runner = new HookRunner([{ name: 'policy', beforeTool: () => undefined }]);

// --- AI SDK 7 -------------------------------------------------------------------------------------
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const aiCalls = {
  content: Array.from({ length: CALLS }, (_, i) => ({ type: 'tool-call' as const, toolCallId: `c${i}`, toolName: 'echo', input: `{"n":${i}}` })),
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
};
const aiAnswer = { content: [{ type: 'text' as const, text: 'ok' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage, warnings: [] };
const aiModel = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) => (prompt.some((message) => message.role === 'tool') ? aiAnswer : aiCalls) as never,
});
const aiTools = { echo: tool({ description: 'echo', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => n }) };
const aiHooked = withAiHooks(aiTools, runner);
const aiOtel = new OpenTelemetry();
const runAi = (tools: typeof aiTools, otel: boolean) => () =>
  generateText({ model: aiModel, tools, stopWhen: stepCountIs(2), prompt: 'go', ...(otel ? { telemetry: { integrations: aiOtel } } : {}) });

// --- OpenAI Agents JS -----------------------------------------------------------------------------
class ScriptedModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const answered = Array.isArray(request.input) && request.input.some((item) => typeof item === 'object' && item.type === 'function_call_result');
    const output = answered
      ? [{ type: 'message' as const, role: 'assistant' as const, status: 'completed' as const, content: [{ type: 'output_text' as const, text: 'ok' }] }]
      : Array.from({ length: CALLS }, (_, i) => ({ type: 'function_call' as const, callId: `c${i}`, name: 'echo', status: 'completed' as const, arguments: `{"n":${i}}` }));
    return { usage: new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 }), output };
  }

  // eslint-disable-next-line require-yield -- the bench drives the non-streamed path only
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed');
  }
}
const agentsTools = [agentsTool({ name: 'echo', description: 'echo', parameters: z.object({ n: z.number() }), execute: async ({ n }) => String(n) })];
const agentsRunner = new Runner({ tracingDisabled: true });
const plainAgent = new Agent({ name: 'a', instructions: 'i', model: new ScriptedModel(), tools: agentsTools });
const hookedAgent = new Agent({ name: 'a', instructions: 'i', model: new ScriptedModel(), tools: withAgentsHooks(agentsTools, runner) });
// approvals: 'framework' without an Ask: the before_tool phase runs in needsApproval, held for invoke.
const frameworkAgent = new Agent({ name: 'a', instructions: 'i', model: new ScriptedModel(), tools: withAgentsHooks(agentsTools, runner, { approvals: 'framework' }) });

// --- Mastra ---------------------------------------------------------------------------------------
const mastraTools = { echo: createTool({ id: 'echo', description: 'echo', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => n }) };
const mastraAgent = (tools: Record<string, unknown>) =>
  new MastraAgent({ id: 'm', name: 'm', instructions: 'i', model: aiModel as never, tools: tools as never });
const plainMastra = mastraAgent(mastraTools);
const hookedMastra = mastraAgent(withMastraHooks(mastraTools, runner));
// approvals: 'framework' without an Ask: one request-context read per call, then the call as usual.
const frameworkMastra = mastraAgent(withMastraHooks(mastraTools, runner, { approvals: 'framework' }));

// --- MCP SDK v2 -----------------------------------------------------------------------------------
const server = new McpServer({ name: 'b', version: '1.0.0' });
server.registerTool('echo', { description: 'echo', inputSchema: z.object({ n: z.number() }) }, async ({ n }) => ({ content: [{ type: 'text', text: String(n) }] }));
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
await server.connect(serverSide);
const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(clientSide);
const hookedClient = withMcpHooks(client, runner, { server: 'b' });
const mcpCalls = (target: Pick<Client, 'callTool'>) => async () => {
  for (let i = 0; i < CALLS; i += 1) await target.callTool({ name: 'echo', arguments: { n: i } });
};

// --- Google ADK -----------------------------------------------------------------------------------
// Loaded after the tracing SDK is registered, so that ADK's own tracing (its API 1.9 copy) is on: ADK
// alone records an execute_tool span per call, toolhooks' plugin runs the call and records the only one.
const adk = await import('@google/adk');
adk.setLogLevel(adk.LogLevel.ERROR);
class AdkModel extends adk.BaseLlm {
  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const answered = request.contents.at(-1)?.parts?.some((part) => part.functionResponse !== undefined) === true;
    yield answered
      ? { content: { role: 'model', parts: [{ text: 'ok' }] } }
      : { content: { role: 'model', parts: Array.from({ length: CALLS }, (_, i) => ({ functionCall: { id: `c${i}`, name: 'echo', args: { n: i } } })) } };
  }
  connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('offline'));
  }
}
const adkEcho = new adk.FunctionTool({ name: 'echo', description: 'echo', parameters: z.object({ n: z.number() }), execute: async ({ n }) => n });
const adkRunner = (plugins: BasePlugin[]) =>
  new adk.InMemoryRunner({ agent: new adk.LlmAgent({ name: 'a', model: new AdkModel({ model: 'scripted' }), instruction: 'i', tools: [adkEcho] }), appName: 'b', plugins });
const runAdk = (target: InMemoryRunner) => async () => {
  const session = await target.sessionService.createSession({ appName: 'b', userId: 'u' });
  for await (const event of target.runAsync({ userId: 'u', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'go' }] } })) void event;
};
const plainAdk = adkRunner([]);
const hookedAdk = adkRunner([toolhooksPlugin(runner)]);

// --- Strands Agents -------------------------------------------------------------------------------
// From its install lane (test/strands/, `bash scripts/install-strands.sh`); its rows are left out without it.
// Strands traces through the global API (the SDK registered above): alone it records an execute_tool span
// per call, and toolhooks records on that span rather than starting a second one.
const strands = await import('@strands-agents/sdk').catch(() => undefined);
const strandsRun = (hooked: boolean) => {
  if (strands === undefined) return undefined;
  class StrandsModel extends strands.Model {
    updateConfig(): void {}
    getConfig(): { modelId: string } {
      return { modelId: 'scripted' };
    }
    async *stream(messages: { role: string }[]): AsyncIterable<ModelStreamEvent> {
      const answered = messages.at(-1)?.role === 'user' && messages.length > 1;
      yield { type: 'modelMessageStartEvent', role: 'assistant' } as ModelStreamEvent;
      if (answered) {
        yield { type: 'modelContentBlockStartEvent' } as ModelStreamEvent;
        yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'textDelta', text: 'ok' } } as ModelStreamEvent;
        yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
        yield { type: 'modelMessageStopEvent', stopReason: 'endTurn' } as ModelStreamEvent;
        return;
      }
      for (let i = 0; i < CALLS; i += 1) {
        yield { type: 'modelContentBlockStartEvent', start: { type: 'toolUseStart', name: 'echo', toolUseId: `c${i}` } } as ModelStreamEvent;
        yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'toolUseInputDelta', input: `{"n":${i}}` } } as ModelStreamEvent;
        yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
      }
      yield { type: 'modelMessageStopEvent', stopReason: 'toolUse' } as ModelStreamEvent;
    }
  }
  const echo = new strands.FunctionTool({ name: 'echo', description: 'echo', inputSchema: { type: 'object', properties: { n: { type: 'number' } } }, callback: (input) => (input as { n: number }).n });
  const handler = toolhooksHooks(runner);
  // A new Agent per run: an Agent keeps its conversation.
  return () => new strands.Agent({ model: new StrandsModel(), tools: [echo], printer: false, ...(hooked ? { interventions: [handler] } : {}) }).invoke('go');
};
const plainStrands = strandsRun(false);
const hookedStrands = strandsRun(true);
if (strands === undefined) process.stderr.write('  strands rows left out: @strands-agents/sdk is not installed (bash scripts/install-strands.sh)\n');

interface Scenario {
  readonly id: string;
  readonly run: () => Promise<unknown>;
  /** The scenario this one is compared with. */
  readonly baseline?: string;
}

const scenarios: Scenario[] = [
  { id: 'ai7.plain', run: runAi(aiTools, false) },
  { id: 'ai7.toolhooks', run: runAi(aiHooked, false), baseline: 'ai7.plain' },
  { id: 'ai7.otel', run: runAi(aiTools, true), baseline: 'ai7.plain' },
  { id: 'ai7.otel+toolhooks', run: runAi(aiHooked, true), baseline: 'ai7.otel' },
  { id: 'openai-agents.plain', run: () => agentsRunner.run(plainAgent, 'go') },
  { id: 'openai-agents.toolhooks', run: () => agentsRunner.run(hookedAgent, 'go'), baseline: 'openai-agents.plain' },
  { id: 'openai-agents.framework', run: () => agentsRunner.run(frameworkAgent, 'go'), baseline: 'openai-agents.toolhooks' },
  { id: 'mastra.plain', run: () => plainMastra.generate('go', { maxSteps: 2 }) },
  { id: 'mastra.toolhooks', run: () => hookedMastra.generate('go', { maxSteps: 2 }), baseline: 'mastra.plain' },
  { id: 'mastra.framework', run: () => frameworkMastra.generate('go', { maxSteps: 2 }), baseline: 'mastra.toolhooks' },
  { id: 'adk.plain', run: runAdk(plainAdk) },
  { id: 'adk.toolhooks', run: runAdk(hookedAdk), baseline: 'adk.plain' },
  ...(plainStrands === undefined || hookedStrands === undefined
    ? []
    : [
        { id: 'strands.plain', run: plainStrands },
        { id: 'strands.toolhooks', run: hookedStrands, baseline: 'strands.plain' },
      ]),
  { id: 'mcp2.plain', run: mcpCalls(client) },
  { id: 'mcp2.toolhooks', run: mcpCalls(hookedClient), baseline: 'mcp2.plain' },
];

/** The spans one run of a scenario records, by name (execute_tool spans and phase spans per call). */
async function spansOf(scenario: Scenario): Promise<ReadableSpan[]> {
  await sdk.flush();
  const spans: ReadableSpan[] = [];
  sdk.exporter.keep = (span) => spans.push(span);
  await scenario.run();
  await sdk.flush();
  sdk.exporter.keep = undefined;
  return spans;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const samples = new Map<string, number[]>(scenarios.map((s) => [s.id, []]));
for (const scenario of scenarios) for (let i = 0; i < 10; i += 1) await scenario.run(); // warm-up
for (let round = 0; round < ROUNDS; round += 1) {
  const ordered = round % 2 === 0 ? scenarios : [...scenarios].reverse();
  for (const scenario of ordered) {
    for (let i = 0; i < RUNS_PER_ROUND; i += 1) {
      const started = process.hrtime.bigint();
      await scenario.run();
      samples.get(scenario.id)?.push(Number(process.hrtime.bigint() - started) / CALLS);
    }
    await sdk.flush();
  }
  process.stderr.write(`  round ${round + 1}/${ROUNDS} done\n`);
}

const perCall = new Map([...samples].map(([id, values]) => [id, median(values)]));
const fmt = (ns: number): string => (Math.abs(ns) >= 1000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);
console.log(`toolhooks adapters — node ${process.version}; ${CALLS} tool calls per run, ${ROUNDS} rounds × ${RUNS_PER_ROUND} runs; per tool call:`);
console.log(`${'scenario'.padEnd(26)}${'per call'.padStart(10)}  ${'vs baseline'.padEnd(30)}spans per call`);
const phaseSpan = new Map<string, number>();
for (const scenario of scenarios) {
  const spans = await spansOf(scenario);
  // ADK's `execute_tool (merged)` span, one per batch of parallel calls, is not a call's.
  const executeTool = spans.filter((span) => span.name.startsWith('execute_tool ') && span.name !== 'execute_tool (merged)').length / CALLS;
  const phases = spans.filter((span) => span.name.startsWith('toolhooks.')).length / CALLS;
  const own = perCall.get(scenario.id) as number;
  const base = scenario.baseline === undefined ? undefined : (perCall.get(scenario.baseline) as number);
  const versus = base === undefined ? '' : `${scenario.baseline}: +${fmt(own - base)} (${(own / base).toFixed(2)}×)`;
  console.log(`${scenario.id.padEnd(26)}${fmt(own).padStart(10)}  ${versus.padEnd(30)}execute_tool ${executeTool}, toolhooks.* ${phases}`);
  if (scenario.id === 'ai7.toolhooks') phaseSpan.set('spans', executeTool + phases);
  if (scenario.id === 'ai7.otel+toolhooks') {
    const oneSpan = executeTool === 1;
    console.log(`  → one execute_tool span per call with @ai-sdk/otel: ${oneSpan ? 'met' : 'MISSED'}`);
    // toolhooks alone records execute_tool + phase + execute spans; on top of otel it adds only the phase and execute spans.
    const added = own - (perCall.get('ai7.otel') as number);
    const alone = (perCall.get('ai7.toolhooks') as number) - (perCall.get('ai7.plain') as number);
    console.log(`  → added on top of @ai-sdk/otel (${fmt(added)}) ≤ toolhooks alone (${fmt(alone)}): ${added <= alone * 1.1 ? 'met' : 'MISSED'}`);
  }
}
await client.close();
await server.close();
await sdk.shutdown();
