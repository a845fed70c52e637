/**
 * ExportTails: the exporters' retry timers and sockets are held until shutdown is over, then released
 * so that they keep no process alive. The SDK's transport is stood in for by an object of its shape.
 */
import { Agent as HttpAgent, createServer, get as httpGet } from 'node:http';
import type { Server } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExportTails } from '../../../src/node/export-tails.js';

/** An exporter of the SDK's shape: `_delegate._transport` is the retrying transport around `_transport`. */
function sdkShapedExporter(send: (data: unknown, timeoutMillis: number) => Promise<unknown>) {
  const retrying = {
    _transport: { send },
    retry(_data: unknown, _timeoutMillis: number, _inMillis: number): Promise<unknown> {
      throw new Error('the SDK retry, replaced by adopt()');
    },
  };
  return { exporter: { _delegate: { _transport: retrying } }, retrying };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ExportTails', () => {
  it("keeps retry timers ref'd while exports run, unrefs them at release and every one made after", async () => {
    const tails = new ExportTails();
    const send = vi.fn(async () => ({ status: 'success' }));
    const { exporter, retrying } = sdkShapedExporter(send);
    expect(tails.adopt(exporter)).toBe(exporter);
    const timers: NodeJS.Timeout[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      const timer = realSetTimeout(callback, ms);
      timers.push(timer);
      return timer;
    }) as typeof setTimeout);

    const first = retrying.retry('batch-1', 1000, 10);
    expect(timers[0]?.hasRef()).toBe(true);
    await expect(first).resolves.toEqual({ status: 'success' });
    expect(send).toHaveBeenCalledWith('batch-1', 1000);

    const pending = retrying.retry('batch-2', 1000, 50);
    tails.release();
    expect(timers[1]?.hasRef()).toBe(false);
    const later = retrying.retry('batch-3', 1000, 5);
    expect(timers[2]?.hasRef()).toBe(false);
    await Promise.all([pending, later]);
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('leaves an exporter of another shape as it is', () => {
    const tails = new ExportTails();
    const odd = { _delegate: { _transport: { retry: 'not a function' } } };
    expect(tails.adopt(odd)).toBe(odd);
    expect(odd._delegate._transport.retry).toBe('not a function');
    const hostile = new Proxy({}, { get: () => { throw new Error('trap'); } });
    expect(tails.adopt(hostile)).toBe(hostile);
  });

  describe('agents', () => {
    let server: Server | undefined;
    afterEach(async () => {
      await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
      server = undefined;
    });

    it('gives keep-alive agents (https for https:), whose sockets are tracked and released', async () => {
      const tails = new ExportTails();
      expect(tails.agentFactory('https:')).toBeInstanceOf(HttpsAgent);
      const agent = tails.agentFactory('http:');
      expect(agent).toBeInstanceOf(HttpAgent);
      server = createServer((_request, response) => response.end('ok'));
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      const get = (): Promise<string> =>
        new Promise((resolve, reject) => {
          httpGet({ host: '127.0.0.1', port: address.port, agent }, (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve(body));
          }).on('error', reject);
        });
      expect(await get()).toBe('ok');
      tails.release();
      expect(await get()).toBe('ok'); // released agents still work; their sockets just keep nothing alive
      agent.destroy();
    });
  });
});
