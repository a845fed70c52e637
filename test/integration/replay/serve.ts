/**
 * Test helpers for replay: a one-route HTTP server on 127.0.0.1 (a URL source), and running the real
 * `toolhooks` CLI (src/replay/cli.ts through tsx) as a child process.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

/** A server answering `GET path` with `body` (JSON) and 404 for anything else. */
export interface ServedFile {
  readonly url: string;
  readonly base: string;
  stop(): Promise<void>;
}

export async function serveText(path: string, body: string): Promise<ServedFile> {
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && (request.url ?? '') === path) {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    } else {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":{"message":"not found"}}');
    }
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}${path}`,
    base,
    stop: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const CLI = resolve(import.meta.dirname, '../../../src/replay/cli.ts');
// Resolved here: the CLI runs in other directories, where a bare `tsx` would not be found.
const TSX = import.meta.resolve('tsx');

/** What one CLI run wrote and how it exited. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `toolhooks ...args` in `cwd` (the source through tsx, as the built bin would run it). */
export function runToolhooks(args: readonly string[], cwd: string): Promise<CliRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}
