import { afterEach, describe, expect, it, vi } from 'vitest';
import { HookRunner, executeTool } from '../../../src/index.js';
import { MetricsHook } from '../../../src/hooks/index.js';
import { startTelemetry } from '../../../src/node/index.js';
import type { TelemetryHandle } from '../../../src/node/index.js';
import { OtlpReceiver } from '../../support/otlp-receiver.js';

let handle: TelemetryHandle | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await handle?.shutdown();
  await receiver?.stop();
  handle = receiver = undefined;
  vi.unstubAllEnvs();
});

describe('startTelemetry and OTEL_{TRACES,METRICS,LOGS}_EXPORTER=none', () => {
  it('exports nothing over OTLP for the signals set to none, and the rest as usual', async () => {
    receiver = await OtlpReceiver.start();
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_TRACES_EXPORTER', 'none');
    vi.stubEnv('OTEL_LOGS_EXPORTER', 'none');
    handle = await startTelemetry({ serviceName: 'none-test' });
    const hooks = new HookRunner([{ name: 'h', beforeTool: () => undefined }, new MetricsHook()]);
    expect(await executeTool({ hooks, toolName: 't', args: {}, execute: () => 7 })).toBe(7);
    await handle.forceFlush();
    const signals = new Set(receiver.requests().map((r) => r.signal));
    expect(signals).toEqual(new Set(['metrics']));
  });
});
