/**
 * A program under a real pseudo-terminal: a detached tmux session on a private socket, driven by
 * `send-keys` and read with `capture-pane`, as a person at a terminal would type and see. Always
 * call {@link TmuxSession.stop}: it kills the session's server and everything it started.
 *
 * @example
 * ```ts
 * const session = await startTmux(requirePrograms(ctx, ['tmux']).tmux, ['npx', 'tsx', 'examples/approval.ts']);
 * try {
 *   await session.waitForText('approve?');
 *   await session.sendKeys('y', 'Enter');
 * } finally {
 *   await session.stop();
 * }
 * ```
 */
import { randomUUID } from 'node:crypto';
import { pollUntil } from './poll.js';
import { runProgram } from './programs.js';

/** A started tmux session. */
export interface TmuxSession {
  /** Types keys as tmux names them (`'y'`, `'Enter'`, `'C-c'`); literal text is typed as given. */
  sendKeys(...keys: string[]): Promise<void>;
  /** The screen and scrollback, as plain text. */
  screen(): Promise<string>;
  /** Waits until the screen contains `text` `count` times (default once); returns the screen. */
  waitForText(text: string, options?: { count?: number; timeoutMs?: number }): Promise<string>;
  /** Kills the session and its server. */
  stop(): Promise<void>;
}

/** Starts `command` in a fresh 160×50 tmux session on its own socket, from `cwd`, with `env` added. */
export async function startTmux(
  tmux: string,
  command: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<TmuxSession> {
  const socket = `toolhooks-test-${randomUUID()}`;
  const base = ['-L', socket, '-f', '/dev/null'];
  const run = async (args: string[]): Promise<string> => {
    const result = await runProgram(tmux, [...base, ...args], { cwd: options.cwd });
    if (result.code !== 0) throw new Error(`tmux ${args[0] ?? ''} failed: ${result.output}`);
    return result.stdout;
  };
  const env = Object.entries(options.env ?? {}).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  // `remain-on-exit` keeps the pane (and its last output) after the program ends.
  await run(['new-session', '-d', '-s', 'main', '-x', '160', '-y', '50', '-c', options.cwd, ...env, ...command]);
  await run(['set-option', '-t', 'main', 'remain-on-exit', 'on']);
  const screen = (): Promise<string> => run(['capture-pane', '-p', '-J', '-S', '-1000', '-t', 'main']);
  return {
    sendKeys: async (...keys) => void (await run(['send-keys', '-t', 'main', ...keys])),
    screen,
    waitForText: (text, { count = 1, timeoutMs = 30_000 } = {}) => {
      let last = '';
      return pollUntil(
        `"${text}" on the terminal${count > 1 ? ` ${count} times` : ''}`,
        async () => {
          last = await screen();
          return last.split(text).length - 1 >= count ? last : undefined;
        },
        { timeoutMs, label: 'terminal', output: () => last },
      );
    },
    stop: async () => {
      await runProgram(tmux, [...base, 'kill-server']);
    },
  };
}
