/**
 * The handle startTelemetry() returns: its status, `ready`, flush, and a shutdown that is bounded in time
 * and says once what it had to drop.
 * @internal
 */
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { report, warnVisibly } from '../telemetry/warn-once.js';
import type { OutstandingDrops } from './drop-reporter.js';
import type { SignalExport } from './exporters.js';
import { outputFlushed } from './stdout.js';

/**
 * What became of a {@link startTelemetry} call:
 * - `started`: it registered its own providers and exports;
 * - `existing`: a tracer provider was already registered (the app runs its own SDK), so it registered
 *   nothing and toolhooks' spans, metrics and logs go through the app's providers;
 * - `disabled`: `OTEL_SDK_DISABLED=true`, nothing was started.
 *
 * @example
 * ```ts
 * const telemetry = startTelemetry();
 * if (telemetry.status === 'existing') console.log('using the app\'s OpenTelemetry SDK');
 * ```
 */
export type TelemetryStatus = 'started' | 'existing' | 'disabled';

/**
 * Control over what {@link startTelemetry} started.
 *
 * @example
 * ```ts
 * const telemetry = startTelemetry({ prometheus: { port: 9464 } });
 * await telemetry.ready; // optional: rejects when the Prometheus port cannot be bound
 * process.once('beforeExit', () => void telemetry.shutdown());
 * ```
 */
export interface TelemetryHandle {
  readonly status: TelemetryStatus;
  /**
   * Resolves when every endpoint startTelemetry() opened listens (today: the Prometheus endpoint; at once
   * without one). Rejects, with an error naming the port, when one cannot listen, and says so once through
   * `diag.error`. Awaiting it is optional: a rejection nobody awaits does not crash the process.
   */
  readonly ready: Promise<void>;
  /** Exports everything recorded so far. Never rejects: export failures are reported through `diag`. */
  forceFlush(): Promise<void>;
  /**
   * Flushes and stops every signal (waiting until console output has left the process), closes the
   * Prometheus endpoint and unregisters the global providers it registered (so `startTelemetry()` may be
   * called again). Gives up after `shutdownTimeoutMillis` (2 s by default): what was not delivered by then
   * is dropped, and what was dropped and why is said once, on one line (a process warning with code
   * `TOOLHOOKS_TELEMETRY_DROPPED`, or `diag.warn` when a diag logger is registered). Idempotent: later
   * calls return the same promise. Never rejects. With status `existing` or `disabled` it does nothing:
   * the app owns its SDK.
   */
  shutdown(): Promise<void>;
}

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
  /** Unregisters the globals startTelemetry() registered. */
  readonly unregister: () => void;
}

/** The handle of a started SDK. Deliberately not a thenable: `await startTelemetry()` yields the handle. */
export class RunningTelemetry implements TelemetryHandle {
  readonly status = 'started' as const;
  readonly ready: Promise<void>;
  readonly #parts: RunningParts;
  #shutdown: Promise<void> | undefined;

  constructor(parts: RunningParts) {
    this.#parts = parts;
    this.ready = parts.ready;
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
    const { sdk, exports, shutdownTimeoutMillis } = this.#parts;
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
    const inTime = await withDeadline(stopped, shutdownTimeoutMillis);
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
    if (dropped.length > 0) warnVisibly(droppedAtShutdown(dropped), 'TOOLHOOKS_TELEMETRY_DROPPED');
    await withDeadline(outputFlushed(), shutdownTimeoutMillis);
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
function droppedAtShutdown(dropped: readonly { drops: OutstandingDrops; target: string }[]): string {
  const parts = dropped.map(({ drops, target }) => `${drops.dropped} ${drops.unit} (${plainReason(drops.reason)} at ${target})`);
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
