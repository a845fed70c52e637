/**
 * startTelemetry() where it starts nothing: bad options, OTEL_SDK_DISABLED, and an app that runs its own
 * SDK. (Starting the SDK, which registers globals and exports over HTTP: test/integration/node/.)
 */
import { trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTelemetry } from '../../../src/node/index.js';
import { recordDiag } from '../../support/diag.js';
import { newTracerProvider } from '../../support/sdk.js';

const diag = recordDiag();
beforeEach(() => diag.start());
afterEach(() => {
  diag.stop();
  vi.unstubAllEnvs();
  trace.disable();
});

describe('startTelemetry', () => {
  it('throws on bad options before it starts anything', () => {
    trace.disable();
    expect(() => startTelemetry({ endpoint: 'localhost:4318' })).toThrow(/options\.endpoint must be an http\(s\) URL/);
    expect(() => startTelemetry({ servicename: 'x' } as never)).toThrow(/serviceName/);
    expect(trace.getTracerProvider().getTracer('t').startSpan('s').isRecording()).toBe(false);
  });

  it('starts nothing when OTEL_SDK_DISABLED is true, and says so', async () => {
    trace.disable();
    vi.stubEnv('OTEL_SDK_DISABLED', 'true');
    const handle = startTelemetry();
    expect(handle.status).toBe('disabled');
    await handle.shutdown();
    expect(trace.getTracerProvider().getTracer('t').startSpan('s').isRecording()).toBe(false);
  });

  it("uses the app's own tracer provider, registers nothing, and says the Prometheus endpoint is the app's to add", async () => {
    const apps = newTracerProvider();
    trace.setGlobalTracerProvider(apps);
    const handle = startTelemetry({ prometheus: { port: 9464 } });
    expect(handle.status).toBe('existing');
    await handle.shutdown();
    expect(diag.messages).toEqual([expect.stringContaining('did not start the Prometheus endpoint: add a PrometheusExporter to your own MeterProvider')]);
    expect(trace.getTracerProvider().getTracer('t').startSpan('s').isRecording()).toBe(true);
  });

  it("says once, naming them, that its options mean nothing next to the app's own SDK", async () => {
    trace.setGlobalTracerProvider(newTracerProvider());
    const handle = startTelemetry({ serviceName: 'my-agent', file: 'traces.jsonl', console: undefined } as never);
    expect(handle.status).toBe('existing');
    startTelemetry({ endpoint: 'http://localhost:4318' });
    await handle.shutdown();
    expect(diag.messages).toEqual([
      expect.stringContaining('startTelemetry() starts nothing and its options serviceName, file have no effect; toolhooks uses the existing providers'),
    ]);
  });
});
