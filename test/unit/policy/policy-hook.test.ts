/**
 * policyHook around an engine written in the test: what each answer does to a call, the lenient shapes
 * Rego users write, every malformed answer as a hook error naming the field, fail closed by default,
 * audit mode, the input document (with the agent and context; its bounds on a large input are in
 * test/integration/policy/policy-hook.large-inputs.test.ts), and the policy named on the decision event.
 */
import { describe, expect, it } from 'vitest';
import { HookAbortError, InvalidHookDecisionError, executeTool } from '../../../src/index.js';
import type { PhaseEvent, ToolArgs } from '../../../src/index.js';
import { policyHook } from '../../../src/policy/index.js';
import type { PolicyEngine, PolicyHookOptions, PolicyInput } from '../../../src/policy/index.js';
import {
  ATTR_DECISION,
  ATTR_HOOK_ERROR_KIND,
  ATTR_HOOK_MODE,
  ATTR_POLICY_DIGEST,
  ATTR_POLICY_ENGINE,
  ATTR_POLICY_IDS,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_ERROR,
  SPAN_BEFORE_TOOL,
} from '../../../src/telemetry/semconv.js';
import { recordingEngine } from '../../support/policy-engine.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();


async function call(
  policy: PolicyEngine,
  options: PolicyHookOptions & { runner?: Record<string, unknown> } = {},
  toolName = 'shell',
  args: ToolArgs = { cmd: 'ls' },
  tools?: Record<string, (args: ToolArgs) => unknown>,
): Promise<{ result?: unknown; error?: unknown; phases: PhaseEvent[] }> {
  const phases: PhaseEvent[] = [];
  const { runner: runnerOptions, ...hookOptions } = options;
  const runner = tracing.runner([policyHook(policy, hookOptions), { name: 'observer', onEvent: (event) => void (event.type === 'phase' && phases.push(event)) }], {
    agentName: 'ops-bot',
    ...runnerOptions,
  });
  try {
    const result = await executeTool({ hooks: runner, toolName, args, callId: 'call-1', execute: (a) => `ran ${toolName} ${JSON.stringify(a)}`, ...(tools === undefined ? {} : { tools }) });
    return { result, phases };
  } catch (error) {
    return { error, phases };
  }
}

function decisionEvents(): Record<string, unknown>[] {
  return tracing.spansNamed(SPAN_BEFORE_TOOL).flatMap((span) => eventsOf(span, EVENT_HOOK_DECISION).map((event) => event.attributes));
}

describe('policyHook: what each answer does', () => {
  it('allow and not-applicable continue; true and { allow: true } too', async () => {
    for (const answer of [{ decision: 'allow' }, { decision: 'not-applicable' }, true, { allow: true }]) {
      expect((await call(recordingEngine(answer))).result).toBe('ran shell {"cmd":"ls"}');
    }
  });

  it('deny aborts with its reason, else "denied by policy" (with the ids when named)', async () => {
    const cases: [unknown, string][] = [
      [{ decision: 'deny', reason: 'no shell' }, 'no shell'],
      [false, 'denied by policy'],
      [{ allow: false }, 'denied by policy'],
      [{ decision: 'deny', reason: '' }, 'denied by policy'],
      [{ decision: 'deny', policies: ['no-rm', 'prod'] }, 'denied by policy no-rm, prod'],
    ];
    for (const [answer, reason] of cases) {
      const { error } = await call(recordingEngine(answer));
      expect(error).toBeInstanceOf(HookAbortError);
      expect((error as HookAbortError).reason).toBe(reason);
      expect((error as HookAbortError).sourceHook).toBe('policy');
    }
  });

  it("deny: 'skip' returns \"Tool call denied: <reason>\" instead of aborting", async () => {
    const { result } = await call(recordingEngine({ decision: 'deny', reason: 'no shell' }), { deny: 'skip' });
    expect(result).toBe('Tool call denied: no shell');
  });

  it('requires-approval asks the approver with the reason (a default one when the policy gives none)', async () => {
    const asked: string[] = [];
    const approver = (request: { reason: string }) => {
      asked.push(request.reason);
      return { approved: true } as const;
    };
    expect((await call(recordingEngine({ decision: 'requires-approval', reason: 'outside domain' }), { runner: { approver } })).result).toContain('ran shell');
    await call(recordingEngine({ decision: 'requires-approval', policies: ['mail'] }), { runner: { approver } });
    expect(asked).toEqual(['outside domain', 'approval required by policy mail']);
    const denied = await call(recordingEngine({ decision: 'requires-approval' }));
    expect(denied.result).toMatch(/^Tool call denied/);
  });

  it('skip returns the stub; redirect runs the named tool with merged args', async () => {
    expect((await call(recordingEngine({ decision: 'skip', stub: { cached: true } }))).result).toEqual({ cached: true });
    expect((await call(recordingEngine({ decision: 'skip' }))).result).toBe('');
    const sandbox = (args: ToolArgs) => `sandbox ${JSON.stringify(args)}`;
    const { result } = await call(recordingEngine({ decision: 'redirect', tool: 'sandbox_shell', args: { net: false } }), {}, 'shell', { cmd: 'curl x' }, { sandbox_shell: sandbox });
    expect(result).toBe('sandbox {"cmd":"curl x","net":false}');
  });

  it('replace in after_tool returns the policy\'s result; the input carries the tool\'s result', async () => {
    const policy = recordingEngine((input: PolicyInput) => (input.phase === 'after_tool' ? { decision: 'replace', result: `[redacted ${String(input.result).length}]` } : true));
    const { result } = await call(policy, { phases: ['before_tool', 'after_tool'] });
    expect(result).toBe('[redacted 22]');
    expect(policy.inputs.map((input) => input.phase)).toEqual(['before_tool', 'after_tool']);
    expect(policy.inputs[1]?.result).toBe('ran shell {"cmd":"ls"}');
    expect('result' in (policy.inputs[0] as object)).toBe(false);
  });

  it('asks only in the phases given', async () => {
    const policy = recordingEngine(true);
    await call(policy, { phases: ['after_tool'] });
    expect(policy.inputs.map((input) => input.phase)).toEqual(['after_tool']);
  });

  it('an asynchronous engine works the same', async () => {
    const { error } = await call(recordingEngine(async () => ({ decision: 'deny', reason: 'later' })));
    expect((error as HookAbortError).reason).toBe('later');
  });
});

describe('policyHook: malformed answers are hook errors naming the field, never a silent Continue', () => {
  const cases: [string, unknown, RegExp][] = [
    ['an unknown decision', { decision: 'maybe' }, /"decision" is "maybe"; expected one of "allow", "deny"/],
    ['a redirect without a tool', { decision: 'redirect', args: { a: 1 } }, /"decision" is "redirect" with "tool" undefined; a redirect needs "tool"/],
    ['a redirect with args that are not an object', { decision: 'redirect', tool: 't', args: [1] }, /"args" .*must be an object/],
    ['a replace in before_tool', { decision: 'replace', result: 1 }, /"decision" is "replace" in before_tool/],
    ["[] (OPA's undefined)", [], /answered \[\] \(OPA's undefined/],
    ['no result at all', undefined, /answered no result \(OPA's undefined/],
    ['a number', 42, /answered 42; the result must be true, false/],
    ['an object with neither decision nor allow', { verdict: 'ok' }, /without "decision" or "allow"/],
    ['a non-boolean allow', { allow: 'yes' }, /with "allow" but no "decision" or boolean "allow"/],
    ['a reason that is not a string', { decision: 'deny', reason: 7 }, /"reason" is 7; it must be a string/],
    ['policies that are not strings', { decision: 'deny', policies: [1] }, /"policies" is .*array of policy ids/],
    ['a non-empty array', [{ result: true }], /an array \(1 items\)/],
  ];
  for (const [what, answer, message] of cases) {
    it(`${what}: invalid_decision, and the call aborts (fail closed by default)`, async () => {
      const { error, phases } = await call(recordingEngine(answer));
      expect(error).toBeInstanceOf(HookAbortError);
      const failure = phases[0]?.errors[0];
      expect(failure?.kind).toBe('invalid_decision');
      expect(failure?.error).toBeInstanceOf(InvalidHookDecisionError);
      expect(String((failure?.error as Error).message)).toMatch(/^policy hook "policy" \(test-engine\): /);
      expect(String((failure?.error as Error).message)).toMatch(message);
    });
  }

  it('reads each field of an answer once, and an answer that throws when read is named', async () => {
    const reads: string[] = [];
    const counted = new Proxy({ decision: 'deny', reason: 'no', policies: ['p'] } as Record<string, unknown>, {
      get: (target, key) => (reads.push(String(key)), target[key as string]),
    });
    const { error } = await call(recordingEngine(counted));
    expect((error as Error).message).toMatch(/no/);
    // `then` is the hook asking whether the answer is a promise.
    expect(reads.filter((key) => key !== 'then').sort()).toEqual(['decision', 'policies', 'reason']);
    const throwing = {
      get decision(): string {
        throw new Error('boom');
      },
    };
    const failure = (await call(recordingEngine(throwing))).phases[0]?.errors[0];
    expect(String((failure?.error as Error).message)).toMatch(/answered an unreadable object \(boom\)/);
  });

  it('replace without a result and requires-approval in after_tool are named too', async () => {
    const after = async (answer: unknown) => (await call(recordingEngine((input: PolicyInput) => (input.phase === 'after_tool' ? answer : true)), { phases: ['before_tool', 'after_tool'] })).phases[1]?.errors[0];
    expect(String(((await after({ decision: 'replace' }))?.error as Error).message)).toMatch(/"replace" without "result"/);
    expect(String(((await after({ decision: 'requires-approval' }))?.error as Error).message)).toMatch(/"requires-approval" in after_tool/);
  });

  it("with failureMode 'open' a malformed answer is recorded and the call goes on", async () => {
    const { result, phases } = await call(recordingEngine({ decision: 'maybe' }), { failureMode: 'open' });
    expect(result).toContain('ran shell');
    expect(phases[0]?.errors[0]?.kind).toBe('invalid_decision');
  });

  it('an engine that throws is a threw error: aborts closed, continues open', async () => {
    const throwing = recordingEngine(() => {
      throw new Error('wasm trap');
    });
    const closed = await call(throwing);
    expect((closed.error as HookAbortError).cause).toMatchObject({ message: 'wasm trap' });
    expect(closed.phases[0]?.errors[0]?.kind).toBe('threw');
    expect((await call(throwing, { failureMode: 'open' })).result).toContain('ran shell');
  });

  it('an engine slower than timeoutMs is a timeout, and its signal fires', async () => {
    let aborted = false;
    const slow = recordingEngine(undefined, {
      evaluate: (_input, { signal }) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve({ decision: 'allow' });
          });
        }),
    });
    const { error, phases } = await call(slow, { timeoutMs: 20 });
    expect(error).toBeInstanceOf(HookAbortError);
    expect(phases[0]?.errors[0]?.kind).toBe('timeout');
    expect(aborted).toBe(true);
  });

  it('a context option that returns a non-object is an error naming it', async () => {
    const { phases } = await call(recordingEngine(true), { context: () => 5 as unknown as Record<string, unknown> });
    expect(String((phases[0]?.errors[0]?.error as Error).message)).toMatch(/the context option returned 5; it must return an object/);
  });
});

describe('policyHook: audit mode', () => {
  it('records what the policy would decide and changes nothing', async () => {
    const { result } = await call(recordingEngine({ decision: 'deny', reason: 'no shell', policies: ['no-shell'] }), { mode: 'audit' });
    expect(result).toContain('ran shell');
    const [event] = decisionEvents();
    expect(event).toMatchObject({ [ATTR_DECISION]: 'abort', [ATTR_HOOK_MODE]: 'audit', [ATTR_POLICY_IDS]: ['no-shell'] });
  });

  it('a malformed answer in audit mode never aborts', async () => {
    expect((await call(recordingEngine([]), { mode: 'audit' })).result).toContain('ran shell');
  });
});

describe('policyHook: the input document', () => {
  it('holds phase, tool, args, call id, the agent and the context option\'s facts', async () => {
    const policy = recordingEngine(true);
    await call(policy, { context: (tool, args, state) => ({ tenant: 'acme', tool, argCount: Object.keys(args).length, state: state ?? null }) });
    expect(policy.inputs[0]).toEqual({
      phase: 'before_tool',
      tool: 'shell',
      callId: 'call-1',
      agent: 'ops-bot',
      args: { cmd: 'ls' },
      context: { tenant: 'acme', tool: 'shell', argCount: 1, state: null },
    });
  });

  it('is plain data: no getter of the caller\'s args reaches the engine', async () => {
    const policy = recordingEngine(true);
    const args: ToolArgs = {
      visible: 2,
      get hidden() {
        return 3;
      },
    };
    await call(policy, {}, 'shell', args);
    expect(Object.getOwnPropertyDescriptor(policy.inputs[0]?.args, 'hidden')).toMatchObject({ value: 3 });
    expect(policy.inputs[0]?.args).toEqual({ visible: 2, hidden: 3 });
  });
});

describe('policyHook: telemetry', () => {
  it('names the engine, digest and determining policies on the decision event', async () => {
    await call(recordingEngine({ decision: 'allow', policies: ['read-only'] }));
    expect(decisionEvents()[0]).toMatchObject({
      [ATTR_DECISION]: 'continue',
      [ATTR_POLICY_ENGINE]: 'test-engine',
      [ATTR_POLICY_DIGEST]: 'ab'.repeat(32),
      [ATTR_POLICY_IDS]: ['read-only'],
    });
  });

  it('records at most 64 ids, a frozen copy: the engine\'s own array is left as it is', async () => {
    const ids = Array.from({ length: 70 }, (_, i) => `p${i}`);
    await call(recordingEngine({ decision: 'deny', policies: ids }));
    const recorded = decisionEvents()[0]?.[ATTR_POLICY_IDS] as string[];
    expect(recorded).toEqual(ids.slice(0, 64));
    expect(Object.isFrozen(ids)).toBe(false);
  });

  it('leaves out the digest and ids when there are none', async () => {
    const withoutDigest = recordingEngine(true);
    delete (withoutDigest as { digest?: string }).digest;
    await call(withoutDigest);
    const [event] = decisionEvents();
    expect(event?.[ATTR_POLICY_ENGINE]).toBe('test-engine');
    expect(event && ATTR_POLICY_DIGEST in event).toBe(false);
    expect(event && ATTR_POLICY_IDS in event).toBe(false);
  });

  it('records no argument value with capture off', async () => {
    await call(recordingEngine({ decision: 'deny', policies: ['p'] }), {}, 'shell', { cmd: 'secret-value-123' });
    const recorded = JSON.stringify(tracing.spans().map((span) => [span.attributes, span.events]));
    expect(recorded).not.toContain('secret-value-123');
  });

  it('an engine error is a hook error event (its kind), not a decision with policy attributes', async () => {
    await call(recordingEngine([]));
    const span = tracing.onlySpan(SPAN_BEFORE_TOOL);
    expect(eventsOf(span, EVENT_HOOK_ERROR)[0]?.attributes[ATTR_HOOK_ERROR_KIND]).toBe('invalid_decision');
  });
});

describe('policyHook: bad options', () => {
  it('names what is wrong', () => {
    expect(() => policyHook(undefined as unknown as PolicyEngine)).toThrow(/needs a policy engine/);
    expect(() => policyHook({ name: 'x' } as unknown as PolicyEngine)).toThrow(/evaluate\(input, \{ signal \}\) method/);
    expect(() => policyHook(Promise.resolve(recordingEngine(true)) as unknown as PolicyEngine)).toThrow(/a promise: await opaWasm\(\)/);
    expect(() => policyHook({ name: '', evaluate: () => true } as unknown as PolicyEngine)).toThrow(/non-empty name/);
    expect(() => policyHook({ name: 'x', digest: 1, evaluate: () => true } as unknown as PolicyEngine)).toThrow(/digest must be a string/);
    expect(() => policyHook(recordingEngine(true), { phases: [] })).toThrow(/phases must be a non-empty array/);
    expect(() => policyHook(recordingEngine(true), { phases: ['on_error'] as never })).toThrow(/phases must be/);
    expect(() => policyHook(recordingEngine(true), { deny: 'skipp' as never })).toThrow(/deny must be 'abort' or 'skip'/);
    expect(() => policyHook(recordingEngine(true), { failurMode: 'open' } as never)).toThrow(/did you mean "failureMode"/);
  });

  it('is an ordinary frozen hook: default name policy, fail closed, only the asked phases', () => {
    const hook = policyHook(recordingEngine(true), { tools: ['shell'], timeoutMs: 50, mode: 'audit' });
    expect(Object.isFrozen(hook)).toBe(true);
    expect(hook).toMatchObject({ name: 'policy', failureMode: 'closed', tools: ['shell'], timeoutMs: 50, mode: 'audit' });
    expect(hook.afterTool).toBeUndefined();
    expect(typeof hook.beforeTool).toBe('function');
  });
});
