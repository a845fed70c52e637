/** Every adapter names an option it does not know, as the runner and the flows do. */
import { describe, expect, it } from 'vitest';
import { HookRunner } from '../../../src/index.js';
import { withHooks as withAiHooks } from '../../../src/adapters/ai/index.js';
import { claudeAgentHooks } from '../../../src/adapters/claude/index.js';
import { toolhooksMiddleware, withHooks as withLangChainHooks } from '../../../src/adapters/langchain/index.js';
import { withMcpHooks } from '../../../src/adapters/mcp/index.js';

const runner = new HookRunner([{ name: 'noop', beforeTool: () => undefined }]);
const client = { callTool: () => Promise.resolve({ content: [] }) };

describe('adapter options', () => {
  it('an unknown option is a TypeError naming it and the option meant', () => {
    expect(() => withAiHooks({}, runner, { max_retries: 2 } as never)).toThrow(/withHooks: options: unknown option "max_retries"; did you mean "maxRetries"\?/);
    expect(() => withMcpHooks(client, runner, { server: 'fs', tool: ['a'] } as never)).toThrow(/withMcpHooks: options: unknown option "tool"; did you mean "tools"\?/);
    expect(() => claudeAgentHooks(runner, { maxToolDuration: 5 } as never)).toThrow(/claudeAgentHooks: options: unknown option "maxToolDuration"/);
    expect(() => toolhooksMiddleware(runner, { stat: {} } as never)).toThrow(/options: unknown option "stat"; did you mean "state"\?/);
    expect(() => withLangChainHooks([], runner, { abortRun: new AbortController() } as never)).toThrow(/options: unknown option "abortRun"/);
  });

  it('known options are accepted', () => {
    expect(() => withMcpHooks(client, runner, { server: 'fs', tools: ['read_file'], maxRetries: 2 })).not.toThrow();
    expect(() => claudeAgentHooks(runner, { tools: ['Read'], maxToolDurationMs: 1000 })).not.toThrow();
  });
});
