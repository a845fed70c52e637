/**
 * A scripted ADK model for offline tests: a `BaseLlm` whose every turn is given in advance (function
 * calls, then a text answer), recording the function responses each request carried to it.
 */
import type { BaseLlmConnection, LlmRequest, LlmResponse , InMemoryRunner } from '@google/adk';
import { BaseLlm } from '@google/adk';

/** One function call the model makes. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** A model turn: calls to make, or the final text. */
export type Turn = { readonly calls: readonly ScriptedCall[] } | { readonly text: string };

export class ScriptedLlm extends BaseLlm {
  readonly #turns: Turn[];
  /** The function responses the model was sent, by call id, over all requests. */
  readonly responses = new Map<string, Record<string, unknown>>();
  requests = 0;

  constructor(turns: readonly Turn[]) {
    super({ model: 'scripted' });
    this.#turns = [...turns];
  }

  async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests += 1;
    for (const content of request.contents) {
      for (const part of content.parts ?? []) {
        const response = part.functionResponse;
        if (response?.id !== undefined) this.responses.set(response.id, response.response ?? {});
      }
    }
    const turn = this.#turns.shift() ?? { text: 'done' };
    if ('text' in turn) {
      yield { content: { role: 'model', parts: [{ text: turn.text }] } };
      return;
    }
    yield { content: { role: 'model', parts: turn.calls.map((call) => ({ functionCall: { id: call.id, name: call.name, args: call.args } })) } };
  }

  connect(): Promise<BaseLlmConnection> {
    return Promise.reject(new Error('ScriptedLlm: no live connection offline'));
  }
}

/** Runs one user message through `runner` in a session and returns every event it yielded. */
export async function runTurn(runner: InMemoryRunner, sessionId: string, message: Parameters<InMemoryRunner['runAsync']>[0]['newMessage']): Promise<unknown[]> {
  const events: unknown[] = [];
  for await (const event of runner.runAsync({ userId: 'u', sessionId, newMessage: message })) events.push(event);
  return events;
}
