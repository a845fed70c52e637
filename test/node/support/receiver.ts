// A minimal HTTP endpoint on 127.0.0.1 that records what OTLP exporters send it and answers as told.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** The HTTP status to answer with from now on (default 200), and extra response headers. */
  answer(status: number, headers?: Record<string, string>): void;
  paths(): string[];
  /** JSON bodies received on `path` (for http/json exports). */
  json(path: string): unknown[];
  close(): Promise<void>;
}

/** Starts a receiver on `port` (0: any free port). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  let status = 200;
  let extraHeaders: Record<string, string> = {};
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', contentType: req.headers['content-type'], headers: req.headers, body: Buffer.concat(chunks) });
      const json = req.headers['content-type'] === 'application/json';
      res.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf', ...extraHeaders });
      res.end(json && status === 200 ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    requests,
    answer(code, headers = {}) {
      status = code;
      extraHeaders = headers;
    },
    paths: () => requests.map((r) => r.path),
    json: (path) => requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString('utf8')) as unknown),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port that was free a moment ago (nothing listens on it when this returns). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
