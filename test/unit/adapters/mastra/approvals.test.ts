/**
 * Mastra's framework approvals driven the way Mastra drives a hooked tool (`execute(inputData,
 * context)` with the run's id, the tool call id, `suspend` and the request context): approvals are kept
 * by run and call, so runs whose models number their calls alike never consume each other's, and a
 * continuation whose call differs from the one asked about is refused and recorded, never run.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookRunner, ask } from '../../../../src/index.js';
import { withHooks } from '../../../../src/adapters/mastra/index.js';
import { ATTR_APPROVAL_OUTCOME, ATTR_OUTCOME } from '../../../../src/telemetry/semconv.js';
import { useTestTracing } from '../../../support/tracing.js';

const tracing = useTestTracing();
afterEach(() => vi.restoreAllMocks());

type Execute = (input: unknown, context: unknown) => Promise<unknown>;

function setup() {
  const send = vi.fn(async ({ to }: { to: string }, _context?: unknown) => `sent to ${to}`);
  const runner = new HookRunner({ hooks: [{ name: 'gate', tools: ['send_email'], beforeTool: () => ask('mail needs a person') }], tracer: tracing.tracer });
  const tools = withHooks({ send_email: { description: 'Send mail', execute: send } }, runner, { approvals: 'framework' }) as unknown as { send_email: { execute: Execute } };
  return { send, execute: tools.send_email.execute };
}

/** One run of an agent: its id, its stored request context, and the tool call's context as Mastra passes it. */
function run(runId: string, toolCallId = 'call_0') {
  const stored = new Map<string, unknown>();
  const requestContext = { get: (key: string) => stored.get(key), set: (key: string, value: unknown) => void stored.set(key, value) };
  const suspend = vi.fn(async () => undefined);
  return { suspend, context: { runId, requestContext, agent: { toolCallId, suspend, resumeData: undefined } } };
}

const outcomes = () => tracing.spansNamed('execute_tool send_email').map((span) => [span.attributes[ATTR_OUTCOME], span.attributes[ATTR_APPROVAL_OUTCOME]]);

describe("Mastra approvals: 'framework'", () => {
  it('two runs waiting at once with the same call id and arguments, both approved: each runs once; a replay is refused', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { send, execute } = setup();
    const [one, two] = [run('run-1'), run('run-2')];
    expect(await execute({ to: 'team' }, one.context)).toBeUndefined();
    expect(await execute({ to: 'team' }, two.context)).toBeUndefined();
    expect([one.suspend.mock.calls.length, two.suspend.mock.calls.length]).toEqual([1, 1]);
    expect(await execute({ to: 'team' }, two.context)).toBe('sent to team');
    expect(await execute({ to: 'team' }, one.context)).toBe('sent to team');
    expect(send).toHaveBeenCalledTimes(2);
    // Run 1 resumed again (its approval replayed), after a third run asked under the same call id.
    const three = run('run-3');
    await execute({ to: 'team' }, three.context);
    expect(await execute({ to: 'team' }, one.context)).toBe('approval call_0 was already resolved; the tool does not run again');
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('a continuation with other arguments than the ones asked about is refused and recorded as denied, never run — also in another process', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { send, execute } = setup();
    const one = run('run-1');
    await execute({ to: 'team' }, one.context);
    const refused = 'approval call_0 was given for another call (other arguments or another tool); the tool does not run';
    expect(await execute({ to: 'attacker' }, one.context)).toBe(refused);
    // Another process: a fresh hooked set, the run's stored request context (the mark) read back.
    const other = setup();
    expect(await other.execute({ to: 'attacker' }, one.context)).toBe(refused);
    expect(send).not.toHaveBeenCalled();
    expect(other.send).not.toHaveBeenCalled();
    // The call that was asked about still runs, once.
    expect(await execute({ to: 'team' }, one.context)).toBe('sent to team');
    expect(outcomes()).toEqual([
      ['pending', 'pending'],
      ['denied', 'denied'],
      ['denied', 'denied'],
      ['completed', 'approved'],
    ]);
  });

  it('an approved call that suspended itself is resumed as the approved call only with the arguments asked about', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { send, execute } = setup();
    const one = run('run-1');
    await execute({ to: 'team' }, one.context);
    const resumed = { ...one.context, agent: { ...one.context.agent, resumeData: { step: 2 } } };
    expect(await execute({ to: 'attacker' }, resumed)).toBe('approval call_0 was given for another call (other arguments or another tool); the tool does not run');
    expect(await execute({ to: 'team' }, resumed)).toBe('sent to team');
    expect(send).toHaveBeenCalledTimes(1);
  });
});
