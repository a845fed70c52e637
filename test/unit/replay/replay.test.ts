/**
 * replay(): which recorded calls it replays, what it counts as changed or unchanged, and how it checks
 * its options. (Sources over HTTP and the CLI as a process: test/integration/replay/replay.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolHook } from '../../../src/index.js';
import { HookRunner, abort } from '../../../src/index.js';
import { ReplayInputError, replay } from '../../../src/replay/index.js';
import { otlpTraffic } from '../../support/otlp-traffic.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('replay');
const source = join(dir, 'traffic.json');
writeFileSync(
  source,
  otlpTraffic([
    { tool: 'shell', args: { cmd: 'rm -rf /' }, callId: 'c1', before: { decision: 'abort', hook: 'gate' } },
    { tool: 'shell', args: { cmd: 'ls' }, callId: 'c2' },
    { tool: 'search', callId: 'c3' },
  ]),
);

const gate = (deny: RegExp): ToolHook => ({ name: 'gate', beforeTool: (_tool, args) => (deny.test(String(args.cmd)) ? abort('denied') : undefined) });

describe('replay', () => {
  it('replays only calls whose arguments were captured, and finds nothing changed under the recorded policy', async () => {
    const report = await replay({ hooks: [gate(/rm/)], source });
    expect(report).toEqual({ calls: 3, replayed: 2, notReplayable: 1, unchanged: 2, changed: [], flips: {}, loosened: 0, hookErrors: [] });
  });

  it('lists each call whose decision changed, with both decisions and the hook', async () => {
    const report = await replay({ hooks: new HookRunner([gate(/rm|ls/)]), source });
    expect(report.unchanged).toBe(1);
    expect(report.changed).toEqual([
      expect.objectContaining({ tool: 'shell', callId: 'c2', phase: 'before_tool', recorded: { decision: 'continue', hook: null }, replayed: { decision: 'abort', hook: 'gate', reason: 'denied' } }),
    ]);
  });

  it('reports a hook that fails during replay, without stopping', async () => {
    const broken: ToolHook = { name: 'broken', beforeTool: () => { throw new Error('policy bug'); } };
    const report = await replay({ hooks: [broken], source });
    expect(report.replayed).toBe(2);
    expect(report.hookErrors).toEqual([
      expect.objectContaining({ hook: 'broken', kind: 'threw', message: 'policy bug', phase: 'before_tool', callId: 'c1' }),
      expect.objectContaining({ callId: 'c2' }),
    ]);
  });

  it('checks its options: an object, known names, valid values', async () => {
    await expect(replay(undefined as never)).rejects.toThrow('replay(options) takes an object: replay({ hooks, source })');
    await expect(replay({ hooks: [gate(/x/)], source, maxBytes: 10 } as never)).rejects.toThrow(/maxSourceBytes/);
    await expect(replay({ hooks: [gate(/x/)], source, fetchTimeoutMs: 0 })).rejects.toThrow(/fetchTimeoutMs/);
  });

  it('checks the hooks before reading the source', async () => {
    const misspelt = [{ name: 'typo', beforeTool: () => undefined, timeout: 5 }] as unknown as ToolHook[];
    await expect(replay({ hooks: misspelt, source: join(dir, 'missing.json') })).rejects.toThrow(/^hooks cannot be run: .*did you mean "timeoutMs"/);
    await expect(replay({ hooks: 'policy' as never, source: join(dir, 'missing.json') })).rejects.toThrow(/^hooks must be an array of hooks, a HookRunner or runner options/);
    await expect(replay({ hooks: [gate(/x/)], source: join(dir, 'missing.json') })).rejects.toThrow(ReplayInputError);
  });
});
