/**
 * examples/approval.ts under a real pseudo-terminal (tmux): a person approves the first request,
 * denies the second with a reason, and lets the third expire. The screen shows each request with its
 * secrets redacted, and each call's result says what happened.
 */
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
});
