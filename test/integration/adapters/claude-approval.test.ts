/**
 * toolhooks/claude's Ask and Replace with the real Claude Agent SDK: `query()` runs the bundled CLI
 * offline against a scripted Messages API (test/support/claude-agent.ts). Ask goes to the SDK's own
 * permission flow (`approvals: 'ask'`: the app's `canUseTool`, or nobody) or stops the query for the app
 * (`defer`, resumed with `resume`); Replace is PostToolUse's `updatedToolOutput`. What the model read is
 * taken from the requests the CLI sends back. The replay of a resolved approval is driven through the
 * callbacks with the SDK's own hook input types (the CLI never sends PreToolUse for a call that ran).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CanUseTool, PostToolUseFailureHookInput, PostToolUseHookInput, PreToolUseHookInput } from '@anthropic-ai/claude-agent-sdk';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HookRunner, ToolHook } from '../../../src/index.js';
import { ask, redirect, replaceResult, skip } from '../../../src/index.js';
import { DeferredApprovals, claudeAgentHooks } from '../../../src/adapters/claude/index.js';
import type { ClaudeAgentHooks } from '../../../src/adapters/claude/index.js';
import { ATTR_APPROVAL_APPROVER, ATTR_APPROVAL_DENIAL_REASON, ATTR_APPROVAL_EDITED, ATTR_APPROVAL_ID, ATTR_APPROVAL_OUTCOME, ATTR_OUTCOME, ATTR_RESULT_REPLACED, SPAN_APPROVAL, SPAN_EXECUTE_TOOL_PREFIX } from '../../../src/telemetry/semconv.js';
import { toolResultsIn } from '../../../examples/support/fake-messages-api.js';
import type { ContentBlock } from '../../../examples/support/fake-messages-api.js';
import { ADD, callHook, resultOf, startClaudeAgent, useTool } from '../../support/claude-agent.js';
import { useTestTracing } from '../../support/tracing.js';
import { useTempDir } from '../../support/temp-dir.js';

const tracing = useTestTracing();
afterEach(() => vi.restoreAllMocks());
const home = useTempDir('claude-approval');

const runner = (hooks: ToolHook[], approver?: () => { approved: false; reason: string }): HookRunner =>
  approver === undefined ? tracing.runner(hooks) : tracing.runner(hooks, { approver });
const gate: ToolHook = { name: 'sum-gate', tools: [ADD], beforeTool: () => ask('adding needs a human') };

const calls = (toolName: string): ReadableSpan[] => tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} ${toolName}`);
const approvalUnder = (span: ReadableSpan): ReadableSpan | undefined =>
  tracing.spansNamed(SPAN_APPROVAL).find((approval) => approval.parentSpanContext?.spanId === span.spanContext().spanId);
/** [outcome, approval id, approval outcome] of each execute_tool span of `toolName` (the id and outcome of its approval span). */
const passes = (toolName: string) =>
  calls(toolName).map((span) => {
    const approval = approvalUnder(span);
    return [span.attributes[ATTR_OUTCOME], approval?.attributes[ATTR_APPROVAL_ID], approval?.attributes[ATTR_APPROVAL_OUTCOME]];
  });

async function withAgent<T>(turns: ContentBlock[][], body: (agent: Awaited<ReturnType<typeof startClaudeAgent>>) => Promise<T>): Promise<T> {
  const agent = await startClaudeAgent(turns, home);
  try {
    return await body(agent);
  } finally {
    await agent.close();
    expect(agent.api.unexpected).toEqual([]);
  }
}

describe("approvals: 'ask' — the SDK's own permission flow asks", () => {
  it('approved through canUseTool: the tool runs once; pass 1 pending, pass 2 approved and linked to it', async () => {
    const canUseTool = vi.fn<CanUseTool>(async (_tool, input) => ({ behavior: 'allow', updatedInput: input }));
    const after = vi.fn();
    const hooks = claudeAgentHooks(runner([gate, { name: 'audit', afterTool: after }]), { approvals: 'ask' });
    await withAgent([useTool('toolu_a1', ADD, { a: 1, b: 2 })], async (agent) => {
      await agent.run(hooks, { canUseTool });
      expect(agent.ran).toEqual([{ tool: 'add', args: { a: 1, b: 2 } }]);
      expect(toolResultsIn(agent.api.requests[1])).toEqual({ toolu_a1: { text: '3', isError: false } });
    });
    // The SDK asked with the Ask's reason, for this tool_use_id.
    expect(canUseTool).toHaveBeenCalledTimes(1);
    expect(canUseTool.mock.calls[0]![2]).toMatchObject({ decisionReason: 'adding needs a human', toolUseID: 'toolu_a1' });
    expect(passes(ADD)).toEqual([
      ['pending', 'toolu_a1', 'pending'],
      ['completed', 'toolu_a1', 'approved'],
    ]);
    const [asking, continuation] = calls(ADD);
    expect(continuation!.links.map((link) => link.context.spanId)).toEqual([asking!.spanContext().spanId]);
    expect(after).toHaveBeenCalledTimes(1); // after_tool runs in the continuation only
  });

  it('a Redirect before the Ask reaches the prompt as its input; the input the prompt approved is recorded as an edit', async () => {
    const prompted: Record<string, unknown>[] = [];
    const canUseTool: CanUseTool = async (_tool, input) => {
      prompted.push(input);
      return { behavior: 'allow', updatedInput: { ...input, b: 20 } };
    };
    const limit: ToolHook = { name: 'limit', tools: [ADD], beforeTool: (_tool, args) => (Number(args.b) > 10 ? redirect({ newArgs: { b: 10 } }) : undefined) };
    const hooks = claudeAgentHooks(runner([limit, gate]), { approvals: 'ask' });
    await withAgent([useTool('toolu_a6', ADD, { a: 1, b: 99 })], async (agent) => {
      await agent.run(hooks, { canUseTool });
      expect(agent.ran).toEqual([{ tool: 'add', args: { a: 1, b: 20 } }]);
    });
    expect(prompted).toEqual([{ a: 1, b: 10 }]);
    expect(passes(ADD)).toEqual([
      ['pending', 'toolu_a6', 'pending'],
      ['completed', 'toolu_a6', 'approved'],
    ]);
    expect(approvalUnder(calls(ADD)[1]!)?.attributes[ATTR_APPROVAL_EDITED]).toBe(true);
  });

  it('denied through canUseTool: the tool does not run, the model reads the SDK\'s denial, the call is denied', async () => {
    const canUseTool: CanUseTool = async () => ({ behavior: 'deny', message: 'the user said no' });
    const hooks = claudeAgentHooks(runner([gate]), { approvals: 'ask' });
    await withAgent([useTool('toolu_a2', ADD, { a: 1, b: 2 })], async (agent) => {
      await agent.run(hooks, { canUseTool });
      expect(agent.ran).toEqual([]);
      expect(toolResultsIn(agent.api.requests[1])).toEqual({ toolu_a2: { text: 'the user said no', isError: true } });
    });
    expect(passes(ADD)).toEqual([
      ['pending', 'toolu_a2', 'pending'],
      ['denied', 'toolu_a2', 'denied'],
    ]);
    expect(approvalUnder(calls(ADD)[1]!)?.attributes[ATTR_APPROVAL_DENIAL_REASON]).toBe('the user said no');
  });

  it('nobody to ask (no canUseTool): the SDK denies, the model reads the Ask\'s reason, the call is denied', async () => {
    const hooks = claudeAgentHooks(runner([gate]), { approvals: 'ask' });
    await withAgent([useTool('toolu_a3', ADD, { a: 1, b: 2 })], async (agent) => {
      await agent.run(hooks);
      expect(agent.ran).toEqual([]);
      expect(toolResultsIn(agent.api.requests[1]).toolu_a3).toEqual({ text: 'adding needs a human', isError: true });
    });
    expect(passes(ADD)).toEqual([
      ['pending', 'toolu_a3', 'pending'],
      ['denied', 'toolu_a3', 'denied'],
    ]);
  });

  it("the default ('runner'): the runner's approver decides inside PreToolUse, as before; the SDK is not asked", async () => {
    const canUseTool = vi.fn<CanUseTool>(async (_tool, input) => ({ behavior: 'allow', updatedInput: input }));
    const hooks = claudeAgentHooks(runner([gate], () => ({ approved: false, reason: 'on-call said no' })));
    await withAgent([useTool('toolu_a4', ADD, { a: 1, b: 2 })], async (agent) => {
      await agent.run(hooks, { canUseTool });
      expect(agent.ran).toEqual([]);
    });
    expect(canUseTool).not.toHaveBeenCalled();
    expect(passes(ADD)[0]!.slice(0, 1)).toEqual(['denied']);
    expect(calls(ADD)).toHaveLength(1);
  });

  it('a call the SDK denies after PreToolUse let it through ends at PostToolBatch as permission_denied, not at the timeout', async () => {
    const canUseTool: CanUseTool = async () => ({ behavior: 'deny', message: 'not this one' });
    const onError = vi.fn();
    const hooks = claudeAgentHooks(runner([{ name: 'watch', onError }]));
    await withAgent([useTool('toolu_a5', ADD, { a: 1, b: 2 })], async (agent) => {
      // No allow rule for the tool: the SDK asks canUseTool, which denies.
      await agent.run(hooks, { canUseTool, allowedTools: [] });
      expect(agent.ran).toEqual([]);
    });
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![2]).toMatchObject({ name: 'ClaudeToolError', failure: 'permission_denied', message: expect.stringContaining('not this one') });
    expect(calls(ADD).map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['failed']);
  });
});

describe('approvals: a DeferredApprovals — PreToolUse defers, the app answers, the resumed query runs the call', () => {
  const readGate: ToolHook = { name: 'read-gate', tools: ['Read'], beforeTool: () => ask('reading files needs a human') };
  const readCall = (id: string): ContentBlock[] => [{ type: 'tool_use', id, name: 'Read', input: { file_path: join(home, 'notes.txt') } }];

  it('approved: the query stops with deferred_tool_use; respond() and resume run the tool; both passes tied by the id and a link', async () => {
    writeFileSync(join(home, 'notes.txt'), 'buy milk\n');
    const approvals = new DeferredApprovals();
    const hooks = claudeAgentHooks(runner([readGate]), { approvals });
    await withAgent([readCall('toolu_d1')], async (agent) => {
      const first = resultOf(await agent.run(hooks, { builtinTools: ['Read'] }));
      expect(first?.deferred_tool_use).toMatchObject({ id: 'toolu_d1', name: 'Read' });
      expect(agent.api.requests).toHaveLength(1);
      expect(passes('Read')).toEqual([['pending', 'toolu_d1', 'pending']]);
      expect(approvals.request('toolu_d1')).toMatchObject({ toolName: 'Read', reason: 'reading files needs a human', hook: 'read-gate' });

      approvals.respond('toolu_d1', { approved: true, approver: 'alice' });
      await agent.run(hooks, { builtinTools: ['Read'], resume: first!.session_id, prompt: 'continue' });
      expect(toolResultsIn(agent.api.requests[1]).toolu_d1?.text).toContain('buy milk');
    });
    expect(passes('Read')).toEqual([
      ['pending', 'toolu_d1', 'pending'],
      ['completed', 'toolu_d1', 'approved'],
    ]);
    const [asking, continuation] = calls('Read');
    expect(continuation!.links.map((link) => link.context.spanId)).toEqual([asking!.spanContext().spanId]);
    expect(approvalUnder(continuation!)?.attributes[ATTR_APPROVAL_APPROVER]).toBe('alice');
    expect(approvals.request('toolu_d1')).toBeUndefined();
  });

  it('denied: the resumed call is denied with the answer\'s reason; the model reads the denial, the tool does not run', async () => {
    const approvals = new DeferredApprovals();
    const hooks = claudeAgentHooks(runner([readGate]), { approvals });
    await withAgent([readCall('toolu_d2')], async (agent) => {
      const first = resultOf(await agent.run(hooks, { builtinTools: ['Read'] }));
      approvals.respond('toolu_d2', { approved: false, reason: 'private notes' });
      await agent.run(hooks, { builtinTools: ['Read'], resume: first!.session_id, prompt: 'continue' });
      const read = toolResultsIn(agent.api.requests[1]).toolu_d2;
      expect(read?.isError).toBe(true);
      expect(read?.text).toContain('private notes');
      expect(read?.text).not.toContain('buy milk');
    });
    expect(passes('Read')).toEqual([
      ['pending', 'toolu_d2', 'pending'],
      ['denied', 'toolu_d2', 'denied'],
    ]);
  });
});

describe('Replace: PostToolUse updatedToolOutput', () => {
  it('an MCP tool: the model reads the replacement; the call is completed and marked replaced', async () => {
    const hooks = claudeAgentHooks(runner([{ name: 'redact', afterTool: () => replaceResult('[sum withheld]', 'policy') }]));
    await withAgent([useTool('toolu_p1', ADD, { a: 1, b: 2 })], async (agent) => {
      await agent.run(hooks);
      expect(agent.ran).toHaveLength(1);
      expect(toolResultsIn(agent.api.requests[1])).toEqual({ toolu_p1: { text: '[sum withheld]', isError: false } });
    });
    expect(calls(ADD)[0]!.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_RESULT_REPLACED]: true });
  });

  it("a built-in tool: a replacement shaped like its output is read; another shape is kept out by the SDK and warned once", async () => {
    writeFileSync(join(home, 'secret.txt'), 'password=hunter2\n');
    const warnings: string[] = [];
    vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => void warnings.push(String(warning)));
    const shaped: ToolHook = {
      name: 'redact-read',
      afterTool: (_tool, _args, result) => {
        const output = result as { file: Record<string, unknown> };
        return replaceResult({ ...output, file: { ...output.file, content: '[redacted]' } });
      },
    };
    await withAgent([[{ type: 'tool_use', id: 'toolu_p2', name: 'Read', input: { file_path: join(home, 'secret.txt') } }]], async (agent) => {
      await agent.run(claudeAgentHooks(runner([shaped])), { builtinTools: ['Read'] });
      expect(toolResultsIn(agent.api.requests[1]).toolu_p2?.text).toContain('[redacted]');
      expect(toolResultsIn(agent.api.requests[1]).toolu_p2?.text).not.toContain('hunter2');
    });
    expect(warnings).toEqual([]);
    const hooks = claudeAgentHooks(runner([{ name: 'redact-text', afterTool: () => replaceResult('[redacted]') }]));
    const pre: PreToolUseHookInput = { session_id: 's', transcript_path: '/dev/null', cwd: '/', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/x' }, tool_use_id: 'r-1' };
    const post: PostToolUseHookInput = { ...pre, hook_event_name: 'PostToolUse', tool_response: { type: 'text', file: { content: 'x' } } };
    for (const id of ['r-1', 'r-2']) {
      await callHook(hooks, 'PreToolUse', { ...pre, tool_use_id: id }, id);
      await expect(callHook(hooks, 'PostToolUse', { ...post, tool_use_id: id }, id)).resolves.toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', updatedToolOutput: '[redacted]' } });
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('not shaped like its output');
  });
});

describe('approvals driven with the SDK\'s hook input types', () => {
  const base = { session_id: 's-1', transcript_path: '/dev/null', cwd: '/' };
  const pre = (id: string): PreToolUseHookInput => ({ ...base, hook_event_name: 'PreToolUse', tool_name: ADD, tool_input: { a: 1, b: 2 }, tool_use_id: id });
  const post = (id: string): PostToolUseHookInput => ({ ...base, hook_event_name: 'PostToolUse', tool_name: ADD, tool_input: { a: 1, b: 2 }, tool_response: [{ type: 'text', text: '3' }], tool_use_id: id });

  it('a response replayed into a third call is ignored with one warning: denied, no second execution, nothing recorded', async () => {
    const warnings: string[] = [];
    vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => void warnings.push(String(warning)));
    const approvals = new DeferredApprovals();
    const hooks: ClaudeAgentHooks = claudeAgentHooks(runner([gate]), { approvals });
    await expect(callHook(hooks, 'PreToolUse', pre('t-1'), 't-1')).resolves.toMatchObject({ hookSpecificOutput: { permissionDecision: 'defer', permissionDecisionReason: 'adding needs a human' } });
    approvals.respond('t-1', { approved: true });
    await expect(callHook(hooks, 'PreToolUse', pre('t-1'), 't-1')).resolves.toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    await callHook(hooks, 'PostToolUse', post('t-1'), 't-1');
    approvals.respond('t-1', { approved: true });
    const third = await callHook(hooks, 'PreToolUse', pre('t-1'), 't-1');
    expect(third).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('approval t-1 was already resolved') } });
    expect(warnings).toHaveLength(1);
    expect(passes(ADD)).toEqual([
      ['pending', 't-1', 'pending'],
      ['completed', 't-1', 'approved'],
    ]);
  });

  it('a resumed call that is not the one deferred (other input, another tool) is refused and recorded as denied; the deferred call still runs', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const approvals = new DeferredApprovals();
    const hooks: ClaudeAgentHooks = claudeAgentHooks(runner([gate]), { approvals });
    await callHook(hooks, 'PreToolUse', pre('t-5'), 't-5');
    approvals.respond('t-5', { approved: true });
    const edited: PreToolUseHookInput = { ...pre('t-5'), tool_input: { a: 1, b: 2_000_000 } };
    const refused = await callHook(hooks, 'PreToolUse', edited, 't-5');
    expect(refused).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringContaining('approval t-5 was given for another call') } });
    approvals.respond('t-5', { approved: true });
    const otherTool: PreToolUseHookInput = { ...pre('t-5'), tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
    await expect(callHook(hooks, 'PreToolUse', otherTool, 't-5')).resolves.toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    approvals.respond('t-5', { approved: true });
    await expect(callHook(hooks, 'PreToolUse', pre('t-5'), 't-5')).resolves.toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow' } });
    await callHook(hooks, 'PostToolUse', post('t-5'), 't-5');
    // The refused ones carry the approval's id and outcome on their execute_tool span: no hook ran for them.
    const recorded = (toolName: string) => calls(toolName).map((span) => [span.attributes[ATTR_OUTCOME], span.attributes[ATTR_APPROVAL_ID], span.attributes[ATTR_APPROVAL_OUTCOME]]);
    expect(recorded(ADD)).toEqual([
      ['pending', 't-5', 'pending'],
      ['denied', 't-5', 'denied'],
      ['completed', 't-5', 'approved'],
    ]);
    expect(recorded('Bash')).toEqual([['denied', 't-5', 'denied']]);
  });

  it('an answer given in another process (a new DeferredApprovals) is used, without a link; its edits become updatedInput', async () => {
    const approvals = new DeferredApprovals();
    const hooks = claudeAgentHooks(runner([gate]), { approvals });
    approvals.respond('t-9', { approved: true, args: { b: 40 } });
    await expect(callHook(hooks, 'PreToolUse', pre('t-9'), 't-9')).resolves.toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { a: 1, b: 40 } },
    });
    await callHook(hooks, 'PostToolUse', post('t-9'), 't-9');
    expect(passes(ADD)).toEqual([['completed', 't-9', 'approved']]);
    expect(calls(ADD)[0]!.links).toEqual([]);
  });

  it("a DeferredApprovals answer's approver reference is recorded bounded: a 5 MB one is cut to maxLength (issue 29)", async () => {
    const approvals = new DeferredApprovals();
    const hooks = claudeAgentHooks(runner([gate]), { approvals });
    approvals.respond('t-big', { approved: true, approver: 'x'.repeat(5_000_000) });
    await expect(callHook(hooks, 'PreToolUse', pre('t-big'), 't-big')).resolves.toMatchObject({ hookSpecificOutput: { permissionDecision: 'allow' } });
    await callHook(hooks, 'PostToolUse', post('t-big'), 't-big');
    expect(approvalUnder(calls(ADD)[0]!)?.attributes[ATTR_APPROVAL_APPROVER]).toBe(`${'x'.repeat(4096)}…[truncated ${5_000_000 - 4096}]`);
  });

  it("'ask': a second PostToolUse for a resolved call is ignored; the session's end drops calls still asking", async () => {
    const hooks = claudeAgentHooks(runner([gate]), { approvals: 'ask' });
    await expect(callHook(hooks, 'PreToolUse', pre('k-1'), 'k-1')).resolves.toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'adding needs a human' },
    });
    await callHook(hooks, 'PostToolUse', post('k-1'), 'k-1');
    await expect(callHook(hooks, 'PostToolUse', post('k-1'), 'k-1')).resolves.toEqual({});
    await callHook(hooks, 'PreToolUse', pre('k-2'), 'k-2');
    await callHook(hooks, 'SessionEnd', { ...base, hook_event_name: 'SessionEnd', reason: 'other' });
    await expect(callHook(hooks, 'PostToolUse', post('k-2'), 'k-2')).resolves.toEqual({});
    expect(passes(ADD)).toEqual([
      ['pending', 'k-1', 'pending'],
      ['completed', 'k-1', 'approved'],
      ['pending', 'k-2', 'pending'],
    ]);
  });

  it("'ask': approved but the tool failed (PostToolUseFailure): on_error runs in the continuation, its Skip reaches the model as context", async () => {
    const onError = vi.fn((..._call: unknown[]) => skip('fallback', 'use 3'));
    const hooks = claudeAgentHooks(runner([gate, { name: 'fallback', onError }]), { approvals: 'ask' });
    await callHook(hooks, 'PreToolUse', pre('k-3'), 'k-3');
    const failure: PostToolUseFailureHookInput = { ...base, hook_event_name: 'PostToolUseFailure', tool_name: ADD, tool_input: { a: 1, b: 2 }, tool_use_id: 'k-3', error: 'overflow' };
    await expect(callHook(hooks, 'PostToolUseFailure', failure, 'k-3')).resolves.toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'use 3' } });
    expect(onError.mock.calls[0]![2]).toMatchObject({ name: 'ClaudeToolError', failure: 'failed', message: 'overflow' });
    expect(passes(ADD)).toEqual([
      ['pending', 'k-3', 'pending'],
      ['recovered', 'k-3', 'approved'],
    ]);
  });

  it('bad input: approvals that is not one of the three, a malformed respond()', () => {
    expect(() => claudeAgentHooks(runner([]), { approvals: 'framework' as 'ask' })).toThrow(/claudeAgentHooks: options.approvals must be 'runner', 'ask' or a DeferredApprovals, got "framework"/);
    const approvals = new DeferredApprovals();
    expect(() => approvals.respond('', { approved: true })).toThrow(/DeferredApprovals.respond\(id, response\): id must be/);
    expect(() => approvals.respond('x', { ok: true } as never)).toThrow(/response must be \{ approved: true/);
    expect(() => new DeferredApprovals({ capacity: 0 })).toThrow(RangeError);
  });
});
