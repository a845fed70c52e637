/**
 * toolhooks/claude with the real Claude Agent SDK: `query()` runs the SDK's bundled CLI offline
 * against a scripted Messages API on 127.0.0.1 (ANTHROPIC_BASE_URL), with in-process MCP tools.
 * The CLI's own behaviour decides what the model reads after each decision; these tests read it
 * from the requests the CLI sends back to the API. Cases the CLI cannot be made to produce (an input
 * without tool_use_id, a PostToolUse that never comes) drive the callbacks with the SDK's own
 * hook input types.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { Options, PostToolUseHookInput, PreToolUseHookInput, SDKMessage, SessionEndHookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it, vi } from 'vitest';
import type { HookDecision, HookRunner, ToolHook } from '../../../src/index.js';
import { abort, redirect, skip } from '../../../src/index.js';
import { ClaudeToolError, claudeAgentHooks } from '../../../src/adapters/claude/index.js';
import type { ClaudeAgentHooks } from '../../../src/adapters/claude/index.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_OUTCOME,
  SPAN_AFTER_TOOL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
  SPAN_EXECUTE_TOOL_PREFIX,
  SPAN_ON_ERROR,
} from '../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../support/tracing.js';
import type { ContentBlock } from '../../../examples/support/fake-messages-api.js';
import { textOf, toolResultsIn } from '../../../examples/support/fake-messages-api.js';
import { ADD, DIVIDE, SAFE_ADD, callHook as call, startClaudeAgent, useTool } from '../../support/claude-agent.js';
import { useTempDir } from '../../support/temp-dir.js';

const tracing = useTestTracing();
const home = useTempDir('claude');

const runner = (hooks: ToolHook[]): HookRunner => tracing.runner(hooks);

function executeToolSpans(toolName: string): ReadableSpan[] {
  return tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`);
}

function childrenOf(span: ReadableSpan): string[] {
  return tracing
    .spans()
    .filter((candidate) => candidate.parentSpanContext?.spanId === span.spanContext().spanId)
    .map((child) => child.name);
}

/** Runs one agent turn: the model asks for `call`, then answers "done". */
async function runAgent(call: ContentBlock[], hooks: ClaudeAgentHooks) {
  const agent = await startClaudeAgent([call], home);
  let messages: SDKMessage[];
  try {
    messages = await agent.run(hooks);
  } finally {
    await agent.close();
  }
  expect(agent.api.unexpected).toEqual([]);
  return { api: agent.api, ran: agent.ran, messages };
}

describe('claudeAgentHooks with the real query() (bundled CLI, offline)', () => {
  it('the hooks option type-checks as the SDK\'s Options["hooks"]', () => {
    const hooks: Options['hooks'] = claudeAgentHooks(runner([]));
    expect(Object.keys(hooks ?? {})).toEqual(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'PermissionDenied', 'SessionEnd']);
  });

  it('Continue: the tool runs; one execute_tool span from PreToolUse to PostToolUse, with the tool_use_id', async () => {
    const afterTool = vi.fn();
    const { api, ran } = await runAgent(useTool('toolu_1', ADD, { a: 1, b: 2 }), claudeAgentHooks(runner([{ name: 'watch', beforeTool: () => undefined, afterTool }])));
    expect(ran).toEqual([{ tool: 'add', args: { a: 1, b: 2 } }]);
    expect(toolResultsIn(api.requests[1])).toEqual({ toolu_1: { text: '3', isError: false } });
    expect(afterTool.mock.calls[0]![0]).toBe(ADD);
    expect(afterTool.mock.calls[0]![1]).toEqual({ a: 1, b: 2 });
    expect(JSON.stringify(afterTool.mock.calls[0]![2])).toContain('"3"'); // the SDK's tool_response
    const spans = executeToolSpans(ADD);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toMatchObject({ [ATTR_GEN_AI_TOOL_CALL_ID]: 'toolu_1', [ATTR_GEN_AI_TOOL_NAME]: ADD, [ATTR_OUTCOME]: 'completed' });
    expect(childrenOf(spans[0]!)).toEqual([SPAN_BEFORE_TOOL, SPAN_EXECUTE, SPAN_AFTER_TOOL]);
  });

  it('Skip: the call is denied and the model reads the stub', async () => {
    const hooks = claudeAgentHooks(runner([{ name: 'cache', beforeTool: () => skip('cached', { sum: 42 }) }]));
    const { api, ran } = await runAgent(useTool('toolu_2', ADD, { a: 40, b: 2 }), hooks);
    expect(ran).toEqual([]);
    expect(toolResultsIn(api.requests[1]).toolu_2?.text).toContain('{"sum":42}');
    const spans = executeToolSpans(ADD);
    expect(spans.map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['skipped']);
  });

  it('Redirect newArgs: the tool runs with the updated input', async () => {
    const hooks = claudeAgentHooks(runner([{ beforeTool: () => redirect({ newArgs: { b: 10 } }) }]));
    const { api, ran } = await runAgent(useTool('toolu_3', ADD, { a: 2, b: 2 }), hooks);
    expect(ran).toEqual([{ tool: 'add', args: { a: 2, b: 10 } }]);
    expect(toolResultsIn(api.requests[1])).toEqual({ toolu_3: { text: '12', isError: false } });
    expect(executeToolSpans(ADD)[0]!.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', 'toolhooks.redirected': true });
  });

  it('Redirect newTool: denied with a reason naming the tool to use (the SDK cannot switch tools)', async () => {
    const hooks = claudeAgentHooks(runner([{ tools: [ADD], beforeTool: () => redirect({ newTool: SAFE_ADD }) }]), { tools: [SAFE_ADD] });
    const { api, ran } = await runAgent(useTool('toolu_4', ADD, { a: 1, b: 1 }), hooks);
    expect(ran).toEqual([]);
    expect(toolResultsIn(api.requests[1]).toolu_4?.text).toContain(`use the tool ${SAFE_ADD} instead`);
    expect(executeToolSpans(ADD)[0]!.attributes).toMatchObject({ 'toolhooks.tool.effective_name': SAFE_ADD });
  });

  it('Abort: denied with the reason and the agent stops (the model is not asked again)', async () => {
    const hooks = claudeAgentHooks(runner([{ name: 'policy', beforeTool: () => abort('no arithmetic today') }]));
    const { api, ran, messages } = await runAgent(useTool('toolu_5', ADD, { a: 1, b: 2 }), hooks);
    expect(ran).toEqual([]);
    expect(api.requests).toHaveLength(1);
    expect(JSON.stringify(messages)).toContain('no arithmetic today');
    const span = executeToolSpans(ADD)[0]!;
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'aborted', [ATTR_ERROR_TYPE]: 'HookAbortError', [ATTR_GEN_AI_TOOL_CALL_ID]: 'toolu_5' });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('PostToolUseFailure runs on_error: a Skip recovers (the stub reaches the model as context)', async () => {
    const onError = vi.fn((..._call: unknown[]) => skip('fallback', 'FALLBACK: treat the quotient as undefined'));
    const { api, ran } = await runAgent(useTool('toolu_6', DIVIDE, { a: 1, b: 0 }), claudeAgentHooks(runner([{ onError }])));
    expect(ran).toEqual([{ tool: 'divide', args: { a: 1, b: 0 } }]);
    const error = onError.mock.calls[0]![2];
    expect(error).toBeInstanceOf(ClaudeToolError);
    expect(String((error as Error).message)).toContain('division by zero');
    expect(toolResultsIn(api.requests[1]).toolu_6?.isError).toBe(true);
    expect(textOf(api.requests[1])).toContain('FALLBACK: treat the quotient as undefined');
    const span = executeToolSpans(DIVIDE)[0]!;
    expect(span.attributes[ATTR_OUTCOME]).toBe('recovered');
    expect(childrenOf(span)).toEqual([SPAN_EXECUTE, SPAN_ON_ERROR]);
  });
});

describe('claudeAgentHooks driven with the SDK\'s hook input types', () => {
  const base = { session_id: 's-1', transcript_path: '/dev/null', cwd: '/' };

  it('an input without tool_use_id is recorded as a failed call; the agent gets no opinion', async () => {
    const hooks = claudeAgentHooks(runner([{ beforeTool: () => undefined }]));
    const input = { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } } as unknown as PreToolUseHookInput;
    await expect(call(hooks, 'PreToolUse', input)).resolves.toEqual({});
    await vi.waitFor(() => expect(executeToolSpans('Bash')).toHaveLength(1));
    const span = executeToolSpans('Bash')[0]!;
    expect(span.attributes).toMatchObject({ [ATTR_OUTCOME]: 'failed', [ATTR_ERROR_TYPE]: 'TypeError' });
    expect(span.status.message).toMatch(/no tool_use_id/);
  });

  it("a fail-closed gate whose decision's kind reads differently the second time still denies", async () => {
    let reads = 0;
    const flipping = {
      reason: 'no shell',
      get kind() {
        reads += 1;
        return reads === 1 ? 'abort' : 'bogus';
      },
    } as unknown as HookDecision;
    const hooks = claudeAgentHooks(runner([{ name: 'gate', failureMode: 'closed', beforeTool: () => flipping }]));
    const pre: PreToolUseHookInput = { ...base, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, tool_use_id: 'g-1' };
    const output = await call(hooks, 'PreToolUse', pre, 'g-1');
    expect(output).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
  });

  it('a call whose PostToolUse never comes ends as failed (timeout), and the session end fails the rest', async () => {
    vi.useFakeTimers();
    try {
      const hooks = claudeAgentHooks(runner([]), { maxToolDurationMs: 1_000 });
      const pre = (id: string): PreToolUseHookInput => ({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: id }, tool_use_id: id });
      await expect(call(hooks, 'PreToolUse', pre('t-1'), 't-1')).resolves.toEqual({});
      await vi.advanceTimersByTimeAsync(1_001);
      const hooks2 = claudeAgentHooks(runner([]), { maxToolDurationMs: 0 });
      await call(hooks2, 'PreToolUse', pre('t-2'), 't-2');
      const end: SessionEndHookInput = { ...base, hook_event_name: 'SessionEnd', reason: 'other' };
      await call(hooks2, 'SessionEnd', end);
      await vi.waitFor(() => expect(executeToolSpans('Read')).toHaveLength(2));
      expect(executeToolSpans('Read').map((span) => [span.attributes[ATTR_GEN_AI_TOOL_CALL_ID], span.attributes[ATTR_OUTCOME], span.attributes[ATTR_ERROR_TYPE]])).toEqual([
        ['t-1', 'failed', 'ClaudeToolError'],
        ['t-2', 'failed', 'ClaudeToolError'],
      ]);
      // a late PostToolUse for an ended call is ignored
      const late: PostToolUseHookInput = { ...base, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: {}, tool_response: 'x', tool_use_id: 't-1' };
      await expect(call(hooks, 'PostToolUse', late, 't-1')).resolves.toEqual({});
    } finally {
      vi.useRealTimers();
    }
  });

  it('an after_tool Abort stops the agent from PostToolUse', async () => {
    const hooks = claudeAgentHooks(runner([{ name: 'audit', afterTool: () => abort('secret in output') }]));
    const pre: PreToolUseHookInput = { ...base, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/x' }, tool_use_id: 'r-1' };
    await expect(call(hooks, 'PreToolUse', pre, 'r-1')).resolves.toEqual({});
    const post: PostToolUseHookInput = { ...base, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/x' }, tool_response: 'password=1', tool_use_id: 'r-1' };
    await expect(call(hooks, 'PostToolUse', post, 'r-1')).resolves.toEqual({ continue: false, stopReason: 'secret in output' });
    expect(executeToolSpans('Read')[0]!.attributes[ATTR_OUTCOME]).toBe('aborted');
  });

  it('bad input: a runner that is not a HookRunner, bad options', () => {
    expect(() => claudeAgentHooks({} as HookRunner)).toThrow(/claudeAgentHooks: runner must be a HookRunner/);
    expect(() => claudeAgentHooks(runner([]), { tools: [''] })).toThrow(/options\.tools must be an array of tool names/);
    expect(() => claudeAgentHooks(runner([]), { maxToolDurationMs: -1 })).toThrow(/maxToolDurationMs/);
  });
});
