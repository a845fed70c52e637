/**
 * A Strands Agents agent whose tool calls go through toolhooks (toolhooksHooks, an intervention handler
 * of the Agent): a cache hook skips a repeated lookup, a sandbox hook redirects network commands to the
 * agent's sandboxed shell, and a policy hook aborts a destructive one — the model reads the reason as
 * the tool's error and the run goes on. The model is a scripted Strands `Model` (canned tool calls), so
 * this runs offline and prints each call's trace tree (`@strands-agents/sdk` installed; in this
 * repository: `bash scripts/install-strands.sh`):
 *
 *   npx tsx examples/strands.ts
 */
import type { Message, ModelStreamEvent } from '@strands-agents/sdk';
import { Agent, FunctionTool, Model } from '@strands-agents/sdk';
import { HookRunner } from 'toolhooks';
import { toolhooksHooks } from 'toolhooks/strands';
import { startTelemetry } from 'toolhooks/node';
import { OPS_CALLS, opsHooks } from './support/ops-agent.js';

const telemetry = await startTelemetry({ console: 'tree' });

const object = (property: string) => ({ type: 'object' as const, properties: { [property]: { type: 'string' as const } }, required: [property] });
const tools = [
  new FunctionTool({ name: 'get_weather', description: 'Current weather for a city', inputSchema: object('city'), callback: (input) => ({ city: (input as { city: string }).city, forecast: 'sunny', celsius: 24 }) }),
  new FunctionTool({ name: 'run_shell', description: 'Runs a shell command on the host', inputSchema: object('cmd'), callback: (input) => `host: ran "${(input as { cmd: string }).cmd}"` }),
  new FunctionTool({ name: 'run_shell_sandboxed', description: 'Runs a shell command in a sandbox', inputSchema: object('cmd'), callback: (input) => `sandbox: ran "${(input as { cmd: string }).cmd}"` }),
];

// The ops agent's hooks (examples/support/ops-agent.ts): Paris comes from the cache, curl runs in the
// sandbox, rm -rf is refused.
const hooks = new HookRunner(opsHooks({ city: 'Paris', forecast: 'cloudy', cached: true }));

/** A model that asks for the ops agent's four tool calls, then answers after printing what it was sent. */
class ScriptedModel extends Model {
  #turn = 0;

  updateConfig(): void {}

  getConfig(): { modelId: string } {
    return { modelId: 'scripted' };
  }

  async *stream(messages: Message[]): AsyncIterable<ModelStreamEvent> {
    this.#turn += 1;
    yield { type: 'modelMessageStartEvent', role: 'assistant' } as ModelStreamEvent;
    if (this.#turn === 1) {
      for (const { id: toolUseId, name, args } of OPS_CALLS) {
        yield { type: 'modelContentBlockStartEvent', start: { type: 'toolUseStart', name, toolUseId } } as ModelStreamEvent;
        yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'toolUseInputDelta', input: JSON.stringify(args) } } as ModelStreamEvent;
        yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
      }
      yield { type: 'modelMessageStopEvent', stopReason: 'toolUse' } as ModelStreamEvent;
      return;
    }
    for (const block of messages.flatMap((message) => message.content)) {
      if (block.type === 'toolResultBlock') console.log(`${block.toolUseId} ${block.status}: ${JSON.stringify(block.content)}`);
    }
    yield { type: 'modelContentBlockStartEvent' } as ModelStreamEvent;
    yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'textDelta', text: 'Paris is cloudy, Lisbon is sunny; I did not wipe the disk.' } } as ModelStreamEvent;
    yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
    yield { type: 'modelMessageStopEvent', stopReason: 'endTurn' } as ModelStreamEvent;
  }
}

const agent = new Agent({ model: new ScriptedModel(), tools, printer: false, interventions: [toolhooksHooks(hooks)] });
const result = await agent.invoke('Weather in Paris and Lisbon, fetch example.com, then clean up.');
console.log(`Final answer: ${String(result)}`);
await telemetry.shutdown();
