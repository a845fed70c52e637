/**
 * Free loopback ports for the servers and programs tests start. Each is a port that was free a moment
 * ago on 127.0.0.1: nothing listens on it when this resolves, and the caller binds it next.
 */
import { createServer } from 'node:net';
import type { Server } from 'node:net';

/**
 * One free port on 127.0.0.1.
 *
 * @example
 * ```ts
 * await startTelemetry({ prometheus: { port: await freePort() } });
 * ```
 */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('no port from listen(0)');
  return port;
}

/** `count` different free ports on 127.0.0.1 (held together while they are chosen, so all differ). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: count }, listenAnywhere));
  const ports = servers.map((server) => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port from listen(0)');
    return address.port;
  });
  await Promise.all(servers.map((server) => new Promise<void>((done) => server.close(() => done()))));
  return ports;
}

async function listenAnywhere(): Promise<Server> {
  const server = createServer();
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  return server;
}
