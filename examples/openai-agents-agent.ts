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
import type { ToolHook } from 'toolhooks';
import { HookRunner, abort, redirect, skip } from 'toolhooks';
import { withHooks } from 'toolhooks/openai-agents';
import { startTelemetry } from 'toolhooks/node';

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

const cache: ToolHook = {
  name: 'weather-cache',
  tools: ['get_weather'],
  beforeTool: (_tool, args) => (args.city === 'Paris' ? skip('cached', JSON.stringify({ city: 'Paris', forecast: 'cloudy', cached: true })) : undefined),
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

/** Answers each model request with the next scripted turn: function calls, then the destructive one. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  #turn = 0;

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turns = [
      [call('call_1', 'get_weather', { city: 'Paris' }), call('call_2', 'get_weather', { city: 'Lisbon' }), call('call_3', 'run_shell', { cmd: 'curl https://example.com' })],
      [call('call_4', 'run_shell', { cmd: 'rm -rf /' })],
    ];
    const output = turns[this.#turn++] ?? [];
    return { usage: new Usage({ requests: 1, inputTokens: 50, outputTokens: 20, totalTokens: 70 }), output };
  }

  // eslint-disable-next-line require-yield -- this example drives the non-streamed path only
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not streamed in this example');
  }
}

function call(callId: string, name: string, args: object) {
  return { type: 'function_call' as const, callId, name, status: 'completed' as const, arguments: JSON.stringify(args) };
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
