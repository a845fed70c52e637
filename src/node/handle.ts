/**
 * The handle startTelemetry() returns: its status, `ready`, flush, and a shutdown that is bounded in time
 * and says once what it had to drop.
 * @internal
 */
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { report, warnNow, warnVisibly } from '../telemetry/warn-once.js';
import type { OutstandingDrops } from './drop-reporter.js';
import type { ExportTails } from './export-tails.js';
import type { SignalExport } from './exporters.js';
import type { OpenSpans } from './open-spans.js';
import { outputFlushed } from './stdout.js';
import type { TelemetryHandle, TelemetryStatus } from './types.js';

/** The parts of a started SDK that the handle drives. */
export interface RunningParts {
  readonly sdk: NodeSDK;
  readonly ready: Promise<void>;
  readonly exports: readonly SignalExport[];
  /** SDK providers to flush (the API's provider types do not declare `forceFlush`). */
  readonly flushables: readonly (object | undefined)[];
  /**
   * Flushed before the SDK shuts down: the console mode's tracer provider, whose simple span processor
   * does not wait at shutdown for exports held back until resource attributes settle.
   */
  readonly flushFirst?: object;
  readonly shutdownTimeoutMillis: number;
  /** Spans started and not ended: shutdown waits for them (half its time at most). */
  readonly openSpans?: OpenSpans;
  /** The exporters' sockets and retry timers, released once shutdown is over. */
  readonly tails?: ExportTails;
  /** Unregisters the globals startTelemetry() registered. */
  readonly unregister: () => void;
}

/** The handle of a started SDK. Deliberately not a thenable: `await startTelemetry()` yields the handle. */
export class RunningTelemetry implements TelemetryHandle {
  readonly status = 'started' as const;
  readonly ready: Promise<void>;
  readonly #parts: RunningParts;
  #shutdown: Promise<void> | undefined;

  readonly #onExit = (): void => this.#exitedWithoutShutdown();

  constructor(parts: RunningParts) {
    this.#parts = parts;
    this.ready = parts.ready;
    process.once('exit', this.#onExit);
  }

  /** The process is exiting and shutdown() was never called: what is still queued is lost; say so. */
  #exitedWithoutShutdown(): void {
    const lost: string[] = [];
    for (const signal of this.#parts.exports) {
      const queued = signal.gate?.held ?? 0;
      if (queued > 0) lost.push(`${queued} ${signal.reporter.unit}`);
    }
    const open = this.#parts.openSpans?.count ?? 0;
    if (open > 0) lost.push(`${open} spans still open`);
    if (lost.length === 0) return;
    warnNow(
      `toolhooks: the process exited without await telemetry.shutdown(): ${lost.join(', ')} were not exported. ` +
        "Call it before exiting (process.once('beforeExit', () => telemetry.shutdown()), or in your SIGTERM handler)",
      'TOOLHOOKS_NO_SHUTDOWN',
    );
  }

  async forceFlush(): Promise<void> {
    if (this.#shutdown !== undefined) return;
    await this.#flushProviders();
  }

  shutdown(): Promise<void> {
    this.#shutdown ??= this.#stop();
    return this.#shutdown;
  }

  async #flushProviders(): Promise<void> {
    const results = await Promise.allSettled(this.#parts.flushables.map(flush));
    for (const result of results) {
      if (result.status === 'rejected') report('warn', 'toolhooks: telemetry flush failed', result.reason);
    }
  }

  async #stop(): Promise<void> {
    process.removeListener('exit', this.#onExit);
    const { sdk, exports, shutdownTimeoutMillis } = this.#parts;
    const started = performance.now();
    // Calls still running get half the time to end: what ends now is delivered with the rest.
    const stillOpen = (await this.#parts.openSpans?.settled(Math.floor(shutdownTimeoutMillis / 2))) ?? 0;
    const remaining = Math.max(1, Math.round(shutdownTimeoutMillis - (performance.now() - started)));
    for (const signal of exports) signal.beginShutdown();
    const flushFirst = this.#parts.flushFirst;
    const stopped = (async () => {
      await flush(flushFirst);
      await sdk.shutdown();
    })().then(
      () => true,
      (error: unknown) => {
        report('warn', 'toolhooks: telemetry shutdown failed', error);
        return true;
      },
    );
    const inTime = await withDeadline(stopped, remaining);
    if (!inTime) {
      for (const signal of exports) {
        signal.reporter.abandon(signal.gate?.held ?? 0, `was not exported within shutdownTimeoutMillis (${shutdownTimeoutMillis} ms)`);
      }
    }
    const dropped: { drops: OutstandingDrops; target: string }[] = [];
    for (const signal of exports) {
      const drops = signal.reporter.reportOutstanding();
      if (drops !== undefined && drops.dropped > 0) dropped.push({ drops, target: signal.target });
    }
    if (dropped.length > 0 || stillOpen > 0) warnVisibly(droppedAtShutdown(dropped, stillOpen), 'TOOLHOOKS_TELEMETRY_DROPPED');
    await withDeadline(outputFlushed(), shutdownTimeoutMillis);
    // Nothing of ours may keep the process alive now: exports begun before shutdown are given up.
    for (const signal of exports) signal.release();
    this.#parts.tails?.release();
    this.#parts.unregister();
  }
}

/** The inactive handle of a `disabled` or `existing` call. */
export function inactive(status: Exclude<TelemetryStatus, 'started'>): TelemetryHandle {
  return { status, ready: Promise.resolve(), forceFlush: () => Promise.resolve(), shutdown: () => Promise.resolve() };
}

/** Calls `forceFlush()` on an SDK provider; the API's provider types do not declare it. */
function flush(provider: object | undefined): Promise<unknown> | undefined {
  const method = (provider as { forceFlush?: unknown } | undefined)?.forceFlush;
  return typeof method === 'function' ? (method as () => Promise<unknown>).call(provider) : undefined;
}

/** Whether `promise` settled within `millis`; the timer does not keep the process alive. */
async function withDeadline(promise: Promise<unknown>, millis: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), millis);
    timer.unref();
  });
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One line: what each signal dropped, why, and where it was going, e.g. `toolhooks: telemetry dropped at
 * shutdown: 3 spans (connection refused at http://localhost:4318/v1/traces: connect ECONNREFUSED
 * 127.0.0.1:4318); 4 log records (…). …`.
 */
function droppedAtShutdown(dropped: readonly { drops: OutstandingDrops; target: string }[], stillOpen: number): string {
  const parts = dropped.map(({ drops, target }) => `${drops.dropped} ${drops.unit} (${plainReason(drops.reason)} at ${target})`);
  if (stillOpen > 0) parts.push(`${stillOpen} spans of calls still running (they had not ended when shutdown stopped waiting for them)`);
  return (
    `toolhooks: telemetry dropped at shutdown: ${parts.join('; ')}. ` +
    'Start a collector there, point OTEL_EXPORTER_OTLP_ENDPOINT at one, or use startTelemetry({ console: true })'
  );
}

/** The reason in plain words first, the exporter's own words after. */
function plainReason(reason: string): string {
  if (/ECONNREFUSED/.test(reason)) return `connection refused: ${reason}`;
  if (/ENOTFOUND|EAI_AGAIN/.test(reason)) return `host not found: ${reason}`;
  if (/timed out|ETIMEDOUT/i.test(reason)) return `no answer in time: ${reason}`;
  return reason;
}
