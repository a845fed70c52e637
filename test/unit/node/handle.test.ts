/**
 * The handle startTelemetry() returns: a shutdown that is idempotent, bounded in time and says once what
 * it dropped and where it was going; a flush that never rejects; inactive handles that do nothing.
 */
import type { NodeSDK } from '@opentelemetry/sdk-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DropReporter } from '../../../src/node/drop-reporter.js';
import type { SignalExport } from '../../../src/node/exporters.js';
import { RunningTelemetry, inactive } from '../../../src/node/handle.js';
import type { RunningParts } from '../../../src/node/handle.js';
import { ExportResultCode } from '../../../src/node/sdk-parts.js';
import { recordDiag } from '../../support/diag.js';

const diag = recordDiag();
beforeEach(() => diag.start());
afterEach(() => diag.stop());

interface Counts {
  shutdowns: number;
  beganShutdown: number;
  unregistered: number;
}

function running(overrides: Partial<RunningParts> & { sdkShutdown?: () => Promise<void>; exports?: SignalExport[] } = {}): { handle: RunningTelemetry; counts: Counts } {
  const counts: Counts = { shutdowns: 0, beganShutdown: 0, unregistered: 0 };
  const sdk = {
    shutdown: () => {
      counts.shutdowns += 1;
      return (overrides.sdkShutdown ?? (() => Promise.resolve()))();
    },
  } as unknown as NodeSDK;
  const handle = new RunningTelemetry({
    sdk,
    ready: Promise.resolve(),
    exports: overrides.exports ?? [],
    flushables: overrides.flushables ?? [],
    shutdownTimeoutMillis: overrides.shutdownTimeoutMillis ?? 1000,
    unregister: () => void (counts.unregistered += 1),
  });
  return { handle, counts };
}

/** A traces export whose collector refused the last export. */
function failingTraces(counts?: Counts): SignalExport {
  const reporter = new DropReporter('span', 'spans');
  reporter.settle({ code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED 127.0.0.1:4318') }, 3, reporter.exportStarted(3));
  return { reporter, beginShutdown: () => void (counts !== undefined && (counts.beganShutdown += 1)), target: 'http://localhost:4318/v1/traces' } as SignalExport;
}

describe('RunningTelemetry', () => {
  it('shuts down once however often it is asked, and unregisters the globals', async () => {
    const { handle, counts } = running();
    expect(handle.status).toBe('started');
    const first = handle.shutdown();
    expect(handle.shutdown()).toBe(first);
    await first;
    expect([counts.shutdowns, counts.unregistered]).toEqual([1, 1]);
  });

  it('switches every export to its shutdown exporter when shutdown begins', async () => {
    const counts: Counts = { shutdowns: 0, beganShutdown: 0, unregistered: 0 };
    const { handle } = running({ exports: [failingTraces(counts), failingTraces(counts)] });
    await handle.shutdown();
    expect(counts.beganShutdown).toBe(2);
  });

  it('says once, on one line, what was dropped, why in plain words, and where it was going', async () => {
    const { handle } = running({ exports: [failingTraces()] });
    diag.messages.length = 0;
    await handle.shutdown();
    const dropped = diag.messages.filter((message) => message.includes('dropped at shutdown'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]).toMatch(
      /^toolhooks: telemetry dropped at shutdown: 3 spans \(connection refused: .*ECONNREFUSED.* at http:\/\/localhost:4318\/v1\/traces\)\. Start a collector there/,
    );
  });

  it('gives up at shutdownTimeoutMillis when the SDK does not stop, counting what was under way', async () => {
    const reporter = new DropReporter('span', 'spans');
    reporter.exportStarted(5); // an export that never settles
    const exports = [{ reporter, beginShutdown: () => undefined, target: 'http://collector:4318/v1/traces' } as SignalExport];
    const { handle, counts } = running({ exports, shutdownTimeoutMillis: 20, sdkShutdown: () => new Promise(() => undefined) });
    await handle.shutdown();
    expect(counts.unregistered).toBe(1);
    expect(diag.messages.join('\n')).toMatch(/5 spans \(was not exported within shutdownTimeoutMillis \(20 ms\) at http:\/\/collector:4318\/v1\/traces\)/);
  });

  it('never rejects: a failing SDK shutdown or flush is reported through diag', async () => {
    const failing = { forceFlush: () => Promise.reject(new Error('flush broke')) };
    const { handle } = running({ flushables: [failing, undefined, {}], sdkShutdown: () => Promise.reject(new Error('shutdown broke')) });
    await expect(handle.forceFlush()).resolves.toBeUndefined();
    await expect(handle.shutdown()).resolves.toBeUndefined();
    expect(diag.messages).toEqual(expect.arrayContaining([expect.stringContaining('telemetry flush failed'), expect.stringContaining('telemetry shutdown failed')]));
  });

  it('flushes nothing once shut down', async () => {
    let flushes = 0;
    const { handle } = running({ flushables: [{ forceFlush: async () => void (flushes += 1) }] });
    await handle.forceFlush();
    await handle.shutdown();
    await handle.forceFlush();
    expect(flushes).toBe(1);
  });
});

describe('inactive', () => {
  it("is a handle that does nothing: the app owns its SDK, or telemetry is disabled", async () => {
    for (const status of ['existing', 'disabled'] as const) {
      const handle = inactive(status);
      expect(handle.status).toBe(status);
      await expect(handle.ready).resolves.toBeUndefined();
      await expect(handle.forceFlush()).resolves.toBeUndefined();
      await expect(handle.shutdown()).resolves.toBeUndefined();
    }
  });
});
