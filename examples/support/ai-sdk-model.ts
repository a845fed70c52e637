/**
 * A scripted model for the examples that run on the AI SDK's model spec (ai-agent, mastra-agent): the
 * AI SDK's own offline mock (`ai/test`), told which tool calls to ask for and what to answer after.
 */
import { MockLanguageModelV4 } from 'ai/test';
import type { ScriptedCall } from './ops-agent.js';

type Step = Awaited<ReturnType<MockLanguageModelV4['doGenerate']>>;
const usage: Step['usage'] = {
  inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};

/**
 * A mock model whose first step asks for `calls` (all at once) and whose second step answers `answer`.
 *
 * @example
 * const model = scriptedModel(OPS_CALLS, 'Paris is cloudy.');
 * await generateText({ model, tools: withHooks(tools, runner), stopWhen: stepCountIs(4), prompt: '…' });
 */
export function scriptedModel(calls: readonly ScriptedCall[], answer: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: [
      {
        content: calls.map(({ id, name, args }) => ({ type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(args) })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: answer }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
    ],
  });
}

/**
 * Prints the tool results the model was sent with its second step: what each hook decision became for
 * the model (a cached value, a sandboxed run, an error it can read).
 *
 * @example
 * printToolResults(model); // What the model received as tool results:\n  call_1 get_weather: {…}
 */
export function printToolResults(model: MockLanguageModelV4): void {
  console.log('What the model received as tool results:');
  for (const message of model.doGenerateCalls[1]?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') console.log(`  ${part.toolCallId} ${part.toolName}: ${JSON.stringify(part.output).slice(0, 100)}`);
    }
  }
}
