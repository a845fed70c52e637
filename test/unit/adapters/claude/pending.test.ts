/**
 * The Claude adapter's calls between PreToolUse and PostToolUse: each settles once, with the tool's
 * response or a ClaudeToolError saying why — a repeated id, a session that ended, no answer in time.
 */
import { describe, expect, it, vi } from 'vitest';
import { PendingCalls } from '../../../../src/adapters/claude/pending.js';
import { ClaudeToolError } from '../../../../src/adapters/claude/tool-error.js';

const done = () => Promise.resolve('hooked call settled');

describe('PendingCalls', () => {
  it("settles a call with the tool's response and hands back the hooked call's promise", async () => {
    const calls = new PendingCalls(0);
    const waiting = calls.wait('tu_1', 'Bash', 's1', done);
    expect(calls.size).toBe(1);
    await expect(calls.succeed('tu_1', { stdout: 'ok' })).resolves.toBe('hooked call settled');
    await expect(waiting).resolves.toEqual({ stdout: 'ok' });
    expect(calls.size).toBe(0);
  });

  it('ignores an id it does not know, and settles each call only once', async () => {
    const calls = new PendingCalls(0);
    expect(calls.succeed('unknown', 'x')).toBeUndefined();
    const waiting = calls.wait('tu_1', 'Bash', 's1', done);
    calls.succeed('tu_1', 'first');
    expect(calls.fail('tu_1', 'failed', 'late')).toBeUndefined();
    await expect(waiting).resolves.toBe('first');
  });

  it('fails a call with a ClaudeToolError naming the failure and the tool', async () => {
    const calls = new PendingCalls(0);
    const waiting = calls.wait('tu_1', 'mcp__fs__read', 's1', done);
    calls.fail('tu_1', 'permission_denied', 'the user said no');
    const error = await waiting.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ClaudeToolError);
    expect(error).toMatchObject({ name: 'ClaudeToolError', failure: 'permission_denied', toolName: 'mcp__fs__read', message: 'the user said no' });
  });

  it('fails the earlier call when PreToolUse comes again for the same id', async () => {
    const calls = new PendingCalls(0);
    const first = calls.wait('tu_1', 'Bash', 's1', done);
    const second = calls.wait('tu_1', 'Bash', 's1', done);
    await expect(first).rejects.toMatchObject({ failure: 'failed', message: expect.stringContaining('PreToolUse came again') });
    calls.succeed('tu_1', 'ok');
    await expect(second).resolves.toBe('ok');
  });

  it("fails only the ended session's calls, or every call when the session is unknown", async () => {
    const calls = new PendingCalls(0);
    const a = calls.wait('tu_a', 'Bash', 's1', done);
    const b = calls.wait('tu_b', 'Bash', 's2', done);
    calls.endSession('s1');
    await expect(a).rejects.toMatchObject({ failure: 'session_ended' });
    expect(calls.size).toBe(1);
    calls.endSession(undefined);
    await expect(b).rejects.toMatchObject({ failure: 'session_ended' });
  });

  it('fails a call that gets no PostToolUse within maxToolDurationMs', async () => {
    vi.useFakeTimers();
    try {
      const calls = new PendingCalls(1000);
      const waiting = calls.wait('tu_1', 'Bash', 's1', done);
      const settled = waiting.catch((thrown: unknown) => thrown);
      await vi.advanceTimersByTimeAsync(999);
      expect(calls.size).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await settled).toMatchObject({ failure: 'timeout', message: 'no PostToolUse within 1000 ms' });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
