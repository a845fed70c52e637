/**
 * Security (issue 6): what an attacker who controls tool arguments — or a hook that returns something
 * hostile — can and cannot make toolhooks do. Each test asserts a guarantee a user can check: no
 * prototype pollution, bounded telemetry, reasons that survive export intact, hostile decisions that
 * are recorded as hook errors instead of crashing the call, plain-text diagnostics that cannot be forged.
 * That reasons survive an OTLP/JSON export byte for byte is checked in
 * test/integration/telemetry/control-characters-otlp.test.ts (it needs a local OTLP receiver); that 10 MB values
 * leave telemetry bounded, in test/integration/runner/hook-runner.security.large-inputs.test.ts (for its size).
 */
import { describe, expect, it } from 'vitest';
import type { FailureMode, HookDecision, Phase, ToolArgs, ToolHook, ToolHookEvent } from '../../../src/index.js';
import { HookAbortError, HookRunner, ask, executeTool, redirect, replaceResult, runWithRetry, skip } from '../../../src/index.js';
import {
  ATTR_DECISION_REASON,
  ATTR_EXCEPTION_MESSAGE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HOOK_ERROR_KIND,
  EVENT_HOOK_DECISION,
  EVENT_HOOK_ERROR,
  SPAN_BEFORE_TOOL,
  SPAN_EXECUTE_TOOL_PREFIX,
} from '../../../src/telemetry/semconv.js';
import { eventsOf, useTestTracing } from '../../support/tracing.js';
import { useDiagRecorder } from '../../support/diag.js';
import { expectNoPollutionAfterEach } from '../../support/hostile-values.js';

const tracing = useTestTracing();
const diagRecorder = useDiagRecorder();
const warnings = diagRecorder.messages;
expectNoPollutionAfterEach('isAdmin');

const HOSTILE = '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}},"prototype":{"isAdmin":true},"path":"/sandbox/file"}';

/** Checks the args an executor received: the attacker's keys are plain data, the prototype is untouched. */
function expectUnpolluted(args: ToolArgs): void {
  expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  expect(args.isAdmin).toBeUndefined();
  expect(Object.hasOwn(args, '__proto__')).toBe(true);
  expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ isAdmin: true });
  expect(Object.getOwnPropertyDescriptor(args, 'constructor')?.value).toEqual({ prototype: { isAdmin: true } });
  expect(args.path).toBe('/sandbox/file');
}

describe('prototype pollution through args and Redirect newArgs', () => {
  const phases: readonly Phase[] = ['before_tool', 'on_error', 'after_tool'];
  const forms = [
    { form: 'redirect()', make: (newArgs: ToolArgs): HookDecision => redirect({ newArgs, reason: 'jail' }) },
    { form: 'a plain literal', make: (newArgs: ToolArgs): HookDecision => ({ kind: 'redirect', newArgs, reason: 'jail' }) },
  ];
  const cases = phases.flatMap((phase) => forms.map((form) => ({ phase, ...form })));

  it.each(cases)('a $phase Redirect built with $form and JSON.parse-d __proto__/constructor/prototype keys', async ({ phase, make }) => {
    const received: ToolArgs[] = [];
    const hook: ToolHook = {
      name: 'jailer',
      beforeTool: () => (phase === 'before_tool' ? make(JSON.parse(HOSTILE) as ToolArgs) : undefined),
      onError: () => (phase === 'on_error' ? make(JSON.parse(HOSTILE) as ToolArgs) : undefined),
      afterTool: (_tool, _args, _result, _state, _duration, ctx) =>
        phase === 'after_tool' && ctx.attempt === 1 ? make(JSON.parse(HOSTILE) as ToolArgs) : undefined,
    };
    const hooks = new HookRunner({ hooks: [hook], tracer: tracing.tracer, capture: { args: true, results: true } });
    const args = { path: '/etc/passwd' };
    const result = await executeTool({
      hooks,
      toolName: 'read_file',
      args,
      execute: (toolArgs, ctx) => {
        received.push(toolArgs);
        if (phase === 'on_error' && ctx.attempt === 1) throw new Error('first attempt fails');
        return toolArgs.isAdmin === true ? 'ADMIN' : 'user';
      },
    });
    expect(result).toBe('user');
    expect(received).toHaveLength(2 - Number(phase === 'before_tool'));
    expectUnpolluted(received[received.length - 1]!);
    expect(args).toEqual({ path: '/etc/passwd' });
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it('hostile keys at any depth of the args pass through hooks, capture and observers as data', async () => {
    const args = JSON.parse(`{"level1":{"level2":[${HOSTILE}]},"__proto__":{"isAdmin":true},"query":"x"}`) as ToolArgs;
    const events: ToolHookEvent[] = [];
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      capture: { args: true, results: true },
      hooks: [
        { name: 'merge', beforeTool: () => redirect({ newArgs: JSON.parse(HOSTILE) as ToolArgs }) },
        { name: 'observer', onEvent: (event) => void events.push(event) },
      ],
    });
    const result = await executeTool({ hooks, toolName: 'search', args, execute: (toolArgs) => toolArgs });
    expectUnpolluted(result as ToolArgs);
    // The recorded arguments keep the attacker's keys as data, and so does parsing them back.
    const recorded = JSON.parse(String(tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} search`)[0]!.attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS])) as ToolArgs;
    expect(Object.hasOwn(recorded, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(recorded)).toBe(Object.prototype);
    expect(events.some((event) => event.type === 'tool')).toBe(true);
  });
});

describe('newlines and terminal escapes in reasons and messages', () => {
  const NASTY = 'refused\n2026-01-01 INFO forged: all clear\r\n\u001b[2J\u001b[31mred\u001b[0m\u2028\u0085\u0000end';

  it('are bounded like any reason', async () => {
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [{ name: 'gate', beforeTool: () => skip(NASTY.repeat(100_000)) }] });
    await executeTool({ hooks, toolName: 'shell', args: {}, execute: () => 'ran' });
    const reason = String(eventsOf(tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!, EVENT_HOOK_DECISION)[0]!.attributes[ATTR_DECISION_REASON]);
    expect(reason.length).toBeLessThan(4096 + 32);
    expect(reason).toMatch(/…\[truncated \d+\]$/);
  });

  it('cannot forge lines in the plain-text diag log: control characters are escaped there', async () => {
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      // With capture off the quoted argument would be scrubbed from the message (error-text.test.ts).
      capture: { args: true },
      hooks: [
        {
          name: 'parser',
          beforeTool: (_tool, args) => {
            throw new Error(`cannot parse ${String(args.path)}`);
          },
        },
      ],
    });
    await executeTool({ hooks, toolName: 'read\nfile', args: { path: NASTY }, execute: () => 'ran' });
    expect(warnings).toHaveLength(1);
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(warnings[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(warnings[0]).toContain('refused\\u000a2026-01-01 INFO forged');
    expect(warnings[0]).toContain('\\u001b[31m');
    // The span event keeps the exact text: attributes are structured, exporters encode them.
    const event = eventsOf(tracing.spansNamed(SPAN_BEFORE_TOOL)[0]!, EVENT_HOOK_ERROR)[0]!;
    expect(event.attributes[ATTR_EXCEPTION_MESSAGE]).toBe(`cannot parse ${NASTY}`);
  });
});

describe('hostile hook return values are hook errors, never crashes', () => {
  /** A Proxy on which every operation throws, including the ones `instanceof` and `await` perform. */
  function explosive(): object {
    const handler = new Proxy(
      {},
      {
        get: () => () => {
          throw new Error('trap');
        },
      },
    );
    return new Proxy({}, handler);
  }

  async function decide(value: () => unknown, failureMode: FailureMode = 'open'): Promise<{ result: unknown; kinds: unknown[] }> {
    tracing.reset();
    const hooks = new HookRunner({ tracer: tracing.tracer, failureMode, hooks: [{ name: 'hostile', beforeTool: () => value() as HookDecision }] });
    const result = await executeTool({ hooks, toolName: 'tool', args: {}, execute: () => 'ran' }).catch((error: unknown) => error);
    const kinds = tracing.spans().flatMap((span) => eventsOf(span, EVENT_HOOK_ERROR)).map((event) => event.attributes[ATTR_HOOK_ERROR_KIND]);
    return { result, kinds };
  }

  it('a Proxy that throws on every trap is an invalid_decision (fail-open: the call runs)', async () => {
    expect(await decide(explosive)).toEqual({ result: 'ran', kinds: ['invalid_decision'] });
  });

  it('a Proxy that throws on every trap is an invalid_decision (fail-closed: HookAbortError)', async () => {
    const { result, kinds } = await decide(explosive, 'closed');
    expect(kinds).toEqual(['invalid_decision']);
    expect(result).toBeInstanceOf(HookAbortError);
    expect((result as HookAbortError).reason).toMatch(/^hook hostile failed: hook "hostile" returned an unreadable decision/);
  });

  it('an async hook resolving to that Proxy rejects (awaiting it reads `then`): recorded as threw', async () => {
    expect(await decide(() => Promise.resolve().then(explosive))).toEqual({ result: 'ran', kinds: ['threw'] });
  });

  it.each([
    ['kind', () => ({ get kind(): never { throw new Error('getter'); } })],
    ['reason', () => ({ kind: 'abort', get reason(): never { throw new Error('getter'); } })],
    ['stubResult', () => ({ kind: 'skip', reason: 'r', get stubResult(): never { throw new Error('getter'); } })],
    ['newArgs', () => ({ kind: 'redirect', get newArgs(): never { throw new Error('getter'); } })],
    ['a newArgs property', () => ({ kind: 'redirect', newArgs: { get path(): never { throw new Error('getter'); } } })],
    ['newArgs as a Proxy', () => ({ kind: 'redirect', newArgs: explosive() })],
  ])('a decision whose %s getter throws is an invalid_decision', async (_what, value) => {
    expect(await decide(value)).toEqual({ result: 'ran', kinds: ['invalid_decision'] });
  });

  it('a frozen decision whose getter throws on the second read is read once, never crashing the runner', async () => {
    let reads = 0;
    const frozen = Object.freeze({
      kind: 'abort',
      get reason(): string {
        reads += 1;
        if (reads > 1) throw new Error('second read');
        return 'first read';
      },
    });
    const events: ToolHookEvent[] = [];
    const hooks = new HookRunner({
      tracer: tracing.tracer,
      hooks: [{ name: 'tricky', beforeTool: () => frozen as HookDecision }, { name: 'observer', onEvent: (e) => void events.push(e) }],
    });
    const result = await executeTool({ hooks, toolName: 'tool', args: {}, execute: () => 'ran' }).catch((error: unknown) => error);
    // Whatever the getter does, the caller sees a HookAbortError or the tool's result, never the getter's error.
    expect(result === 'ran' || result instanceof HookAbortError).toBe(true);
    expect(events.filter((event) => event.type === 'tool')).toHaveLength(1);
  });

  it('a frozen Skip literal without stubResult still gets the default stub', async () => {
    expect(await decide(() => Object.freeze({ kind: 'skip', reason: 'cached' }))).toEqual({ result: '', kinds: [] });
  });

  it('a hook that throws a Proxy that throws on every trap is still recorded as a hook error', async () => {
    const { result, kinds } = await decide(() => {
      throw explosive();
    });
    expect(result).toBe('ran');
    expect(kinds).toEqual(['threw']);
    expect(warnings.some((warning) => warning.includes('[unprintable error]'))).toBe(true);
  });

  it('an Error whose message and stack getters throw is recorded', async () => {
    const error = new Error('hidden');
    // stack first: redefining it formats the stack trace, which reads the message
    Object.defineProperty(error, 'stack', { get: () => { throw new Error('no stack'); } });
    Object.defineProperty(error, 'message', { get: () => { throw new Error('no message'); } });
    const { result, kinds } = await decide(() => {
      throw error;
    });
    expect(result).toBe('ran');
    expect(kinds).toEqual(['threw']);
  });
});

describe('decision payloads that are promises, or whose `then` cannot be read, are invalid decisions (issue 29)', () => {
  /** A Proxy whose every read throws: reading its `then` (as adopting a promise does) rejects. */
  function unreadable(): object {
    return new Proxy({}, { get: () => { throw new Error('trap'); } });
  }
  const payloads: [string, () => unknown][] = [
    ['a promise that never settles', () => new Promise(() => undefined)],
    ['a promise that rejects', () => {
      const rejected = Promise.reject(new Error('upstream said no'));
      rejected.catch(() => undefined); // handled here: only the flow's adoption of it is under test
      return rejected;
    }],
    ['a thenable', () => ({ then: (resolve: (value: unknown) => void) => resolve('late') })],
    ['an object whose then getter throws', () => ({ get then(): never { throw new Error('then getter'); } })],
    ['a Proxy that throws on every read', unreadable],
  ];

  async function run(hook: ToolHook, failureMode: FailureMode): Promise<{ result: unknown; kinds: unknown[]; outcome: unknown }> {
    tracing.reset();
    const hooks = new HookRunner({ tracer: tracing.tracer, failureMode, approver: () => ({ approved: false }), hooks: [hook] });
    const result = await executeTool({ hooks, toolName: 'tool', args: {}, execute: () => 'ran' }).catch((error: unknown) => error);
    const kinds = tracing.spans().flatMap((span) => eventsOf(span, EVENT_HOOK_ERROR)).map((event) => event.attributes[ATTR_HOOK_ERROR_KIND]);
    return { result, kinds, outcome: tracing.outcomesOf('tool')[0] };
  }

  const cases = payloads.flatMap(([what, make]) => [
    { decision: 'a Replace result', what, hook: (): ToolHook => ({ name: 'p', afterTool: () => ({ kind: 'replace', result: make(), reason: '' }) as HookDecision }) },
    { decision: 'a Skip stubResult', what, hook: (): ToolHook => ({ name: 'p', beforeTool: () => ({ kind: 'skip', reason: 'r', stubResult: make() }) as HookDecision }) },
    { decision: 'an Ask deniedResult', what, hook: (): ToolHook => ({ name: 'p', beforeTool: () => ({ kind: 'ask', reason: 'r', deniedResult: make() }) as HookDecision }) },
  ]);

  it.each(cases)('$decision that is $what: fail-open, the call goes on as if the hook continued', async ({ hook }) => {
    expect(await run(hook(), 'open')).toEqual({ result: 'ran', kinds: ['invalid_decision'], outcome: 'completed' });
  });

  it.each(cases)('$decision that is $what: fail-closed, a HookAbortError naming the problem', async ({ hook }) => {
    const { result, kinds, outcome } = await run(hook(), 'closed');
    expect(kinds).toEqual(['invalid_decision']);
    expect(outcome).toBe('aborted');
    expect(result).toBeInstanceOf(HookAbortError);
    expect((result as HookAbortError).reason).toMatch(/^hook p failed: hook "p" returned an? (Replace|Skip|Ask) whose (result|stubResult|deniedResult) (is a promise|cannot be read)/);
  });

  it('an issued replaceResult() of an async redaction is refused, and the message says to await it', async () => {
    const redact = async (value: unknown): Promise<unknown> => value;
    const { result, kinds } = await run({ name: 'p', afterTool: (_t, _a, r) => replaceResult(redact(r)) }, 'open');
    expect({ result, kinds }).toEqual({ result: 'ran', kinds: ['invalid_decision'] });
    const message = tracing.spans().flatMap((span) => eventsOf(span, EVENT_HOOK_ERROR)).map((event) => event.attributes[ATTR_EXCEPTION_MESSAGE]);
    expect(message).toEqual([expect.stringMatching(/is a promise.*await it in the hook/)]);
  });

  it("runWithRetry turns any Replace result or denial result into text, even one that JSON and String() cannot", async () => {
    const hostile = Object.assign(Object.create(null) as object, { big: 1n });
    const replaced = new HookRunner({ tracer: tracing.tracer, hooks: [{ name: 'r', afterTool: () => replaceResult(hostile) }] });
    await expect(runWithRetry(() => 'text', { toolName: 't', args: {}, hooks: replaced, note: 'n' })).resolves.toBe('[object Object]');
    const denied = new HookRunner({ tracer: tracing.tracer, approver: () => ({ approved: false }), hooks: [{ name: 'a', beforeTool: () => ask('ok?', { deniedResult: hostile }) }] });
    await expect(runWithRetry(() => 'text', { toolName: 't', args: {}, hooks: denied, note: 'n' })).resolves.toBe('[object Object]');
    // Readable as a value (its then is undefined), yet every conversion to text throws.
    const opaque = new Proxy({}, { get: (_target, key) => { if (key === 'then') return undefined; throw new Error('trap'); } });
    const opaqueHooks = new HookRunner({ tracer: tracing.tracer, hooks: [{ name: 'r', afterTool: () => replaceResult(opaque) }] });
    await expect(runWithRetry(() => 'text', { toolName: 't', args: {}, hooks: opaqueHooks, note: 'n' })).resolves.toBe('[object]');
  });
});

describe('tool names', () => {
  it('a 100,000-character tool name is the caller\'s: recorded as given, and the call works', async () => {
    const name = 't'.repeat(100_000);
    const hooks = new HookRunner({ tracer: tracing.tracer, hooks: [{ name: 'noop', beforeTool: () => undefined }] });
    expect(await executeTool({ hooks, toolName: name, args: {}, execute: (_args, ctx) => ctx.toolName.length })).toBe(100_000);
    const root = tracing.spansNamed(`${SPAN_EXECUTE_TOOL_PREFIX} ${name}`);
    expect(root).toHaveLength(1);
    expect(root[0]!.attributes[ATTR_GEN_AI_TOOL_NAME]).toBe(name);
  });
});
