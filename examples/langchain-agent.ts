/**
 * A LangChain.js agent (`createAgent`) whose tool calls go through toolhooks: a cache hook skips a
 * repeated lookup, a sandbox hook redirects network commands to a sandboxed shell, a fallback hook
 * recovers a failing tool, and a policy hook aborts destructive commands, which stops the agent.
 * The model is LangChain's offline fake chat model, scripted to call those tools:
 *
 *   npx tsx examples/langchain-agent.ts
 */
import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import type { ToolHook } from 'toolhooks';
import { HookAbortError, HookRunner, abort, redirect, skip } from 'toolhooks';
import { toolhooksMiddleware } from 'toolhooks/langchain';
import { startTelemetry } from 'toolhooks/node';

const telemetry = await startTelemetry({ console: 'tree' });

const getWeather = tool(async ({ city }) => JSON.stringify({ city, forecast: 'sunny', celsius: 24 }), {
  name: 'get_weather',
  description: 'Current weather for a city',
  schema: z.object({ city: z.string() }),
});
const runShell = tool(async ({ cmd }) => `host: ran "${cmd}"`, { name: 'run_shell', description: 'Runs a shell command on the host', schema: z.object({ cmd: z.string() }) });
const runSandboxed = tool(async ({ cmd }) => `sandbox: ran "${cmd}"`, {
  name: 'run_shell_sandboxed',
  description: 'Runs a shell command in a throwaway sandbox',
  schema: z.object({ cmd: z.string() }),
});
const readStock = tool(
  async ({ sku }): Promise<string> => {
    throw new Error(`inventory service unreachable for ${sku}`);
  },
  { name: 'read_stock', description: 'Stock level of a product', schema: z.object({ sku: z.string() }) },
);

const hooks: ToolHook[] = [
  { name: 'no-destruction', tools: /^run_shell/, beforeTool: (_tool, args) => (/\brm\s+-rf\b/.test(String(args.cmd)) ? abort('destructive command refused') : undefined) },
  { name: 'weather-cache', tools: ['get_weather'], beforeTool: (_tool, args) => (args.city === 'Paris' ? skip('cached', { city: 'Paris', forecast: 'cloudy', cached: true }) : undefined) },
  { name: 'sandbox-network', tools: ['run_shell'], beforeTool: (_tool, args) => (/\b(curl|wget)\b/.test(String(args.cmd)) ? redirect({ newTool: 'run_shell_sandboxed' }) : undefined) },
  { name: 'stock-fallback', tools: ['read_stock'], onError: () => skip('service down', 'stock unknown: the inventory service is down') },
];
const runner = new HookRunner(hooks);
const tools = [getWeather, runShell, runSandboxed, readStock];

// First run: four tool calls in one step, then an answer.
const model = fakeModel()
  .respondWithTools([
    { name: 'get_weather', args: { city: 'Paris' }, id: 'call_1' },
    { name: 'get_weather', args: { city: 'Lisbon' }, id: 'call_2' },
    { name: 'run_shell', args: { cmd: 'curl https://example.com' }, id: 'call_3' },
    { name: 'read_stock', args: { sku: 'A-1' }, id: 'call_4' },
  ])
  .respond(new AIMessage('Paris is cloudy, Lisbon sunny; the page was fetched in a sandbox; stock is unknown.'));
const agent = createAgent({ model, tools, middleware: [toolhooksMiddleware(runner)] });
const result = await agent.invoke({ messages: [{ role: 'user', content: 'Weather, a page, and stock, please.' }] });

console.log('What the model read:');
for (const message of model.calls[1]?.messages ?? []) {
  if (ToolMessage.isInstance(message)) console.log(`  ${message.tool_call_id} ${message.name ?? ''}: ${String(message.content)}`);
}
console.log(`Answer: ${String(result.messages.at(-1)?.content)}`);

// Second run: a destructive command; the policy hook aborts and the agent stops.
const model2 = fakeModel().respondWithTools([{ name: 'run_shell', args: { cmd: 'rm -rf /' }, id: 'call_5' }]).respond(new AIMessage('never reached'));
const agent2 = createAgent({ model: model2, tools, middleware: [toolhooksMiddleware(runner)] });
try {
  await agent2.invoke({ messages: [{ role: 'user', content: 'Clean up the disk.' }] });
} catch (error) {
  if (!(error instanceof HookAbortError)) throw error;
  console.log(`Agent stopped: HookAbortError from ${error.sourceHook}: ${error.reason} (model calls: ${model2.callCount})`);
}

await telemetry.shutdown();
