/**
 * What an export leaves behind that could keep the process alive after shutdown() resolved: the OTLP
 * exporters' sockets (a hanging request holds one until its 10 s timeout) and their retry timers (the
 * SDK's retrying transport waits up to 5 s between attempts, on timers it does not unref). Exports begun
 * before shutdown still run against the exporters' full timeout; once shutdown is over (and has reported
 * what it dropped), nothing of them may hold the process: every socket and retry timer is unref'd, and
 * so is every one made later.
 *
 * The sockets come from an agent of ours (the exporters' documented `httpAgentOptions` factory). The
 * retry timers are made inside the SDK's transport, which offers no option: its `retry` method is
 * replaced on the instance, guarded, with one that keeps its timer where {@link ExportTails.release}
 * can unref it. If a later SDK changes that shape, nothing is replaced and the exporter works as shipped.
 * @internal
 */
import { Agent as HttpAgent } from 'node:http';
import type { AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';

/** Node's `Agent#createConnection`, which the type declarations leave out. */
type CreateConnection = (this: HttpAgent, options: unknown, callback?: unknown) => Socket | undefined;

interface RetryingTransport {
  retry(data: unknown, timeoutMillis: number, inMillis: number): Promise<unknown>;
  readonly _transport: { send(data: unknown, timeoutMillis: number): Promise<unknown> };
}

function retryingTransportOf(exporter: unknown): RetryingTransport | undefined {
  try {
    const transport = (exporter as { _delegate?: { _transport?: unknown } } | null)?._delegate?._transport;
    const candidate = transport as Partial<RetryingTransport> | undefined;
    if (typeof candidate?.retry === 'function' && typeof candidate._transport?.send === 'function') return candidate as RetryingTransport;
  } catch {
    // not the shape we know: leave the exporter as it is
  }
  return undefined;
}

/**
 * The sockets and retry timers of a set of OTLP exporters, released at the end of shutdown.
 *
 * @example
 * ```ts
 * const tails = new ExportTails();
 * const exporter = tails.adopt(new OTLPTraceExporter({ url, httpAgentOptions: tails.agentFactory }));
 * // ... after shutdown reported what it dropped:
 * tails.release();
 * ```
 */
export class ExportTails {
  #released = false;
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();

  /** The `httpAgentOptions` of every exporter: keep-alive agents (as the SDK's default) that track their sockets. */
  readonly agentFactory = (protocol: string): HttpAgent => {
    const options: AgentOptions = { keepAlive: true };
    const agent = protocol === 'https:' ? new HttpsAgent(options) : new HttpAgent(options);
    const create = (agent as unknown as { createConnection: CreateConnection }).createConnection;
    (agent as unknown as { createConnection: CreateConnection }).createConnection = (connectOptions, callback) => {
      const socket = create.call(agent, connectOptions, callback);
      if (socket !== undefined) this.#track(socket);
      return socket;
    };
    return agent;
  };

  /** Makes the exporter's retry timers releasable; returns the exporter. */
  adopt<E>(exporter: E): E {
    const transport = retryingTransportOf(exporter);
    if (transport === undefined) return exporter;
    const inner = transport._transport;
    transport.retry = (data, timeoutMillis, inMillis) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          this.#timers.delete(timer);
          inner.send(data, timeoutMillis).then(resolve, reject);
        }, inMillis);
        if (this.#released) timer.unref();
        else this.#timers.add(timer);
      });
    return exporter;
  }

  /** From now on, no socket or retry timer of these exporters keeps the process alive. */
  release(): void {
    this.#released = true;
    for (const socket of this.#sockets) socket.unref();
    for (const timer of this.#timers) timer.unref();
    this.#timers.clear();
  }

  #track(socket: Socket): void {
    if (this.#released) {
      socket.unref();
      return;
    }
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }
}
