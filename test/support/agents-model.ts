/**
 * A scripted model for the OpenAI Agents SDK: an implementation of the SDK's own `Model` interface
 * that answers each `getResponse` with the next scripted turn (function calls or a message), and
 * keeps every request so a test can read what the SDK sent back to the model.
 */
import type { Model, ModelRequest, ModelResponse } from '@openai/agents';
import { Usage } from '@openai/agents';

/** One function call as the model emits it: arguments are JSON text (or raw text, to send malformed input). */
export interface AgentsCall {
  readonly id: string;
  readonly tool: string;
  readonly args: unknown;
}

export type AgentsTurn = { readonly calls: readonly AgentsCall[] } | { readonly text: string };

export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: AgentsTurn[];

  constructor(turns: AgentsTurn[]) {
    this.#turns = [...turns];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.#turns.shift() ?? { text: 'done' };
    const usage = new Usage({ requests: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 });
    if ('text' in turn) {
      return {
        usage,
        output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: turn.text }] }],
      };
    }
    return {
      usage,
      output: turn.calls.map((call) => ({
        type: 'function_call' as const,
        callId: call.id,
        name: call.tool,
        status: 'completed' as const,
        arguments: typeof call.args === 'string' && call.args.startsWith('RAW:') ? call.args.slice(4) : JSON.stringify(call.args),
      })),
    };
  }

  // eslint-disable-next-line require-yield -- the tests drive the non-streamed path only
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel answers getResponse only');
  }
}

/** The function call outputs the SDK sent to the model in the request at `index`, by call id. */
export function outputsSent(model: ScriptedModel, index: number): Record<string, unknown> {
  const outputs: Record<string, unknown> = {};
  const input = model.requests[index]?.input;
  if (!Array.isArray(input)) return outputs;
  for (const item of input) {
    if (item !== null && typeof item === 'object' && (item as { type?: unknown }).type === 'function_call_result') {
      const { callId, output } = item as { callId: string; output: unknown };
      outputs[callId] = output !== null && typeof output === 'object' && 'text' in output ? (output as { text: unknown }).text : output;
    }
  }
  return outputs;
}
