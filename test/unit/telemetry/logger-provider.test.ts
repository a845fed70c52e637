/**
 * Finding the app's LoggerProvider wherever its SDK registered it (API 1.10's `logs` on SDK 3, the
 * `@opentelemetry/api-logs` global on SDK 2), and dropping records while none is registered.
 */
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { afterEach, describe, expect, it } from 'vitest';
import { API_LOGS, currentLoggerProvider, registeredLoggerProvider } from '../../../src/telemetry/logger-provider.js';
import { disableGlobalLogs } from '../../support/sdk.js';

/** The global slot `@opentelemetry/api-logs` (SDK 2) keeps its provider getter in; the SDK 2 lane registers through the real package. */
const API_LOGS_SLOT = Symbol.for('io.opentelemetry.js.api.logs');
const slots = globalThis as Record<symbol, unknown>;

afterEach(async () => {
  await disableGlobalLogs();
  delete slots[API_LOGS_SLOT];
});

function provider(): { provider: LoggerProvider; exporter: InMemoryLogRecordExporter } {
  const exporter = new InMemoryLogRecordExporter();
  return { provider: new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] }), exporter };
}

describe('registeredLoggerProvider', () => {
  it('is undefined while no LoggerProvider is registered, and records then go nowhere without error', async () => {
    await disableGlobalLogs();
    expect(registeredLoggerProvider()).toBeUndefined();
    expect(() => currentLoggerProvider().getLogger('toolhooks').emit({ body: 'dropped' })).not.toThrow();
  });

  it("finds a provider registered through @opentelemetry/api's logs (SDK 3)", () => {
    expect(API_LOGS).toBeDefined();
    const { provider: registered, exporter } = provider();
    API_LOGS?.disable();
    (API_LOGS as unknown as { setGlobalLoggerProvider(p: unknown): void }).setGlobalLoggerProvider(registered);
    currentLoggerProvider().getLogger('toolhooks').emit({ body: 'via api' });
    expect(exporter.getFinishedLogRecords().map((r) => r.body)).toEqual(['via api']);
  });

  it("finds a provider in @opentelemetry/api-logs' global slot (SDK 2), asking for its compatibility version 1", async () => {
    await disableGlobalLogs();
    const { provider: registered, exporter } = provider();
    const asked: unknown[] = [];
    slots[API_LOGS_SLOT] = (version: unknown) => {
      asked.push(version);
      return registered;
    };
    currentLoggerProvider().getLogger('toolhooks').emit({ body: 'via api-logs' });
    expect(exporter.getFinishedLogRecords().map((r) => r.body)).toEqual(['via api-logs']);
    expect(asked).toEqual([1]);
  });

  it('ignores a slot that holds no provider', async () => {
    await disableGlobalLogs();
    slots[API_LOGS_SLOT] = () => ({ notAProvider: true });
    expect(registeredLoggerProvider()).toBeUndefined();
    slots[API_LOGS_SLOT] = 'not a getter';
    expect(registeredLoggerProvider()).toBeUndefined();
  });
});
