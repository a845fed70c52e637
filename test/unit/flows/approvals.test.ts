/**
 * Ask and Replace through the flows: the aggregation with Ask, every approval outcome (fail closed),
 * the denial result, the approval span and event, and Replace in after_tool.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalEvent, ApprovalRequest, Approver, HookRunnerOptions, ToolEvent, ToolHook, ToolHookEvent, PhaseEvent } from '../../../src/index.js';
import {
  CompoundTool,
  HookAbortError,
  HookRunner,
  abort,
  ask,
  executeTool,
  redirect,
  replaceResult,
  runPlan,
  runWithRetry,
  skip,
} from '../../../src/index.js';
import {
  ATTR_APPROVAL_APPROVER,
  ATTR_APPROVAL_EDITED,
  ATTR_APPROVAL_HOOK,
  ATTR_APPROVAL_ID,
  ATTR_APPROVAL_OUTCOME,
  ATTR_DECISION,
  ATTR_DECISION_HOOK,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_ERROR_KIND,
  ATTR_OUTCOME,
  ATTR_REDIRECTED,
  ATTR_RESULT_REPLACED,
  EVENT_HOOK_DECISION_SHADOWED,
  EVENT_HOOK_ERROR,
  SPAN_AFTER_TOOL,
  SPAN_APPROVAL,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE,
} from '../../../src/telemetry/semconv.js';
import type { CallPlan } from '../../../src/flows/execute-tool.js';
import { runToolCall } from '../../../src/flows/execute-tool.js';
import { runnerCore } from '../../../src/runner/registry.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();
afterEach(() => vi.useRealTimers());

interface Recorder extends ToolHook {
  readonly events: ToolHookEvent[];
  approvals(): ApprovalEvent[];
  toolEvents(): ToolEvent[];
  phases(): PhaseEvent[];
}

function recorder(): Recorder {
  const events: ToolHookEvent[] = [];
  return {
    name: 'recorder',
    events,
    onEvent: (event) => void events.push(event),
    approvals: () => events.filter((e): e is ApprovalEvent => e.type === 'approval'),
    toolEvents: () => events.filter((e): e is ToolEvent => e.type === 'tool'),
    phases: () => events.filter((e): e is PhaseEvent => e.type === 'phase'),
  };
}

function runner(hooks: ToolHook[], options: Omit<HookRunnerOptions, 'hooks'> = {}): HookRunner {
  return new HookRunner({ hooks, tracer: tracing.tracer, ...options });
}

const gate = (reason = 'outgoing mail', deniedResult?: unknown): ToolHook => ({
  name: 'mail-gate',
  beforeTool: () => (deniedResult === undefined ? ask(reason) : ask(reason, { deniedResult })),
});
const approve: Approver = () => ({ approved: true, approver: 'on-call' });

const only = (name: string): ReadableSpan => tracing.onlySpan(name);
const childrenOf = (span: ReadableSpan): string[] => tracing.childNames(span);

describe('approvals: approved', () => {
  it('runs the tool once approved; the approver saw the tool, the arguments, the hook and its reason', async () => {
    const seen: ApprovalRequest[] = [];
    const execute = vi.fn(() => 'sent');
    const rec = recorder();
    const hooks = runner([gate(), rec], { approver: (request) => (seen.push(request), { approved: true, approver: 'on-call' }) });
    const result = await executeTool({ hooks, toolName: 'send_email', args: { to: 'ops@example.com', password: 'hunter2' }, execute, callId: 'call_9' });
    expect(result).toBe('sent');
    expect(execute).toHaveBeenCalledTimes(1);
    const request = seen[0]!;
    expect(request).toMatchObject({ toolName: 'send_email', args: { to: 'ops@example.com', password: 'hunter2' }, reason: 'outgoing mail', hook: 'mail-gate', callId: 'call_9' });
    expect(request.redactedArgs).toBe('{"to":"ops@example.com","password":"[REDACTED]"}');
    expect(request.signal).toBeInstanceOf(AbortSignal);
    expect(typeof request.id).toBe('string');

    const root = only('execute_tool send_email');
    expect(childrenOf(root)).toEqual([SPAN_BEFORE_TOOL, SPAN_APPROVAL, SPAN_EXECUTE]);
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_APPROVAL_OUTCOME]: 'approved', [ATTR_APPROVAL_ID]: request.id, [ATTR_REDIRECTED]: false });
    expect(only(SPAN_BEFORE_TOOL).attributes).toMatchObject({ [ATTR_DECISION]: 'ask', [ATTR_DECISION_HOOK]: 'mail-gate' });
    const approval = only(SPAN_APPROVAL);
    expect(approval.attributes).toMatchObject({
      [ATTR_GEN_AI_TOOL_NAME]: 'send_email',
      [ATTR_APPROVAL_ID]: request.id,
      [ATTR_APPROVAL_HOOK]: 'mail-gate',
      [ATTR_APPROVAL_OUTCOME]: 'approved',
      [ATTR_APPROVAL_APPROVER]: 'on-call',
      [ATTR_APPROVAL_EDITED]: false,
    });
    // The before_tool span ended before the wait did. Each span's times are anchored on its own start, which
    // the SDK 3 line can round to whole milliseconds, so two spans' ends compare only to within a millisecond.
    const before = only(SPAN_BEFORE_TOOL);
    const endNs = (span: typeof before): number => span.endTime[0] * 1e9 + span.endTime[1];
    expect(endNs(before)).toBeLessThanOrEqual(endNs(approval) + 1e6);

    expect(rec.approvals()).toEqual([
      expect.objectContaining({ type: 'approval', toolName: 'send_email', id: request.id, hook: 'mail-gate', outcome: 'approved', approver: 'on-call', edited: false, callId: 'call_9' }),
    ]);
    expect(rec.approvals()[0]!.durationMs).toBeGreaterThanOrEqual(0);
    expect(rec.toolEvents()[0]).toMatchObject({ outcome: 'completed', approval: 'approved', gated: true });
    expect(rec.phases()[0]).toMatchObject({ decision: 'ask', winner: 'mail-gate' });
  });

  it('merges the approver’s edits over the arguments, without calling it a Redirect', async () => {
    const execute = vi.fn((args: Record<string, unknown>) => `sent to ${String(args.to)}`);
    const hooks = runner([gate()], { approver: () => ({ approved: true, args: { to: 'team@example.com' } }) });
    expect(await executeTool({ hooks, toolName: 'send_email', args: { to: 'all@example.com', body: 'hi' }, execute })).toBe('sent to team@example.com');
    expect(execute).toHaveBeenCalledWith({ to: 'team@example.com', body: 'hi' }, expect.anything());
    expect(only('execute_tool send_email').attributes[ATTR_REDIRECTED]).toBe(false);
    expect(only(SPAN_APPROVAL).attributes[ATTR_APPROVAL_EDITED]).toBe(true);
  });

  it('asks about the call a Redirect would make, whichever hook came first', async () => {
    for (const order of ['ask-first', 'redirect-first'] as const) {
      tracing.reset();
      const seen: ApprovalRequest[] = [];
      const sandbox = vi.fn((args: Record<string, unknown>) => `sandboxed ${String(args.cmd)} ${String(args.limit)}`);
      const redirecting: ToolHook = { name: 'router', beforeTool: () => redirect({ newTool: 'sandbox_shell', newArgs: { limit: 5 } }) };
      const asking: ToolHook = { name: 'gate', beforeTool: () => ask('shell needs a person') };
      const hooks = runner(order === 'ask-first' ? [asking, redirecting] : [redirecting, asking], {
        approver: (request) => (seen.push(request), { approved: true }),
      });
      const result = await executeTool({ hooks, toolName: 'shell', args: { cmd: 'ls' }, execute: vi.fn(), tools: { sandbox_shell: sandbox } });
      expect(result).toBe('sandboxed ls 5');
      expect(seen[0]).toMatchObject({ toolName: 'sandbox_shell', args: { cmd: 'ls', limit: 5 }, hook: 'gate' });
      expect(only(SPAN_APPROVAL).attributes[ATTR_GEN_AI_TOOL_NAME]).toBe('sandbox_shell');
      expect(only('execute_tool shell').attributes[ATTR_REDIRECTED]).toBe(true);
    }
  });

  it('asks once, with the first asking hook; later Asks are shadowed by it', async () => {
    const seen: ApprovalRequest[] = [];
    const rec = recorder();
    const hooks = runner([{ name: 'first', beforeTool: () => ask('one') }, { name: 'second', beforeTool: () => ask('two') }, rec], {
      approver: (request) => (seen.push(request), { approved: true }),
    });
    await executeTool({ hooks, toolName: 't', args: {}, execute: () => 1 });
    expect(seen.map((r) => [r.hook, r.reason])).toEqual([['first', 'one']]);
    expect(rec.phases()[0]!.shadowed).toEqual([{ hook: 'second', decision: 'ask', reason: 'two' }]);
    expect(eventsOf(only(SPAN_BEFORE_TOOL), EVENT_HOOK_DECISION_SHADOWED)[0]?.attributes).toMatchObject({ 'toolhooks.hook.name': 'second' });
  });

  it('waits for each call on its own: a slow approval never holds up another call', async () => {
    const answers = new Map<string, (response: { approved: boolean }) => void>();
    const hooks = runner([gate()], {
      approver: (request) => new Promise((resolve) => answers.set(String(request.args.n), resolve)),
    });
    const first = executeTool({ hooks, toolName: 'send_email', args: { n: 1 }, execute: () => 'one' });
    const second = executeTool({ hooks, toolName: 'send_email', args: { n: 2 }, execute: () => 'two' });
    await vi.waitFor(() => expect(answers.size).toBe(2));
    answers.get('2')?.({ approved: true });
    expect(await second).toBe('two');
    answers.get('1')?.({ approved: false });
    expect(await first).toBe('Tool call denied: denied');
  });
});

describe('approvals: fail closed', () => {
  async function denied(options: Omit<HookRunnerOptions, 'hooks'>, callOptions: { signal?: AbortSignal } = {}) {
    const execute = vi.fn(() => 'ran');
    const after = vi.fn();
    const rec = recorder();
    const hooks = runner([gate(), { name: 'after', afterTool: after }, rec], options);
    const result = await executeTool({ hooks, toolName: 'send_email', args: { to: 'x' }, execute, ...callOptions });
    expect(execute).not.toHaveBeenCalled();
    expect(after).toHaveBeenCalledWith('send_email', { to: 'x' }, result, undefined, 0, expect.anything());
    const root = only('execute_tool send_email');
    expect(root.attributes[ATTR_OUTCOME]).toBe('denied');
    expect(rec.toolEvents()[0]?.outcome).toBe('denied');
    expect(tracing.spansNamed(SPAN_EXECUTE)).toHaveLength(0);
    return { result, root, approval: rec.approvals()[0]!, span: only(SPAN_APPROVAL) };
  }

  it('a refusal denies, with the approver’s reason', async () => {
    const { result, approval, span } = await denied({ approver: () => ({ approved: false, reason: 'not during the freeze', approver: 'on-call' }) });
    expect(result).toBe('Tool call denied: not during the freeze');
    expect(approval).toMatchObject({ outcome: 'denied', denialReason: 'not during the freeze', approver: 'on-call' });
    expect(span.attributes[ATTR_APPROVAL_OUTCOME]).toBe('denied');
  });

  it('an approver error that quotes the arguments is recorded without them (capture off)', async () => {
    const execute = vi.fn(() => 'ran');
    const rec = recorder();
    const hooks = runner([gate(), rec], {
      approver: (request) => {
        throw new Error(`cannot page anyone about mail to ${String(request.args.to)}`);
      },
    });
    expect(await executeTool({ hooks, toolName: 'send_email', args: { to: 'cfo@corp.example' }, execute })).toBe('Tool call denied: error');
    const approval = rec.approvals()[0]!;
    expect((approval.error as Error).message).toContain('cfo@corp.example'); // observers still get what was thrown
    expect(approval.exception?.message).toBe('cannot page anyone about mail to [REDACTED]');
    expect(JSON.stringify(approval.exception)).not.toContain('cfo@corp.example');
  });

  it('no approver denies as no_approver', async () => {
    const { result, root } = await denied({});
    expect(result).toBe('Tool call denied: no_approver');
    expect(root.attributes[ATTR_APPROVAL_OUTCOME]).toBe('no_approver');
  });

  it('an approver that throws denies as error, and nothing reaches the caller', async () => {
    const { result, approval } = await denied({
      approver: () => {
        throw new Error('slack is down');
      },
    });
    expect(result).toBe('Tool call denied: error');
    expect(approval.outcome).toBe('error');
    expect((approval.error as Error).message).toBe('slack is down');
  });

  it('an approver that rejects denies as error', async () => {
    const { approval } = await denied({ approver: () => Promise.reject(new Error('timeout talking to the pager')) });
    expect(approval.outcome).toBe('error');
  });

  it('a junk answer denies as error, and the event describes it', async () => {
    for (const junk of ['yes', true, null, { approved: 'yes' }, { ok: true }]) {
      tracing.reset();
      const { result, approval } = await denied({ approver: () => junk as never });
      expect(result).toBe('Tool call denied: error');
      expect(approval.outcome).toBe('error');
      expect(approval.error).toBeInstanceOf(TypeError);
      expect(String((approval.error as Error).message)).toMatch(/the approver answered .*; answer \{ approved: true \}/);
    }
    tracing.reset();
    const { approval } = await denied({ approver: () => 'yes' as never });
    expect((approval.error as Error).message).toContain('the string "yes"');
  });

  it('edits that are not a plain object deny as error', async () => {
    const { approval } = await denied({ approver: () => ({ approved: true, args: ['to', 'x'] as never }) });
    expect(approval.outcome).toBe('error');
    expect((approval.error as Error).message).toContain('args that are an array');
  });

  it('an answer whose getter throws denies as error', async () => {
    const hostile = Object.defineProperty({}, 'approved', {
      get() {
        throw new Error('gotcha');
      },
    });
    const { approval } = await denied({ approver: () => hostile as never });
    expect(approval.outcome).toBe('error');
  });

  it('no answer within approvalTimeoutMs denies as expired, and the approver’s signal aborts', async () => {
    let signal: AbortSignal | undefined;
    const { result, approval } = await denied({
      approvalTimeoutMs: 20,
      approver: (request) => {
        signal = request.signal;
        return new Promise(() => undefined);
      },
    });
    expect(result).toBe('Tool call denied: expired');
    expect(approval.outcome).toBe('expired');
    expect(signal?.aborted).toBe(true);
  });

  it('the call’s signal ends the wait as expired', async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const pending = denied(
      {
        approver: (request) => {
          signal = request.signal;
          setTimeout(() => controller.abort(new Error('user cancelled')), 5);
          return new Promise(() => undefined);
        },
      },
      { signal: controller.signal },
    );
    const { result, approval } = await pending;
    expect(result).toBe('Tool call denied: expired');
    expect(approval.outcome).toBe('expired');
    expect(signal?.aborted).toBe(true);
  });

  it('a cancelled wait leaves no timer behind, even when the approver ignores its signal', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    // No tracer of the test's SDK: its span exports would start timers of their own.
    const hooks = new HookRunner({ hooks: [gate()], approver: () => new Promise(() => undefined) });
    const call = executeTool({ hooks, toolName: 'send_email', args: {}, execute: () => 'ran', signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    expect(vi.getTimerCount()).toBe(1); // the 5-minute approval timer
    controller.abort();
    expect(await call).toBe('Tool call denied: expired');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a denied call returns the Ask’s deniedResult when it gave one', async () => {
    const execute = vi.fn();
    const hooks = runner([gate('refund', { refunded: false })], { approver: () => ({ approved: false }) });
    expect(await executeTool({ hooks, toolName: 'refund', args: {}, execute })).toEqual({ refunded: false });
    expect(execute).not.toHaveBeenCalled();
  });

  it('approvalTimeoutMs defaults to 5 minutes', async () => {
    vi.useFakeTimers();
    const hooks = runner([gate()], { approver: () => new Promise(() => undefined) });
    const call = executeTool({ hooks, toolName: 'send_email', args: {}, execute: () => 'ran' });
    await vi.advanceTimersByTimeAsync(299_999);
    let settled = false;
    void call.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call).toBe('Tool call denied: expired');
  });

  it('approvalTimeoutMs: 0 waits as long as it takes', async () => {
    vi.useFakeTimers();
    let answer: ((response: { approved: true }) => void) | undefined;
    const hooks = runner([gate()], { approvalTimeoutMs: 0, approver: () => new Promise((resolve) => (answer = resolve)) });
    const call = executeTool({ hooks, toolName: 'send_email', args: {}, execute: () => 'ran' });
    await vi.advanceTimersByTimeAsync(24 * 3600 * 1000);
    answer?.({ approved: true });
    expect(await call).toBe('ran');
  });
});

describe('approvals: aggregation', () => {
  it('an Ask shadowed by a Skip asks nobody', async () => {
    for (const hooks of [
      [gate(), { name: 'cache', beforeTool: () => skip('cached', 'from cache') }],
      [{ name: 'cache', beforeTool: () => skip('cached', 'from cache') }, gate()],
    ] as ToolHook[][]) {
      tracing.reset();
      const approver = vi.fn(approve);
      const rec = recorder();
      const result = await executeTool({ hooks: runner([...hooks, rec], { approver }), toolName: 'send_email', args: {}, execute: vi.fn() });
      expect(result).toBe('from cache');
      expect(approver).not.toHaveBeenCalled();
      expect(rec.phases()[0]).toMatchObject({ decision: 'skip', winner: 'cache' });
      expect(rec.phases()[0]!.shadowed).toContainEqual({ hook: 'mail-gate', decision: 'ask', reason: 'outgoing mail' });
      expect(tracing.spansNamed(SPAN_APPROVAL)).toHaveLength(0);
      expect(only('execute_tool send_email').attributes[ATTR_OUTCOME]).toBe('skipped');
    }
  });

  it('an Abort raises and asks nobody', async () => {
    const approver = vi.fn(approve);
    const hooks = runner([gate(), { name: 'policy', beforeTool: () => abort('never') }], { approver });
    await expect(executeTool({ hooks, toolName: 'send_email', args: {}, execute: vi.fn() })).rejects.toBeInstanceOf(HookAbortError);
    expect(approver).not.toHaveBeenCalled();
  });

  it('an audit hook that asks is recorded as would-ask and never waits', async () => {
    const approver = vi.fn(approve);
    const rec = recorder();
    const execute = vi.fn(() => 'ran');
    const hooks = runner([{ ...gate(), mode: 'audit' }, rec], { approver });
    expect(await executeTool({ hooks, toolName: 'send_email', args: {}, execute })).toBe('ran');
    expect(approver).not.toHaveBeenCalled();
    expect(rec.phases()[0]).toMatchObject({ decision: 'continue' });
    expect(rec.phases()[0]!.hooks[0]).toMatchObject({ hook: 'mail-gate', decision: 'ask', mode: 'audit' });
    expect(rec.toolEvents()[0]).toMatchObject({ outcome: 'completed', gated: false });
    expect(rec.toolEvents()[0]).not.toHaveProperty('approval');
  });

  it('an Ask from afterTool or onError, and a Replace from beforeTool, are invalid decisions', async () => {
    const rec = recorder();
    const hooks = runner(
      [
        { name: 'late-ask', afterTool: () => ask('too late'), onError: () => ask('too late') },
        { name: 'early-replace', beforeTool: () => replaceResult('nothing to replace') },
        rec,
      ],
      { approver: approve },
    );
    expect(await executeTool({ hooks, toolName: 't', args: {}, execute: () => 'ran' })).toBe('ran');
    await expect(
      executeTool({
        hooks,
        toolName: 't',
        args: {},
        execute: () => {
          throw new Error('boom');
        },
      }),
    ).rejects.toThrow('boom');
    const errors = rec.phases().flatMap((p) => p.errors.map((e) => [p.phase, e.hook, e.kind, (e.error as Error).message]));
    expect(errors).toEqual([
      ['before_tool', 'early-replace', 'invalid_decision', expect.stringContaining('returned replaceResult() in before_tool; replace a result in afterTool')],
      ['after_tool', 'late-ask', 'invalid_decision', expect.stringContaining('returned ask() in after_tool; ask for approval in beforeTool')],
      ['before_tool', 'early-replace', 'invalid_decision', expect.any(String)],
      ['on_error', 'late-ask', 'invalid_decision', expect.stringContaining('returned ask() in on_error')],
    ]);
    expect(eventsOf(tracing.spansNamed(SPAN_AFTER_TOOL)[0]!, EVENT_HOOK_ERROR)[0]?.attributes[ATTR_HOOK_ERROR_KIND]).toBe('invalid_decision');
  });

  it('a fail-closed hook that asks in afterTool aborts the call', async () => {
    const hooks = runner([{ name: 'late-ask', failureMode: 'closed', afterTool: () => ask('too late') }]);
    await expect(executeTool({ hooks, toolName: 't', args: {}, execute: () => 'ran' })).rejects.toThrow(/hook late-ask failed: hook "late-ask" returned ask\(\) in after_tool/);
  });

  it('gated is false for a call no enforce-mode hook saw, true otherwise', async () => {
    const rec = recorder();
    const hooks = runner([{ name: 'scoped', tools: ['shell'], beforeTool: () => undefined }, rec]);
    await executeTool({ hooks, toolName: 'search', args: {}, execute: () => 1 });
    await executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 1 });
    expect(rec.toolEvents().map((t) => [t.toolName, t.gated])).toEqual([
      ['search', false],
      ['shell', true],
    ]);
  });
});

describe('approvals: runBefore settles them too', () => {
  it('returns E when approved, a Redirect with the edits, or a Skip with the denial result', async () => {
    const state = undefined;
    expect(await runner([gate()], { approver: approve }).runBefore('send_email', {}, state)).toEqual({ kind: 'continue' });
    expect(await runner([gate()], { approver: () => ({ approved: true, args: { to: 'team' } }) }).runBefore('send_email', { to: 'all' }, state)).toMatchObject({
      kind: 'redirect',
      newArgs: { to: 'team' },
    });
    expect(await runner([gate()]).runBefore('send_email', {}, state)).toMatchObject({ kind: 'skip', stubResult: 'Tool call denied: no_approver' });
  });
});

describe('an adapter’s own approver', () => {
  it('wins over the runner’s, and its absence falls back to the runner’s', async () => {
    const hooks = runner([gate()], { approver: () => ({ approved: false, reason: 'runner says no' }) });
    // A plan as an adapter builds it.
    const plan: CallPlan<unknown> = {
      core: runnerCore(hooks, 'test'),
      toolName: 'send_email',
      args: {},
      state: undefined,
      execute: () => 'sent',
      redirectExecutor: () => undefined,
      maxReexecutions: 0,
      maxRetries: 0,
    };
    expect(await runToolCall({ ...plan, approver: () => ({ approved: true, approver: 'framework-ui' }) })).toBe('sent');
    expect(await runToolCall(plan)).toBe('Tool call denied: runner says no');
  });
});

describe('approvals in the other flows', () => {
  it('runWithRetry treats a denial like a before Skip with the denial result', async () => {
    const operation = vi.fn(() => 'ran');
    const rec = recorder();
    const hooks = runner([gate('mail', { denied: true }), rec], { approver: () => ({ approved: false }) });
    expect(await runWithRetry(operation, { toolName: 'send_email', args: {}, hooks, note: 'n' })).toBe('{"denied":true}');
    expect(operation).not.toHaveBeenCalled();
    expect(rec.toolEvents()[0]?.outcome).toBe('denied');
  });

  it('runPlan and CompoundTool decide approvals through their runner', async () => {
    const hooks = runner([{ name: 'gate', tools: ['meta:deploy', 'deployer'], beforeTool: () => ask('deploys need a person') }], { approver: () => ({ approved: false, reason: 'freeze' }) });
    const runSubtask = vi.fn(() => 'done');
    const results = await runPlan([{ name: 'deploy', prompt: 'ship it' }, { name: 'test', prompt: 'run tests' }], { hooks, runSubtask });
    expect(results.map((r) => [r.name, r.success, r.output])).toEqual([
      ['deploy', true, 'Tool call denied: freeze'],
      ['test', true, 'done'],
    ]);
    const executor = vi.fn();
    const compound = new CompoundTool({ agent: { name: 'deployer', run: () => 'plan' }, executor, hooks });
    expect(await compound.run(undefined, 'go')).toEqual({ agentOutput: 'plan', result: 'Tool call denied: freeze' });
    expect(executor).not.toHaveBeenCalled();
  });
});

describe('Replace in after_tool', () => {
  it('returns the replacement; outcome completed with toolhooks.result.replaced', async () => {
    const rec = recorder();
    const hooks = runner([{ name: 'scrub', afterTool: (_t, _a, result) => replaceResult(String(result).replace(/\d{3}-\d{2}-\d{4}/, '[ssn]'), 'PII') }, rec]);
    expect(await executeTool({ hooks, toolName: 'lookup', args: {}, execute: () => 'ann 078-05-1120' })).toBe('ann [ssn]');
    const root = only('execute_tool lookup');
    expect(root.attributes).toMatchObject({ [ATTR_OUTCOME]: 'completed', [ATTR_RESULT_REPLACED]: true });
    expect(rec.toolEvents()[0]).toMatchObject({ outcome: 'completed', replaced: true });
  });

  it('the first Replace or Redirect wins; a Skip takes no part', async () => {
    const execute = vi.fn((args: Record<string, unknown>) => `ran ${String(args.v)}`);
    const replace: ToolHook = { name: 'replace', afterTool: () => replaceResult('replaced') };
    const rerun: ToolHook = { name: 'rerun', afterTool: (_t, args) => (args.v === 2 ? undefined : redirect({ newArgs: { v: 2 } })) };
    const skipper: ToolHook = { name: 'skipper', afterTool: () => skip('meaningless') };
    expect(await executeTool({ hooks: runner([replace, rerun]), toolName: 't', args: { v: 1 }, execute })).toBe('replaced');
    expect(execute).toHaveBeenCalledTimes(1);
    execute.mockClear();
    // The Redirect re-executes; in the re-execution's after_tool the Replace wins.
    expect(await executeTool({ hooks: runner([rerun, replace]), toolName: 't', args: { v: 1 }, execute })).toBe('replaced');
    expect(execute).toHaveBeenCalledTimes(2);
    expect(await executeTool({ hooks: runner([skipper, replace]), toolName: 't', args: { v: 1 }, execute })).toBe('replaced');
  });

  it('replaces the stub after a before Skip or a denial, and the text under runWithRetry', async () => {
    const replace: ToolHook = { name: 'replace', afterTool: () => replaceResult({ scrubbed: true }) };
    expect(await executeTool({ hooks: runner([{ name: 'c', beforeTool: () => skip('c', 'stub') }, replace]), toolName: 't', args: {}, execute: vi.fn() })).toEqual({ scrubbed: true });
    expect(await executeTool({ hooks: runner([gate(), replace]), toolName: 't', args: {}, execute: vi.fn() })).toEqual({ scrubbed: true });
    expect(await runWithRetry(() => 'text', { toolName: 't', args: {}, hooks: runner([replace]), note: 'n' })).toBe('{"scrubbed":true}');
  });
});

describe('approver options', () => {
  it('approver must be a function; approvalTimeoutMs a timer Node can keep', () => {
    expect(() => new HookRunner({ approver: 'yes' as never })).toThrow(/HookRunner: approver must be a function/);
    expect(() => new HookRunner({ approvalTimeoutMs: -1 })).toThrow(RangeError);
    expect(() => new HookRunner({ approvalTimeoutMs: 2 ** 31 })).toThrow(/approvalTimeoutMs must be .* to 2147483647 .*got 2147483648/);
    expect(() => new HookRunner({ approvalTimeoutMs: Number.NaN })).toThrow(RangeError);
    expect(() => new HookRunner({ approvalTimeoutMs: 2 ** 31 - 1 })).not.toThrow();
    expect(() => new HookRunner({ approvalTimeout: 5 } as never)).toThrow(/approvalTimeoutMs/);
  });
});

describe("the approver's reference is bounded like every recorded string (issue 29)", () => {
  it('a 5 MB approver string reaches the approval span, the observers and LoggingHook cut to maxLength', async () => {
    const { LoggingHook } = await import('../../../src/hooks/index.js');
    const pino = (await import('pino')).default;
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const huge = 'a'.repeat(5_000_000);
    const rec = recorder();
    const hooks = runner([gate(), rec, new LoggingHook({ logger })], { approver: () => ({ approved: false, approver: huge }) });
    await executeTool({ hooks, toolName: 'send_email', args: {}, execute: vi.fn() });
    const recorded = only(SPAN_APPROVAL).attributes[ATTR_APPROVAL_APPROVER];
    expect(recorded).toBe(`${'a'.repeat(4096)}…[truncated ${5_000_000 - 4096}]`);
    expect(rec.approvals()[0]?.approver).toBe(recorded);
    const record = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((line) => line[ATTR_APPROVAL_APPROVER] !== undefined);
    expect(record?.[ATTR_APPROVAL_APPROVER]).toBe(recorded);
    expect(lines.join('').length).toBeLessThan(100_000);
  });
});
