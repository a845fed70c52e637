/**
 * LoggingHook's default destination when stdout is a pipe nobody reads (a supervisor that stopped
 * reading, `app | head -1`): logging must neither block the app nor hold up its exit. The app runs in
 * a child process whose stdout pipe this test never reads.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const fixture = fileURLToPath(new URL('./fixtures/unread-stdout.ts', import.meta.url));

/** Runs the fixture with an unread stdout; resolves when it exits or after `limitMs` (then kills it). */
function runUnread(mode: 'exit' | 'natural', limitMs = 10_000): Promise<{ exited: boolean; ms: number; stderr: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pause(); // nobody reads: the pipe fills up and stays full
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let doneAt: number | undefined;
    child.stderr.on('data', () => {
      if (doneAt === undefined && stderr.includes('done\n')) doneAt = performance.now();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      child.stdout.destroy();
      resolve({ exited: code === 0, ms: performance.now() - (doneAt ?? started), stderr });
    });
  });
}

describe('LoggingHook with a stdout pipe nobody reads', () => {
  it.each(['exit', 'natural'] as const)('the app is not blocked and ends at once (%s); dropped records are counted', async (mode) => {
    const { exited, ms, stderr } = await runUnread(mode);
    expect(exited, stderr).toBe(true);
    console.log(`unread ${mode}: ${Math.round(ms)} ms; ${stderr.match(/dropped \d+ log records?/)?.[0]}`);
    expect(ms).toBeLessThan(3_000); // from "done" to exit (a natural exit gives a stalled reader 1 s); a blocked destination never ends
    expect(stderr).toMatch(/TOOLHOOKS_LOG_DROPPED/);
    expect(stderr).toMatch(/LoggingHook dropped \d+ log records?: stdout was not being read/);
  }, 30_000);

  it('a reader that keeps up gets every record, whole and in order, and nothing is reported dropped', async () => {
    // 3,000 records in one synchronous burst (about 700 KB): more than the pipe holds, less than the buffer.
    const child = spawnSync(process.execPath, ['--import', 'tsx', fixture, 'natural', '3000'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const lines = child.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(3000);
    expect(lines.map((line) => (JSON.parse(line) as Record<string, string>)['gen_ai.tool.name'])).toEqual(Array.from({ length: 3000 }, (_, i) => `tool-${i}`));
    expect(child.stderr).not.toMatch(/TOOLHOOKS_LOG_DROPPED/);
  }, 30_000);
});
