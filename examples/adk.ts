/**
 * A Google ADK agent whose tool calls go through toolhooks (toolhooksPlugin, a plugin of ADK's
 * Runner): a cache hook skips a repeated lookup, a sandbox hook redirects network commands to the
 * agent's sandboxed shell, and a policy hook aborts a destructive one — the model reads the reason as
 * the tool's error and the run goes on. The model is a scripted `BaseLlm` (canned function calls), so
 * this runs offline and prints each call's trace tree:
 *
 *   npx tsx examples/adk.ts
 */
import type { BaseLlmConnection, LlmRequest, LlmResponse } from '@google/adk';
import { BaseLlm, FunctionTool, InMemoryRunner, LlmAgent, LogLevel, setLogLevel } from '@google/adk';
import { z } from 'zod';
import { HookRunner } from 'toolhooks';
import { toolhooksPlugin } from 'toolhooks/adk';
import { startTelemetry } from 'toolhooks/node';
import { OPS_CALLS, opsHooks } from './support/ops-agent.js';

const telemetry = await startTelemetry({ console: 'tree' });
setLogLevel(LogLevel.ERROR);

const tools = [
  new FunctionTool({ name: 'get_weather', description: 'Current weather for a city', parameters: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, forecast: 'sunny', celsius: 24 }) }),
  new FunctionTool({ name: 'run_shell', description: 'Runs a shell command on the host', parameters: z.object({ cmd: z.string() }), execute: async ({ cmd }) => `host: ran "${cmd}"` }),
  new FunctionTool({ name: 'run_shell_sandboxed', description: 'Runs a shell command in a sandbox', parameters: z.object({ cmd: z.string() }), execute: async ({ cmd }) => `sandbox: ran "${cmd}"` }),
];

// The ops agent's hooks (examples/support/ops-agent.ts): Paris comes from the cache, curl runs in the
// sandbox, rm -rf is refused.
const hooks = new HookRunner(opsHooks({ city: 'Paris', forecast: 'cloudy', cached: true }));

/** A model that asks for the ops agent's four tool calls, then answers after printing what it was sent. */
class ScriptedModel extends BaseLlm {
  #turn = 0;

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.#turn += 1;
    if (this.#turn === 1) {
      yield { content: { role: 'model', parts: OPS_CALLS.map(({ id, name, args }) => ({ functionCall: { id, name, args } })) } };
      return;
    }
    for (const part of request.contents.flatMap((content) => content.parts ?? [])) {
      if (part.functionResponse !== undefined) console.log(`${part.functionResponse.id} ${part.functionResponse.name}: ${JSON.stringify(part.functionResponse.response)}`);
    }
    yield { content: { role: 'model', parts: [{ text: 'Paris is cloudy, Lisbon is sunny; I did not wipe the disk.' }] } };
  }

  connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('offline'));
  }
}

const agent = new LlmAgent({ name: 'ops', model: new ScriptedModel({ model: 'scripted' }), instruction: 'Help with the weather and the shell.', tools });
const runner = new InMemoryRunner({ agent, appName: 'example', plugins: [toolhooksPlugin(hooks)] });
const session = await runner.sessionService.createSession({ appName: 'example', userId: 'me' });
for await (const event of runner.runAsync({ userId: 'me', sessionId: session.id, newMessage: { role: 'user', parts: [{ text: 'Weather in Paris and Lisbon, fetch example.com, then clean up.' }] } })) {
  const text = event.content?.parts?.find((part) => part.text !== undefined)?.text;
  if (text !== undefined) console.log(`Final answer: ${text}`);
}
await telemetry.shutdown();
