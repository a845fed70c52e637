import { describe, expect, it } from 'vitest';
import { HookRunner, abort, ask, redirect, replaceResult, skip } from '../../../src/index.js';
import type { ToolHook } from '../../../src/index.js';
import { ReplayInputError } from '../../../src/replay/index.js';
import type { RecordedCall } from '../../../src/replay/recorded-calls.js';
import { ReplayRunner } from '../../../src/replay/replay-runner.js';
import { replayCalls } from '../../../src/replay/replay.js';

const T = '0af7651916cd43dd8448eb211c80319c';

function call(spanId: string, fields: Partial<RecordedCall>): RecordedCall {
  return {
    traceId: T,
    spanId,
    startNs: 0n,
    tool: 'shell',
    callId: `call_${spanId}`,
    arguments: '{"cmd":"ls"}',
    result: undefined,
    outcome: 'completed',
    effectiveTool: fields.tool ?? 'shell',
    before: { decision: 'continue', hook: null },
    after: undefined,
    executeMs: 0,
    attempt: 1,
    ...fields,
  };
}

function ids(report: { changed: readonly { spanId: string }[] }): string[] {
  return report.changed.map((change) => change.spanId);
}

describe('replaying recorded calls', () => {
  it('counts a call as changed when the decision or only the winning hook differs', async () => {
    const hooks: ToolHook[] = [
      { name: 'new-gate', beforeTool: (_tool, args) => (args['cmd'] === 'rm' ? abort('no') : undefined) },
      { name: 'cache-v2', beforeTool: (_tool, args) => (args['cmd'] === 'cat' ? skip('hit') : undefined) },
    ];
    const report = await replayCalls(
      new ReplayRunner(hooks),
      [
        call('0000000000000001', { arguments: '{"cmd":"ls"}' }),
        call('0000000000000002', { arguments: '{"cmd":"rm"}', before: { decision: 'abort', hook: 'old-gate' } }),
        call('0000000000000003', { arguments: '{"cmd":"cat"}', before: { decision: 'skip', hook: 'cache-v2' } }),
        call('0000000000000004', { arguments: undefined }),
        call('0000000000000005', { arguments: '[1,2]' }),
      ],
      undefined,
    );
    expect(report).toMatchObject({ calls: 5, replayed: 3, notReplayable: 2, unchanged: 2 });
    expect(report.changed).toEqual([
      {
        traceId: T,
        spanId: '0000000000000002',
        tool: 'shell',
        callId: 'call_0000000000000002',
        recorded: { decision: 'abort', hook: 'old-gate' },
        replayed: { decision: 'abort', hook: 'new-gate', reason: 'no' },
        phase: 'before_tool',
        flags: [],
      },
    ]);
  });

  it('reports a fail-closed hook that throws as the runner decides it (abort) and lists the failure', async () => {
    const hooks: ToolHook[] = [{ name: 'opa', failureMode: 'closed', beforeTool: () => { throw new Error('opa unreachable'); } }];
    const report = await replayCalls(new ReplayRunner(hooks), [call('0000000000000001', {})], undefined);
    expect(report.changed[0]?.replayed).toEqual({ decision: 'abort', hook: 'opa', reason: 'hook opa failed: opa unreachable' });
    expect(report.hookErrors).toEqual([
      { traceId: T, spanId: '0000000000000001', tool: 'shell', callId: 'call_0000000000000001', phase: 'before_tool', hook: 'opa', kind: 'threw', message: 'opa unreachable' },
    ]);
  });

  it('keeps runner options given as options (failureMode), which a HookRunner cannot give back', async () => {
    const hooks: ToolHook[] = [{ name: 'opa', beforeTool: () => { throw new Error('down'); } }];
    const open = await replayCalls(new ReplayRunner(new HookRunner({ hooks, failureMode: 'closed' })), [call('0000000000000001', {})], undefined);
    const closed = await replayCalls(new ReplayRunner({ hooks, failureMode: 'closed' }), [call('0000000000000001', {})], undefined);
    expect(open.unchanged).toBe(1);
    expect(closed.changed[0]?.replayed.decision).toBe('abort');
  });

  it('replays after_tool with the captured result (and a before Redirect\'s newArgs) only when before_tool is unchanged', async () => {
    const seen: unknown[] = [];
    const hooks: ToolHook[] = [
      { name: 'router', beforeTool: () => redirect({ newArgs: { cmd: 'ls -1' }, reason: 'plain' }) },
      {
        name: 'leak',
        afterTool: (tool, args, result) => {
          seen.push([tool, args, result]);
          return String(result).includes('KEY') ? abort('leak') : undefined;
        },
      },
    ];
    const report = await replayCalls(
      new ReplayRunner(hooks),
      [
        call('0000000000000001', { result: '"a KEY"', before: { decision: 'redirect', hook: 'router' }, effectiveTool: 'shell2' }),
        call('0000000000000002', { result: '"a KEY"' }),
      ],
      undefined,
    );
    expect(seen).toEqual([['shell2', { cmd: 'ls -1' }, 'a KEY']]);
    expect(report.changed.map((change) => [change.spanId, change.phase, change.recorded.decision, change.replayed.decision])).toEqual([
      ['0000000000000001', 'after_tool', 'continue', 'abort'],
      ['0000000000000002', 'before_tool', 'continue', 'redirect'],
    ]);
  });

  it('does not call hooks that only observe, and replays in recorded order', async () => {
    const events: string[] = [];
    const order: string[] = [];
    const hooks: ToolHook[] = [
      { name: 'logger', onEvent: (event) => events.push(event.type) },
      { beforeTool: (_tool, args) => { order.push(String(args['cmd'])); return abort('x'); } },
    ];
    const report = await replayCalls(
      new ReplayRunner(hooks),
      [call('0000000000000001', { arguments: '{"cmd":"a"}' }), call('0000000000000002', { arguments: '{"cmd":"b"}' })],
      undefined,
    );
    expect(events).toEqual([]);
    expect(order).toEqual(['a', 'b']);
    // The unnamed hook keeps its default name, index included, although the observer before it is muted.
    expect(ids(report)).toEqual(['0000000000000001', '0000000000000002']);
    expect(report.changed[0]?.replayed.hook).toBe('hook#1');
  });

  it('rejects hooks it cannot run with a ReplayInputError', () => {
    expect(() => new ReplayRunner({} as never)).toThrow(ReplayInputError);
    expect(() => new ReplayRunner([{ name: 'bad', beforeTool: 42 } as never])).toThrow(
      /^hooks cannot be run: HookRunner: hook "bad" \(index 0\): beforeTool must be a function, got number$/,
    );
  });

  it('rejects a hook whose only decision method is misspelt, as the runner would, instead of muting it', () => {
    expect(() => new ReplayRunner([{ name: 'policy', beforeToolCall: () => abort('no') } as never])).toThrow(ReplayInputError);
    expect(() => new ReplayRunner([{ name: 'policy', beforetool: () => abort('no'), onEvent: () => undefined } as never])).toThrow(/beforeTool/);
  });
});

describe('replaying a policy that now asks or replaces', () => {
  it('reports the Ask and the Replace, and never calls an approver', async () => {
    let asked = 0;
    const runner = new HookRunner({
      hooks: [
        { name: 'mail-gate', beforeTool: (tool) => (tool === 'send_email' ? ask('outgoing mail') : undefined) },
        { name: 'scrub', afterTool: (_tool, _args, result) => (String(result).includes('@') ? replaceResult('[email]', 'PII') : undefined) },
      ],
      approver: () => {
        asked += 1;
        return { approved: true };
      },
    });
    const report = await replayCalls(
      new ReplayRunner(runner),
      [
        call('0000000000000001', { tool: 'send_email', arguments: '{"to":"ops"}' }),
        call('0000000000000002', { tool: 'send_email', arguments: '{"to":"ops"}', before: { decision: 'ask', hook: 'mail-gate' } }),
        call('0000000000000003', { tool: 'lookup', arguments: '{}', result: '"ann@example.com"' }),
      ],
      undefined,
    );
    expect(asked).toBe(0);
    expect(report).toMatchObject({ calls: 3, replayed: 3, unchanged: 1 });
    expect(report.changed.map((change) => [change.spanId, change.phase, change.recorded, change.replayed])).toEqual([
      ['0000000000000001', 'before_tool', { decision: 'continue', hook: null }, { decision: 'ask', hook: 'mail-gate', reason: 'outgoing mail' }],
      ['0000000000000003', 'after_tool', { decision: 'continue', hook: null }, { decision: 'replace', hook: 'scrub', reason: 'PII' }],
    ]);
  });
});
