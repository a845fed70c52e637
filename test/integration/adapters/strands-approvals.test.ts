/**
 * toolhooks/strands with `approvals: 'framework'`: an Ask becomes a Strands interrupt; the agent stops
 * with `stopReason: 'interrupt'`, and the invocation carrying the app's `interruptResponse` runs the
 * call with the answer — in the same Agent, or in a new one restored from a snapshot (as another
 * process would). Offline, with a scripted model.
 */
import { Agent, FunctionTool } from '@strands-agents/sdk';
import { describe, expect, it, vi } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { ask, redirect } from '../../../src/index.js';
import { toolhooksHooks } from '../../../src/adapters/strands/index.js';
import type { ToolhooksInterruptReason } from '../../../src/adapters/strands/index.js';
import { ATTR_APPROVAL_OUTCOME, ATTR_OUTCOME, SPAN_APPROVAL } from '../../../src/telemetry/semconv.js';
import type { StrandsTurn } from '../../support/strands-model.js';
import { ScriptedModel } from '../../support/strands-model.js';
import { useTestTracing } from '../../support/tracing.js';

const tracing = useTestTracing();

const schema = { type: 'object' as const, properties: { cmd: { type: 'string' as const } }, required: ['cmd'] };

function makeAgent(hooks: ToolHook[], turns: readonly StrandsTurn[]) {
  const model = new ScriptedModel(turns);
  const shell = vi.fn((input: unknown) => `host ran ${(input as { cmd: string }).cmd}`);
  const handler = toolhooksHooks(tracing.runner(hooks), { approvals: 'framework' });
  const agent = new Agent({
    model,
    printer: false,
    tools: [new FunctionTool({ name: 'shell', description: 'Run a command', inputSchema: schema, callback: shell })],
    interventions: [handler],
  });
  return { model, shell, agent };
}

const gate: ToolHook = { name: 'gate', tools: ['shell'], beforeTool: () => ask('needs a human') };
const turns: StrandsTurn[] = [{ calls: [{ id: 'q1', name: 'shell', input: { cmd: 'rm build' } }] }, { text: 'done' }];

describe("toolhooksHooks with approvals: 'framework' (Strands interrupts)", () => {
  it('the agent stops with the Ask as an interrupt; the response resumes the call in the same Agent', async () => {
    const { model, shell, agent } = makeAgent([gate], turns);
    const stopped = await agent.invoke('go');
    expect(stopped.stopReason).toBe('interrupt');
    expect(stopped.interrupts).toHaveLength(1);
    const interrupt = stopped.interrupts![0]!;
    expect((interrupt.reason as unknown as ToolhooksInterruptReason).toolhooks).toMatchObject({ approvalId: 'q1', toolName: 'shell', args: { cmd: 'rm build' }, hook: 'gate', reason: 'needs a human' });
    expect(shell).not.toHaveBeenCalled();
    expect(tracing.outcomesOf('shell')).toEqual(['pending']);
    const asking = tracing.onlySpan('execute_tool shell');

    tracing.reset();
    const resumed = await agent.invoke([{ interruptResponse: { interruptId: interrupt.id, response: { approved: true } } }]);
    expect(resumed.stopReason).toBe('endTurn');
    expect(shell).toHaveBeenCalledTimes(1);
    expect(model.results.get('q1')).toEqual({ status: 'success', content: [{ text: 'host ran rm build' }] });
    const continuation = tracing.onlySpan('execute_tool shell');
    expect(continuation.attributes[ATTR_OUTCOME]).toBe('completed');
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes[ATTR_APPROVAL_OUTCOME]).toBe('approved');
    expect(continuation.links.map((link) => link.context.spanId)).toContain(asking.spanContext().spanId);
  });

  it('resumes in a new Agent restored from a snapshot (another process): a denial reaches the model, the tool never runs', async () => {
    const first = makeAgent([gate], turns);
    const stopped = await first.agent.invoke('go');
    const snapshot = JSON.parse(JSON.stringify(first.agent.takeSnapshot({ preset: 'session' }))) as Parameters<Agent['loadSnapshot']>[0];

    const second = makeAgent([gate], turns.slice(1));
    second.agent.loadSnapshot(snapshot);
    tracing.reset();
    await second.agent.invoke([{ interruptResponse: { interruptId: stopped.interrupts![0]!.id, response: 'no' } }]);
    expect(first.shell).not.toHaveBeenCalled();
    expect(second.shell).not.toHaveBeenCalled();
    expect(second.model.results.get('q1')?.content).toEqual([{ text: 'Tool call denied: no' }]);
    expect(tracing.onlySpan(SPAN_APPROVAL).attributes[ATTR_APPROVAL_OUTCOME]).toBe('denied');
    expect(tracing.outcomesOf('shell')).toEqual(['denied']);
  });

  it.each([
    ['false', false, 'Tool call denied: denied in the interrupt response', 'denied'],
    ["'yes'", 'yes', 'host ran rm build', 'completed'],
    ['{ approved: false, reason }', { approved: false, reason: 'not now' }, 'Tool call denied: not now', 'denied'],
    ['{ approved: true, args }', { approved: true, args: { cmd: 'rm build/tmp' } }, 'host ran rm build/tmp', 'completed'],
  ])('the interrupt response %s', async (_label, response, read, outcome) => {
    const { model, agent } = makeAgent([gate], turns);
    const stopped = await agent.invoke('go');
    tracing.reset();
    await agent.invoke([{ interruptResponse: { interruptId: stopped.interrupts![0]!.id, response } }]);
    expect(model.results.get('q1')?.content).toEqual([{ text: read }]);
    expect(tracing.outcomesOf('shell')).toEqual([outcome]);
  });

  it.each([
    ['a number', 7],
    ['approved args that are not an object', { approved: true, args: 'rm -rf /' }],
  ])('an interrupt response that is %s: the approval fails, the call is denied, the tool never runs', async (_label, response) => {
    const { model, shell, agent } = makeAgent([gate], turns);
    const stopped = await agent.invoke('go');
    await agent.invoke([{ interruptResponse: { interruptId: stopped.interrupts![0]!.id, response } }]);
    expect(shell).not.toHaveBeenCalled();
    expect(String((model.results.get('q1')?.content[0] as { text: string }).text)).toMatch(/^Tool call denied/);
  });

  it('a response that comes back to other arguments than the ones asked about is refused and recorded', async () => {
    let widen = false;
    const hooks: ToolHook[] = [{ name: 'widen', tools: ['shell'], beforeTool: () => (widen ? redirect({ newArgs: { cmd: 'rm -rf /' } }) : undefined) }, gate];
    const { model, shell, agent } = makeAgent(hooks, turns);
    const stopped = await agent.invoke('go');
    widen = true;
    tracing.reset();
    await agent.invoke([{ interruptResponse: { interruptId: stopped.interrupts![0]!.id, response: true } }]);
    expect(shell).not.toHaveBeenCalled();
    expect(model.results.get('q1')?.content).toEqual([{ text: 'Tool call denied: interrupt response refused: arguments_mismatch' }]);
    expect(tracing.outcomesOf('shell')).toEqual(['denied']);
  });
});
