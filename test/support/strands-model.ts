/**
 * A scripted Strands model (a `Model` subclass from `@strands-agents/sdk`, the Strands lane): each
 * `stream()` plays the next turn — tool calls or a text — and records the tool results the model was
 * given, by tool use id, so tests assert what the model reads. Never touches the network.
 */
import type { Message, ModelStreamEvent } from '@strands-agents/sdk';
import { Model } from '@strands-agents/sdk';

export interface StrandsCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export type StrandsTurn = { readonly calls: readonly StrandsCall[] } | { readonly text: string };

/** What the model read for one tool use: the result's status and its content as JSON. */
export interface ReadResult {
  readonly status: string;
  readonly content: unknown[];
}

export class ScriptedModel extends Model {
  readonly results = new Map<string, ReadResult>();
  readonly #turns: StrandsTurn[];

  constructor(turns: readonly StrandsTurn[]) {
    super();
    this.#turns = [...turns];
  }

  updateConfig(): void {}

  getConfig(): { modelId: string } {
    return { modelId: 'scripted' };
  }

  async *stream(messages: Message[]): AsyncIterable<ModelStreamEvent> {
    for (const message of messages) {
      for (const block of message.content) {
        if (block.type === 'toolResultBlock') this.results.set(block.toolUseId, { status: block.status, content: block.content.map((part: unknown) => (part as { toJSON(): unknown }).toJSON()) });
      }
    }
    const turn = this.#turns.shift() ?? { text: 'done' };
    yield { type: 'modelMessageStartEvent', role: 'assistant' } as ModelStreamEvent;
    if ('text' in turn) {
      yield { type: 'modelContentBlockStartEvent' } as ModelStreamEvent;
      yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'textDelta', text: turn.text } } as ModelStreamEvent;
      yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
      yield { type: 'modelMessageStopEvent', stopReason: 'endTurn' } as ModelStreamEvent;
      return;
    }
    for (const call of turn.calls) {
      yield { type: 'modelContentBlockStartEvent', start: { type: 'toolUseStart', name: call.name, toolUseId: call.id } } as ModelStreamEvent;
      yield { type: 'modelContentBlockDeltaEvent', delta: { type: 'toolUseInputDelta', input: JSON.stringify(call.input) } } as ModelStreamEvent;
      yield { type: 'modelContentBlockStopEvent' } as ModelStreamEvent;
    }
    yield { type: 'modelMessageStopEvent', stopReason: 'toolUse' } as ModelStreamEvent;
  }
}
