/**
 * A real redis-server for the limits' system tests: started on a given 127.0.0.1 port with no
 * persistence (`--save '' --appendonly no`), so that a restart starts empty, and stopped by the test.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { pollUntil } from './poll.js';

export interface RedisServer {
  readonly port: number;
  /** What the server printed. */
  log(): string;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

/** Starts redis-server on `port` and waits until it answers PING. */
export async function startRedis(binary: string, port: number): Promise<RedisServer> {
  let output = '';
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await pollUntil(
      `redis-server to answer on 127.0.0.1:${port}`,
      async () => {
        const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        probe.on('error', () => undefined);
        try {
          await probe.connect();
          return (await probe.ping()) === 'PONG';
        } finally {
          probe.disconnect();
        }
      },
      { label: 'redis-server output', output: () => output, timeoutMs: 15_000 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, log: () => output, stop };
}
