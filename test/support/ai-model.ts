/**
 * Scripted responses for the AI SDK's own mock language model (`MockLanguageModelV3` from `ai/test`),
 * and a reader for what the SDK sent back to the model as tool results.
 */
import type { MockLanguageModelV3 } from 'ai-v6/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** One tool call as a model emits it: the input is JSON text (or raw text, to send malformed input). */
export interface ScriptedCall {
  readonly id: string;
  readonly tool: string;
  readonly input: unknown;
}

function inputText(input: unknown): string {
  return typeof input === 'string' && input.startsWith('RAW:') ? input.slice(4) : JSON.stringify(input);
}

/** A model step that calls tools. */
export function callsTools(...calls: ScriptedCall[]): GenerateResult {
  return {
    content: calls.map((call) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.tool, input: inputText(call.input) })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A model step that answers with text. */
export function answers(text: string): GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
}

/** The streaming form of {@link callsTools} / {@link answers}. */
export function streams(step: GenerateResult): StreamResult {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  for (const part of step.content) {
    if (part.type === 'tool-call') parts.push(part);
    if (part.type === 'text') {
      parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
    }
  }
  parts.push({ type: 'finish', finishReason: step.finishReason, usage: step.usage });
  return {
    stream: new ReadableStream<StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/** The tool results the SDK put in the prompt of the model's `index`-th call, by tool call id. */
export function toolResultsSent(
  prompt: MockLanguageModelV3['doGenerateCalls'][number]['prompt'] | undefined,
): Record<string, { type: string; value?: unknown }> {
  const results: Record<string, { type: string; value?: unknown }> = {};
  for (const message of prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') results[part.toolCallId] = part.output as { type: string; value?: unknown };
    }
  }
  return results;
}
