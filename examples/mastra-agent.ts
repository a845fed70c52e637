/**
 * A Mastra agent whose tools go through toolhooks: a cache hook skips a repeated lookup, a sandbox
 * hook redirects network commands to a sandboxed shell, and a policy hook aborts a destructive one —
 * the model reads the reason as the tool's error and the run goes on. Input that fails a tool's schema
 * is recorded as a failed call by recordInvalidToolCalls. The model is the AI SDK's own mock
 * (`ai/test`), so this runs offline:
 *
 *   npx tsx examples/mastra-agent.ts
 */
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import { HookRunner } from 'toolhooks';
import { recordInvalidToolCalls, withHooks } from 'toolhooks/mastra';
import { startTelemetry } from 'toolhooks/node';
import { printToolResults, scriptedModel } from './support/ai-sdk-model.js';
import { OPS_CALLS, opsHooks } from './support/ops-agent.js';

const telemetry = await startTelemetry({ console: 'tree' });

const tools = {
  get_weather: createTool({
    id: 'get_weather',
    description: 'Current weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, forecast: 'sunny', celsius: 24 }),
  }),
  run_shell: createTool({ id: 'run_shell', description: 'Runs a shell command on the host', inputSchema: z.object({ cmd: z.string() }), execute: async ({ cmd }) => `host: ran "${cmd}"` }),
  run_shell_sandboxed: createTool({
    id: 'run_shell_sandboxed',
    description: 'Runs a shell command in a throwaway sandbox',
    inputSchema: z.object({ cmd: z.string() }),
    execute: async ({ cmd }) => `sandbox: ran "${cmd}"`,
  }),
};

// The ops agent's hooks (examples/support/ops-agent.ts): Paris comes from the cache, curl runs in the
// sandbox, rm -rf is refused. The model asks for one call of each, plus one whose input fails the schema.
const runner = new HookRunner(opsHooks({ city: 'Paris', forecast: 'cloudy', cached: true }));
const model = scriptedModel(
  [...OPS_CALLS, { id: 'call_5', name: 'get_weather', args: { town: 'Oslo' } }],
  'Paris is cloudy, Lisbon sunny; I fetched the page in a sandbox and did not delete anything.',
);

const agent = new Agent({
  id: 'ops',
  name: 'ops',
  instructions: 'Help with weather and the shell.',
  // Mastra pins its own copy of the model spec types; the mock implements the same spec (v4).
  model: model as never,
  tools: withHooks(tools, runner),
  hooks: recordInvalidToolCalls(runner),
});
const result = await agent.generate('Weather in Paris and Lisbon, fetch example.com, then clean up the disk.', { maxSteps: 2 });


printToolResults(model);
console.log(`\nFinal answer: ${result.text}\n`);
await telemetry.shutdown();
