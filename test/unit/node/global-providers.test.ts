/**
 * What startTelemetry() finds registered before it runs, and what its shutdown unregisters: only what
 * it registered itself, so an app's own providers survive.
 */
import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { globalsBefore, registeredTracerProvider, unregisterGlobals } from '../../../src/node/global-providers.js';
import { newTracerProvider } from '../../support/sdk.js';
import { installContextManager } from '../../support/tracing.js';

/** Context manager and propagator stay as the other unit files need them. */
const keepContext = { contextManager: true, propagator: true } as const;

afterEach(() => {
  trace.disable();
  metrics.disable();
});

describe('registeredTracerProvider', () => {
  it("is undefined while only the API's no-op provider is there, else the registered provider", () => {
    trace.disable();
    expect(registeredTracerProvider()).toBeUndefined();
    const provider = newTracerProvider();
    trace.setGlobalTracerProvider(provider);
    expect(registeredTracerProvider()).toBe(provider);
  });
});

describe('globalsBefore', () => {
  it('sees whether a meter provider is registered', () => {
    metrics.disable();
    expect(globalsBefore().meterProvider).toBe(false);
    metrics.setGlobalMeterProvider(new MeterProvider());
    expect(globalsBefore().meterProvider).toBe(true);
  });

  it('sees a registered context manager', () => {
    installContextManager();
    expect(globalsBefore().contextManager).toBe(true);
  });
});

describe('unregisterGlobals', () => {
  it('unregisters the tracer provider it registered, and leaves one the app registered since', () => {
    const ours = newTracerProvider();
    trace.setGlobalTracerProvider(ours);
    unregisterGlobals(ours, { ...keepContext, meterProvider: true, loggerProvider: true }, false);
    expect(registeredTracerProvider()).toBeUndefined();

    const apps = newTracerProvider();
    trace.setGlobalTracerProvider(apps);
    unregisterGlobals(ours, { ...keepContext, meterProvider: true, loggerProvider: true }, false);
    expect(registeredTracerProvider()).toBe(apps);
  });

  it('unregisters the meter provider only when it was not there before and readers were registered', () => {
    const ours = newTracerProvider();
    metrics.setGlobalMeterProvider(new MeterProvider());
    unregisterGlobals(ours, { ...keepContext, meterProvider: true, loggerProvider: true }, true);
    expect(globalsBefore().meterProvider).toBe(true);
    unregisterGlobals(ours, { ...keepContext, meterProvider: false, loggerProvider: true }, false);
    expect(globalsBefore().meterProvider).toBe(true);
    unregisterGlobals(ours, { ...keepContext, meterProvider: false, loggerProvider: true }, true);
    expect(globalsBefore().meterProvider).toBe(false);
  });
});
