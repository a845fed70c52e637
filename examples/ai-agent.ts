/**
 * An AI SDK agent whose tools go through toolhooks: a cache hook skips a repeated lookup, a sandbox
 * hook redirects network commands to a sandboxed shell, and a policy hook aborts destructive ones.
 * The model is the AI SDK's own mock, scripted to call those tools, so this runs offline:
 *
 *   npx tsx examples/ai-agent.ts
 */
import { OpenTelemetry } from '@ai-sdk/otel';
import { generateText, stepCountIs, tool } from 'ai';
import { z } from 'zod';
import { HookRunner } from 'toolhooks';
import { recordInvalidToolCalls, withHooks } from 'toolhooks/ai';
import { startTelemetry } from 'toolhooks/node';
import { printToolResults, scriptedModel } from './support/ai-sdk-model.js';
import { OPS_CALLS, opsHooks } from './support/ops-agent.js';

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

// The ops agent's hooks (examples/support/ops-agent.ts): Paris comes from the cache, curl runs in the
// sandbox, rm -rf is refused. The model asks for one call of each, plus one whose input fails the schema.
const runner = new HookRunner(opsHooks({ city: 'Paris', forecast: 'cloudy', celsius: 17, cached: true }));
const model = scriptedModel(
  [...OPS_CALLS, { id: 'call_5', name: 'get_weather', args: { town: 'Oslo' } }],
  'Paris is cloudy, Lisbon sunny; I fetched the page in a sandbox and did not delete anything.',
);

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

printToolResults(model);
console.log(`\nFinal answer: ${result.text}\n`);
await telemetry.shutdown();
