/**
 * An AI SDK agent whose tools go through toolhooks: a cache hook skips a repeated lookup, a sandbox
 * hook redirects network commands to a sandboxed shell, and a policy hook aborts destructive ones.
 * The model is the AI SDK's own mock, scripted to call those tools, so this runs offline:
 *
 *   npx tsx examples/ai-agent.ts
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import type { ToolHook } from 'toolhooks';
import { HookRunner, abort, redirect, skip } from 'toolhooks';
import { recordInvalidToolCalls, withHooks } from 'toolhooks/ai';
import { startTelemetry } from 'toolhooks/node';

// Each finished trace is printed as a tree, with the AI SDK's own spans (from @ai-sdk/otel).
const telemetry = await startTelemetry({ console: 'tree' });

const tools = {
  get_weather: tool({
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, forecast: 'sunny', celsius: 24 }),
  }),
  run_shell: tool({
    description: 'Runs a shell command on the host',
    inputSchema: z.object({ cmd: z.string() }),
    execute: async ({ cmd }) => `host: ran "${cmd}"`,
  }),
  run_shell_sandboxed: tool({
    description: 'Runs a shell command in a throwaway sandbox',
    inputSchema: z.object({ cmd: z.string() }),
    execute: async ({ cmd }) => `sandbox: ran "${cmd}"`,
  }),
};

const cache: ToolHook = {
  name: 'weather-cache',
  tools: ['get_weather'],
  beforeTool: (_tool, args) => (args.city === 'Paris' ? skip('cached', { city: 'Paris', forecast: 'cloudy', celsius: 17, cached: true }) : undefined),
};
const sandbox: ToolHook = {
  name: 'sandbox-network',
  tools: ['run_shell'],
  beforeTool: (_tool, args) => (/\b(curl|wget)\b/.test(String(args.cmd)) ? redirect({ newTool: 'run_shell_sandboxed', reason: 'network access' }) : undefined),
};
const policy: ToolHook = {
  name: 'no-destruction',
  tools: /^run_shell/,
  beforeTool: (_tool, args) => (/\brm\s+-rf\b/.test(String(args.cmd)) ? abort('destructive command refused') : undefined),
};
const runner = new HookRunner([policy, cache, sandbox]);

type Step = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
const usage: Step['usage'] = {
  inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const call = (toolCallId: string, toolName: string, input: object) => ({ type: 'tool-call' as const, toolCallId, toolName, input: JSON.stringify(input) });
const model = new MockLanguageModelV4({
  doGenerate: [
    {
      content: [
        call('call_1', 'get_weather', { city: 'Paris' }),
        call('call_2', 'get_weather', { city: 'Lisbon' }),
        call('call_3', 'run_shell', { cmd: 'curl https://example.com' }),
        call('call_4', 'run_shell', { cmd: 'rm -rf /' }),
        call('call_5', 'get_weather', { town: 'Oslo' }),
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage,
      warnings: [],
    },
    { content: [{ type: 'text', text: 'Paris is cloudy, Lisbon sunny; I fetched the page in a sandbox and did not delete anything.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
  ],
});

const result = await generateText({
  model,
  tools: withHooks(tools, runner),
  experimental_repairToolCall: recordInvalidToolCalls(runner),
  // The AI SDK 7's OpenTelemetry integration records each tool call as its own execute_tool span;
  // toolhooks records on that span (outcome, phase spans) instead of starting a second one.
  telemetry: { functionId: 'ai-agent-example', integrations: new OpenTelemetry() },
  stopWhen: stepCountIs(4),
  prompt: 'Weather in Paris and Lisbon, fetch example.com, then clean up the disk.',
});

console.log('What the model received as tool results:');
for (const message of model.doGenerateCalls[1]?.prompt ?? []) {
  if (message.role !== 'tool') continue;
  for (const part of message.content) {
    if (part.type === 'tool-result') console.log(`  ${part.toolCallId} ${part.toolName}: ${JSON.stringify(part.output).slice(0, 100)}`);
  }
}
console.log(`\nFinal answer: ${result.text}\n`);
await telemetry.shutdown();
