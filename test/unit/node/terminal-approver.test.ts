/**
 * terminalApprover() on in-memory streams: what it shows, how it reads y/n, and how a person stops it —
 * Ctrl-C (interrupted, then SIGINT for the app), Ctrl-D and a closed input (no terminal), no answer in
 * time. Each request through a HookRunner ends with the approval outcome a person would expect.
 * (On a real pseudo-terminal: test/integration/examples/approval-terminal.test.ts.)
 */
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ask, executeTool } from '../../../src/index.js';
import type { ApprovalRequest, ApprovalResponse } from '../../../src/index.js';
import { terminalApprover } from '../../../src/node/index.js';
import { ATTR_APPROVAL_OUTCOME } from '../../../src/telemetry/semconv.js';
import { pollUntil } from '../../support/poll.js';
import { createTestTracing } from '../../support/tracing.js';

/** A terminal: input and output that say they are TTYs, so readline reads keys (Ctrl-C, Ctrl-D). */
function terminal(tty = true): { input: PassThrough; output: PassThrough; screen(): string } {
  const input = Object.assign(new PassThrough(), tty ? { isTTY: true, setRawMode: () => input } : {});
  const output = Object.assign(new PassThrough(), tty ? { isTTY: true, columns: 160 } : {});
  let shown = '';
  output.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk));
  return { input, output, screen: () => shown };
}

function streams(term: { input: PassThrough; output: PassThrough }): { input: PassThrough; output: PassThrough } {
  return { input: term.input, output: term.output };
}

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: 'a-1',
    toolName: 'send_email',
    args: { to: 'ops@example.com', smtpPassword: 'hunter2' },
    redactedArgs: '{"to":"ops@example.com","smtpPassword":"[REDACTED]"}',
    reason: 'outgoing mail',
    hook: 'mail-gate',
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Waits until the prompt has been shown `count` times. */
function prompted(screen: () => string, count = 1): Promise<unknown> {
  return pollUntil('the prompt', async () => screen().split('approve?').length - 1 >= count, { timeoutMs: 5_000, label: 'screen', output: screen });
}

let kill: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  kill = vi.spyOn(process, 'kill').mockImplementation(() => true);
});
afterEach(() => kill.mockRestore());

describe('terminalApprover', () => {
  it('shows the hook, tool, redacted args and reason, escaped, and approves on y', async () => {
    const term = terminal();
    const approver = terminalApprover(streams(term));
    const answer = approver(request({ toolName: 'send\u001b[2Jmail' }));
    await prompted(term.screen);
    expect(term.screen()).toContain('? approval requested by mail-gate (a-1)');
    expect(term.screen()).toContain('tool:   send\\u001b[2Jmail');
    expect(term.screen()).toContain('args:   {"to":"ops@example.com","smtpPassword":"[REDACTED]"}');
    expect(term.screen()).not.toContain('hunter2');
    expect(term.screen()).toContain('reason: outgoing mail');
    term.input.write('y\r');
    expect(await answer).toEqual({ approved: true, approver: 'terminal' });
  });

  it('denies on n with the reason typed after it, and on anything else without one', async () => {
    const term = terminal(false);
    const approver = terminalApprover(streams(term));
    const first = approver(request());
    const second = approver(request({ id: 'a-2' }));
    await prompted(term.screen);
    term.input.write('n not today\n');
    expect(await first).toEqual({ approved: false, reason: 'not today', approver: 'terminal' });
    await prompted(term.screen, 2);
    term.input.write('\n');
    expect(await second).toEqual({ approved: false, approver: 'terminal' });
  });

  it('Ctrl-C denies the pending call as interrupted, every later one at once, and raises SIGINT once', async () => {
    const term = terminal();
    const approver = terminalApprover(streams(term));
    const pending = approver(request());
    const queued = approver(request({ id: 'a-2' }));
    await prompted(term.screen);
    term.input.write('\u0003');
    const interrupted: ApprovalResponse = { approved: false, reason: 'interrupted', approver: 'terminal' };
    expect(await pending).toEqual(interrupted);
    expect(await queued).toEqual(interrupted);
    expect(await approver(request({ id: 'a-3' }))).toEqual(interrupted);
    expect(term.screen()).toContain('(interrupted: denied, and every approval after it)');
    expect(term.screen().split('approve?')).toHaveLength(2);
    expect(kill.mock.calls).toEqual([[process.pid, 'SIGINT']]);
  });

  it('Ctrl-D, or an input that ends, denies with "no terminal", and every later call', async () => {
    for (const stop of [(input: PassThrough) => input.write('\u0004'), (input: PassThrough) => input.end()]) {
      const term = terminal();
      const approver = terminalApprover(streams(term));
      const pending = approver(request());
      await prompted(term.screen);
      stop(term.input);
      const none: ApprovalResponse = { approved: false, reason: 'no terminal', approver: 'terminal' };
      expect(await pending).toEqual(none);
      expect(await approver(request({ id: 'a-2' }))).toEqual(none);
      expect(kill).not.toHaveBeenCalled();
    }
  });

  it('denies at once when the input ended before anything was asked', async () => {
    const term = terminal(false);
    term.input.end();
    term.input.resume();
    await pollUntil('the input to end', async () => term.input.readableEnded, { timeoutMs: 5_000, label: 'screen', output: term.screen });
    expect(await terminalApprover(streams(term))(request())).toEqual({ approved: false, reason: 'no terminal', approver: 'terminal' });
  });

  it('denies after timeoutMs without an answer, and asks the next request all the same', async () => {
    const term = terminal(false);
    const approver = terminalApprover({ ...streams(term), timeoutMs: 20 });
    expect(await approver(request())).toEqual({ approved: false, reason: 'no answer in time', approver: 'terminal' });
    expect(term.screen()).toContain('(no answer in time: denied)');
    // Not stopped: the next request is shown and waits its own time.
    expect(await approver(request({ id: 'a-2' }))).toEqual({ approved: false, reason: 'no answer in time', approver: 'terminal' });
    expect(term.screen()).toContain('(a-2)');
  });

  it("ends the wait when the runner's signal aborts, and never shows a request whose wait already ended", async () => {
    const term = terminal(false);
    const approver = terminalApprover(streams(term));
    const controller = new AbortController();
    const first = approver(request({ signal: controller.signal }));
    const ended = new AbortController();
    ended.abort(new Error('expired while queued'));
    const queued = approver(request({ id: 'a-2', signal: ended.signal }));
    await prompted(term.screen);
    controller.abort(new Error('expired'));
    await expect(first).rejects.toThrow('expired');
    await expect(queued).rejects.toThrow('expired while queued');
    expect(term.screen()).not.toContain('(a-2)');
  });

  it('rejects an unknown option and a timeoutMs that is not a positive number, naming them', () => {
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31, '5' as unknown as number]) {
      expect(() => terminalApprover({ timeoutMs })).toThrow(/terminalApprover: timeoutMs must be a number of milliseconds from 1/);
    }
    expect(() => terminalApprover({ timeout: 5 } as never)).toThrow(/terminalApprover.*unknown option "timeout"; did you mean "timeoutMs"\?/);
    expect(() => terminalApprover({ input: 'stdin' as never })).toThrow(/terminalApprover: input must be/);
  });

  it('is recorded by the runner as denied when the person presses Ctrl-C', async () => {
    const term = terminal();
    const tracing = createTestTracing();
    const hooks = tracing.runner([{ name: 'mail-gate', beforeTool: () => ask('outgoing mail') }], { approver: terminalApprover(streams(term)) });
    const call = executeTool({ hooks, toolName: 'send_email', args: {}, execute: () => 'sent' });
    await prompted(term.screen);
    term.input.write('\u0003');
    expect(await call).toBe('Tool call denied: interrupted');
    expect(tracing.onlySpan('execute_tool send_email').attributes[ATTR_APPROVAL_OUTCOME]).toBe('denied');
  });
});
