/**
 * The Claude Agent SDK's real `query()` for the adapter's tests: its bundled CLI runs offline against
 * a scripted Messages API on 127.0.0.1 (ANTHROPIC_BASE_URL), with an in-process MCP server `calc`
 * (add, safe_add, divide) and, when asked, the built-in Read tool on files under `home`. One agent
 * keeps its API and tools across queries, so a resumed session (`resume`) continues the same script.
 */
import type { CanUseTool, HookInput, Options, SDKMessage, SDKResultSuccess } from '@anthropic-ai/claude-agent-sdk';
import { createSdkMcpServer, query, tool } from '@anthropic-ai/claude-agent-sdk';
import { z } from 'zod';
import type { ClaudeAgentHooks, ClaudeHookEvent } from '../../src/adapters/claude/index.js';
import type { ContentBlock, FakeMessagesApi } from '../../examples/support/fake-messages-api.js';
import { startFakeMessagesApi } from '../../examples/support/fake-messages-api.js';

export const ADD = 'mcp__calc__add';
export const DIVIDE = 'mcp__calc__divide';
export const SAFE_ADD = 'mcp__calc__safe_add';

export function useTool(id: string, name: string, input: Record<string, unknown>): ContentBlock[] {
  return [{ type: 'tool_use', id, name, input }];
}

export interface ClaudeAgent {
  readonly api: FakeMessagesApi;
  /** The calc tools that ran, in order. */
  readonly ran: { tool: string; args: Record<string, number> }[];
  /** One query with `hooks`; `resume` continues a session, `canUseTool` answers the SDK's prompts. */
  run(hooks: ClaudeAgentHooks, extra?: { prompt?: string; resume?: string; canUseTool?: CanUseTool; builtinTools?: string[]; allowedTools?: string[] }): Promise<SDKMessage[]>;
  close(): Promise<void>;
}

/** Starts the scripted API for `turns` (the model asks for them in order, then answers "done"). */
export async function startClaudeAgent(turns: ContentBlock[][], home: string): Promise<ClaudeAgent> {
  const api = await startFakeMessagesApi(turns);
  const ran: ClaudeAgent['ran'] = [];
  const calc = createSdkMcpServer({
    name: 'calc',
    tools: [
      tool('add', 'Adds two numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
        ran.push({ tool: 'add', args: { a, b } });
        return { content: [{ type: 'text', text: String(a + b) }] };
      }),
      tool('safe_add', 'Adds two small numbers', { a: z.number(), b: z.number() }, async ({ a, b }) => {
        ran.push({ tool: 'safe_add', args: { a, b } });
        return { content: [{ type: 'text', text: String(a + b) }] };
      }),
      tool('divide', 'Divides', { a: z.number(), b: z.number() }, async ({ a, b }) => {
        ran.push({ tool: 'divide', args: { a, b } });
        if (b === 0) throw new RangeError('division by zero');
        return { content: [{ type: 'text', text: String(a / b) }] };
      }),
    ],
  });
  const run: ClaudeAgent['run'] = async (hooks, extra = {}) => {
    const builtin = extra.builtinTools ?? [];
    const options: Options = {
      mcpServers: { calc },
      tools: builtin,
      allowedTools: extra.allowedTools ?? [ADD, SAFE_ADD, DIVIDE, ...builtin],
      cwd: home,
      settingSources: [],
      hooks,
      ...(extra.resume === undefined ? {} : { resume: extra.resume }),
      ...(extra.canUseTool === undefined ? {} : { canUseTool: extra.canUseTool }),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        ANTHROPIC_BASE_URL: api.url,
        ANTHROPIC_API_KEY: 'sk-test-offline',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    };
    const messages: SDKMessage[] = [];
    for await (const message of query({ prompt: extra.prompt ?? 'compute', options })) messages.push(message);
    return messages;
  };
  return { api, ran, run, close: () => api.close() };
}

/** The last `result` message of a query, when it succeeded (a deferred call's `deferred_tool_use` is on it). */
export function resultOf(messages: SDKMessage[]): SDKResultSuccess | undefined {
  return messages.filter((message): message is SDKResultSuccess => message.type === 'result' && message.subtype === 'success').at(-1);
}

/** Calls the adapter's callback for `event` the way the SDK does: (input, toolUseID, { signal }). */
export function callHook(hooks: ClaudeAgentHooks, event: ClaudeHookEvent, input: HookInput, id?: string) {
  return hooks[event][0]!.hooks[0]!(input, id, { signal: new AbortController().signal });
}
