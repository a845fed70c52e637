/**
 * The AI SDK approval flow's pieces called the way the SDK calls them (`toolApproval(options)`, a
 * tool's `execute(input, { toolCallId, messages })`, `onStart(event)`), for the cases an SDK run
 * rarely reaches: tools the set did not hook, a tool's own needsApproval, an Ask without a reason,
 * denials the flow must not record, and the bound on decisions held for an execute.
 */
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { HookRunner, ask, redirect } from '../../../../src/index.js';
import { withHooks } from '../../../../src/adapters/ai/index.js';
import { ATTR_OUTCOME } from '../../../../src/telemetry/semconv.js';
import { createTestTracing } from '../../../support/tracing.js';

const tracing = createTestTracing();
beforeEach(() => tracing.reset());

function setup(reason = 'needs a person', own?: unknown) {
  const send = vi.fn(async () => 'sent');
  const gate = vi.fn(() => ask(reason));
  const runner = new HookRunner({ hooks: [{ name: 'gate', tools: ['send_email'], beforeTool: gate }], tracer: tracing.tracer });
  const tools = { send_email: { inputSchema: {}, execute: send, ...(own === undefined ? {} : { needsApproval: own }) }, weather: { inputSchema: {}, execute: async () => 'sun' } };
  return { hooked: withHooks(tools, runner, { approvals: 'framework' }), send, gate };
}

const call = (toolName: string, toolCallId = 'c1') => ({ toolCall: { toolCallId, toolName, input: { to: 'a' } }, messages: [] });

describe('toolApproval', () => {
  it('answers for a tool the set did not hook as its own needsApproval would', async () => {
    const { hooked } = setup();
    const tools = { deploy: { needsApproval: vi.fn(async (_input: unknown, options: { context?: unknown }) => options.context === 'prod') }, lint: { needsApproval: false }, read: {} };
    const options = (name: string) => ({ ...call(name), tools, toolsContext: { deploy: 'prod' } });
    expect(await hooked.toolApproval(options('deploy'))).toBe('user-approval');
    expect(await hooked.toolApproval(options('lint'))).toBe('not-applicable');
    expect(await hooked.toolApproval(options('read'))).toBe('not-applicable');
    expect(await hooked.toolApproval(call('unknown'))).toBe('not-applicable');
  });

  it('a hooked tool’s own needsApproval asks without running the hooks (they run in the continuation)', async () => {
    const own = setup('x', vi.fn(async () => true));
    expect(await own.hooked.toolApproval(call('send_email'))).toBe('user-approval');
    expect(own.gate).not.toHaveBeenCalled();
    expect(tracing.spansNamed('execute_tool send_email')).toHaveLength(0);
  });

  it('under a sampled-out parent the asking call starts no span and still asks', async () => {
    const { hooked } = setup();
    const dropped = trace.wrapSpanContext({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.NONE });
    const status = await context.with(trace.setSpan(context.active(), dropped), () => hooked.toolApproval(call('send_email')));
    expect(status).toEqual({ type: 'user-approval', reason: 'needs a person' });
    expect(tracing.spansNamed('execute_tool send_email')).toHaveLength(0);
  });
});

describe('execute after the check', () => {
  it('runs the hooks itself when no check came first, and only the newest 1,000 held decisions are kept', async () => {
    const weather = vi.fn(() => undefined);
    const runner = new HookRunner({ hooks: [{ name: 'audit', tools: ['weather'], beforeTool: weather }], tracer: tracing.tracer });
    const execute = async (_input: unknown, _options: unknown) => 'sun';
    const { tools, toolApproval } = withHooks({ weather: { inputSchema: {}, execute } }, runner, { approvals: 'framework' });
    expect(await tools.weather.execute({ city: 'Oslo' }, {})).toBe('sun');
    expect(weather).toHaveBeenCalledTimes(1);
    for (let i = 0; i <= 1_000; i++) await toolApproval(call('weather', `w${i}`));
    expect(weather).toHaveBeenCalledTimes(1_002);
    // The checked input again, as a copy with the same JSON: held, no second run.
    await tools.weather.execute({ to: 'a' }, { toolCallId: 'w1000' });
    expect(weather).toHaveBeenCalledTimes(1_002);
    await tools.weather.execute({ to: 'a' }, { toolCallId: 'w0' }); // dropped: runs the hooks again
    expect(weather).toHaveBeenCalledTimes(1_003);
  });

  it('two runs whose providers number their calls alike each execute with the decision held for their own input', async () => {
    const policy = vi.fn((_tool: string, args: { city?: unknown }) => (args.city === 'Oslo' ? redirect({ newArgs: { city: 'Bergen' } }) : undefined));
    const runner = new HookRunner({ hooks: [{ name: 'policy', tools: ['weather'], beforeTool: policy }], tracer: tracing.tracer });
    const ran: unknown[] = [];
    const execute = async (input: { city: string }, _options: unknown) => (ran.push(input.city), `sun in ${input.city}`);
    const { tools, toolApproval } = withHooks({ weather: { inputSchema: {}, execute } }, runner, { approvals: 'framework' });
    const oslo = { city: 'Oslo' };
    const paris = { city: 'Paris' };
    // Both runs check their "call_0" before either executes it, as two concurrent steps can.
    await toolApproval({ toolCall: { toolCallId: 'call_0', toolName: 'weather', input: oslo }, messages: [] });
    await toolApproval({ toolCall: { toolCallId: 'call_0', toolName: 'weather', input: paris }, messages: [] });
    expect(await tools.weather.execute(paris, { toolCallId: 'call_0' })).toBe('sun in Paris');
    expect(await tools.weather.execute(oslo, { toolCallId: 'call_0' })).toBe('sun in Bergen');
    expect(ran).toEqual(['Paris', 'Bergen']);
    // Each call's hooks ran once, in its check.
    expect(policy).toHaveBeenCalledTimes(2);
  });
});

describe('onStart', () => {
  const conversation = (toolName: string, approved: boolean) => [
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName, input: {} }, { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' }] },
    { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'ap1', approved }] },
  ];

  it('records nothing for a tool it did not hook, an approved call, a repeated denial, or an event without messages', async () => {
    const { hooked } = setup();
    await hooked.onStart({ messages: conversation('weather_station', false) });
    await hooked.onStart({ messages: conversation('send_email', true) });
    await hooked.onStart({});
    expect(tracing.spans()).toHaveLength(0);
    await hooked.onStart({ messages: conversation('send_email', false) });
    expect(tracing.spansNamed('execute_tool send_email').map((span) => span.attributes[ATTR_OUTCOME])).toEqual(['denied']);
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    await hooked.onStart({ messages: conversation('send_email', false) });
    expect(warned).toHaveBeenCalledTimes(1);
    warned.mockRestore();
    expect(tracing.spansNamed('execute_tool send_email')).toHaveLength(1);
  });

  it('the continuation check of a denied call answers not-applicable: the SDK denies it itself', async () => {
    const { hooked, gate } = setup();
    expect(await hooked.toolApproval({ ...call('send_email'), messages: conversation('send_email', false) })).toBe('not-applicable');
    expect(gate).not.toHaveBeenCalled();
  });
});
