/**
 * An OpenAI Agents SDK agent whose function tools go through toolhooks: a cache hook skips a repeated
 * lookup, a sandbox hook redirects network commands to a sandboxed shell, and a policy hook aborts a
 * destructive one — which ends the run with the SDK's ToolCallError. The model is a scripted
 * implementation of the SDK's own `Model` interface, so this runs offline:
 *
 *   npx tsx examples/openai-agents-agent.ts
 */
import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import { Agent, Runner, ToolCallError, Usage, tool } from '@openai/agents';
import { z } from 'zod';
import { HookRunner } from 'toolhooks';
import { withHooks } from 'toolhooks/openai-agents';
import { startTelemetry } from 'toolhooks/node';
import type { ScriptedCall } from './support/ops-agent.js';
import { OPS_CALLS, opsHooks } from './support/ops-agent.js';

const telemetry = await startTelemetry({ console: 'tree' });

const tools = [
  tool({
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => JSON.stringify({ city, forecast: 'sunny', celsius: 24 }),
  }),
  tool({ name: 'run_shell', description: 'Runs a shell command on the host', parameters: z.object({ cmd: z.string() }), execute: async ({ cmd }) => `host: ran "${cmd}"` }),
  tool({
    name: 'run_shell_sandboxed',
    description: 'Runs a shell command in a throwaway sandbox',
    parameters: z.object({ cmd: z.string() }),
    execute: async ({ cmd }) => `sandbox: ran "${cmd}"`,
  }),
];

// The ops agent's hooks (examples/support/ops-agent.ts): Paris comes from the cache, curl runs in the
// sandbox, rm -rf is refused. The Agents SDK's function tools return strings, so the cached value is one.
const runner = new HookRunner(opsHooks(JSON.stringify({ city: 'Paris', forecast: 'cloudy', cached: true })));

/** Answers each model request with the next scripted turn: the ops agent's first three calls, then the destructive one. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  #turn = 0;

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turns = [OPS_CALLS.slice(0, 3), OPS_CALLS.slice(3)];
    const output = (turns[this.#turn++] ?? []).map(call);
    return { usage: new Usage({ requests: 1, inputTokens: 50, outputTokens: 20, totalTokens: 70 }), output };
  }

  // eslint-disable-next-line require-yield -- this example drives the non-streamed path only
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in this example');
  }
}

function call({ id, name, args }: ScriptedCall) {
  return { type: 'function_call' as const, callId: id, name, status: 'completed' as const, arguments: JSON.stringify(args) };
}

const model = new ScriptedModel();
const agent = new Agent({ name: 'ops', instructions: 'Help with weather and the shell.', model, tools: withHooks(tools, runner) });
try {
  await new Runner({ tracingDisabled: true }).run(agent, 'Weather in Paris and Lisbon, fetch example.com, then clean up the disk.');
} catch (error) {
  if (!(error instanceof ToolCallError)) throw error;
  console.log(`Agent stopped: ${error.error instanceof Error ? `${error.error.name}: ${error.error.message}` : String(error.error)}`);
}

console.log('What the model received as tool results:');
for (const item of model.requests[1]?.input ?? []) {
  if (typeof item === 'object' && item.type === 'function_call_result') {
    const output = item.output as { text?: string } | string;
    console.log(`  ${item.callId} ${item.name}: ${typeof output === 'string' ? output : output.text}`);
  }
}
await telemetry.shutdown();
