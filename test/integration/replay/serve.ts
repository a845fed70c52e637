/**
 * Test helpers for replay: a one-route HTTP server on 127.0.0.1 (a URL source), and running the real
 * `toolhooks` CLI (src/cli/bin.ts through tsx) as a child process.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

/** A server answering `GET path` with `body` (JSON, with its Content-Length) and 404 for anything else. */
export interface ServedFile {
  readonly url: string;
  readonly base: string;
  stop(): Promise<void>;
}

export async function serveText(path: string, body: string): Promise<ServedFile> {
  return serve(path, (response) =>
    void response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body),
  );
}

/**
 * A server answering `GET path` with a chunked body (no Content-Length) that repeats `line` until the
 * client stops reading: a trace store streaming more than anyone should hold in memory.
 * `sent()` is how many bytes it wrote.
 */
export async function serveEndless(path: string, line: string): Promise<ServedFile & { sent(): number }> {
  let sent = 0;
  const served = await serve(path, (response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    const chunk = `${line}\n`.repeat(Math.max(1, Math.floor(65_536 / (line.length + 1))));
    const bytes = Buffer.byteLength(chunk);
    const write = (): void => {
      let more = true;
      while (more && !response.destroyed) {
        more = response.write(chunk);
        sent += bytes;
      }
      if (!response.destroyed) response.once('drain', write);
    };
    write();
  });
  return { ...served, sent: () => sent };
}

async function serve(path: string, answer: (response: ServerResponse) => void): Promise<ServedFile> {
  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && (request.url ?? '') === path) {
      answer(response);
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

const CLI = resolve(import.meta.dirname, '../../../src/cli/bin.ts');
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
