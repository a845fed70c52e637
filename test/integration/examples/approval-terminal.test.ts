/**
 * examples/approval.ts (terminalApprover from toolhooks/node) under a real pseudo-terminal (tmux): a
 * person approves the first request, denies the second with a reason, and lets the third expire. The
 * screen shows each request with its secrets redacted, and each call's result says what happened.
 * Ctrl-C denies the pending call as `interrupted` and ends the program as Ctrl-C ends a Node app
 * (status 130); Ctrl-D denies it and every later one with `no terminal`; so does an input that is closed.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requirePrograms } from '../../support/programs.js';
import type { TmuxSession } from '../../support/tmux.js';
import { startTmux } from '../../support/tmux.js';

const root = resolve(import.meta.dirname, '../../..');
let session: TmuxSession | undefined;
afterEach(async () => {
  await session?.stop();
  session = undefined;
});

describe('the terminal approver example', () => {
  it('approves, denies and lets a request expire, at a real terminal', async (ctx) => {
    const { tmux } = requirePrograms(ctx, ['tmux']);
    const running = await startTmux(tmux, [resolve(root, 'node_modules/.bin/tsx'), 'examples/approval.ts'], {
      cwd: root,
      env: { APPROVAL_TIMEOUT_MS: '4000', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    });
    session = running;

    // 1: approve.
    let screen = await running.waitForText('approve?');
    expect(screen).toContain('tool:   send_email');
    expect(screen).toContain('"smtpPassword":"[REDACTED]"');
    expect(screen).not.toContain('hunter2');
    expect(screen).toContain('reason: outgoing mail leaves the company');
    await running.sendKeys('y', 'Enter');
    await running.waitForText('→ send_email: sent "weekly report" to ops@example.com');

    // 2: deny, with a reason.
    screen = await running.waitForText('approve?', { count: 2 });
    expect(screen).toContain('tool:   delete_file');
    await running.sendKeys('-l', 'n keep the backups');
    await running.sendKeys('Enter');
    await running.waitForText('→ delete_file: Tool call denied: keep the backups');

    // The ungated read runs without asking; 3: nobody answers.
    await running.waitForText('→ read_file: contents of README.md');
    screen = await running.waitForText('approve?', { count: 3 });
    expect(screen).not.toContain('sk-live-123');
    screen = await running.waitForText('→ send_email: Tool call denied: expired', { timeoutMs: 15_000 });
    expect(screen).toContain('(no answer in time: denied)');
    await running.waitForText('done');
  }, 60_000);

  /** The example in a shell that prints its exit status, as a person would see it after it stops. */
  const withStatus = ['sh', '-c', `"${resolve(root, 'node_modules/.bin/tsx')}" examples/approval.ts; echo "exit status $?"`];

  it('Ctrl-C denies the pending call as interrupted and stops the program as Ctrl-C does', async (ctx) => {
    const { tmux } = requirePrograms(ctx, ['tmux']);
    const running = await startTmux(tmux, withStatus, { cwd: root, env: { APPROVAL_TIMEOUT_MS: '60000', OTEL_EXPORTER_OTLP_ENDPOINT: '' } });
    session = running;
    await running.waitForText('approve?');
    await running.sendKeys('C-c');
    const screen = await running.waitForText('exit status');
    expect(screen).toContain('(interrupted: denied, and every approval after it)');
    // Node's default for SIGINT: the process ends by the signal, which a shell reports as 128 + 2.
    expect(screen).toContain('exit status 130');
    expect(screen).not.toContain('done');
    expect(screen).not.toContain('approve?\n');
  }, 60_000);

  it('Ctrl-D denies the pending call and every later one with "no terminal", at once', async (ctx) => {
    const { tmux } = requirePrograms(ctx, ['tmux']);
    const running = await startTmux(tmux, withStatus, { cwd: root, env: { APPROVAL_TIMEOUT_MS: '60000', OTEL_EXPORTER_OTLP_ENDPOINT: '' } });
    session = running;
    await running.waitForText('approve?');
    await running.sendKeys('C-d');
    const screen = await running.waitForText('exit status');
    expect(screen).toContain('(no terminal: denied, and every approval after it)');
    expect(screen).toContain('→ send_email: Tool call denied: no terminal');
    expect(screen).toContain('→ delete_file: Tool call denied: no terminal');
    expect(screen).toContain('→ read_file: contents of README.md');
    expect(screen.split('approve?').length - 1).toBe(1);
    expect(screen).toContain('exit status 0');
  }, 60_000);
});

describe('the terminal approver with no terminal at all', () => {
  it('denies every call with "no terminal" when stdin is closed, without waiting', () => {
    const result = spawnSync(resolve(root, 'node_modules/.bin/tsx'), ['examples/approval.ts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, APPROVAL_TIMEOUT_MS: '600000', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
      timeout: 60_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('→ send_email: Tool call denied: no terminal');
    expect(result.stdout).toContain('→ delete_file: Tool call denied: no terminal');
    expect(result.stdout).toContain('done');
  });
});
