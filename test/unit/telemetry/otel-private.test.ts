/**
 * Every read of OpenTelemetry state no public API exposes (src/telemetry/otel-private.ts), against the
 * real SDK and API of each line: this file runs in the main lane (SDK 3, API 1.10) and in the sdk2 lane
 * (SDK 2, API 1.9 and api-logs; vitest.config.ts SDK2_LANE). A release that moves or renames one of these
 * fields fails here, naming the read and the SDK version, instead of silently switching off what depends
 * on it (captured JSON fitted to the length limit, phase events kept within the event limit, the AI SDK's
 * own execute_tool span reused, log records reaching the app's provider, warnings through diag).
 */
import { DiagLogLevel, diag } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import * as sdkLogs from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { registeredLoggerProvider } from '../../../src/telemetry/logger-provider.js';
import { apiGlobalRegistrations, apiLogsGlobalGetter, sdkSpanLengthLimitField, sdkSpanLimits, sdkSpanNameAndAttributes } from '../../../src/telemetry/otel-private.js';
import { attributeLengthLimit, eventCountLimit } from '../../../src/telemetry/span-limits.js';
import { SDK_LINE, disableGlobalLogs, newTracerProvider, registerLoggerProvider, simpleSpanProcessor } from '../../support/sdk.js';

const line = `OpenTelemetry JS SDK ${SDK_LINE}`;

function sdkSpan(spanLimits?: { attributeValueLengthLimit?: number; eventCountLimit?: number }): Span {
  const provider = newTracerProvider({ spanProcessors: [simpleSpanProcessor(new InMemorySpanExporter())], ...(spanLimits === undefined ? {} : { spanLimits }) });
  return provider.getTracer('toolhooks').startSpan('execute_tool deploy', { attributes: { 'gen_ai.tool.call.id': 'call_1' } });
}

afterEach(async () => {
  diag.disable();
  await disableGlobalLogs();
});

describe(`private state of the ${line}`, () => {
  it('an SDK span keeps its limits in _spanLimits (capture and phase events fit within them)', () => {
    const span = sdkSpan({ attributeValueLengthLimit: 77, eventCountLimit: 9 });
    expect(sdkSpanLimits(span), `${line}: SpanLimits no longer at span._spanLimits`).toMatchObject({ attributeValueLengthLimit: 77, eventCountLimit: 9 });
    expect(attributeLengthLimit(span)).toBe(77);
    expect(eventCountLimit(span)).toBe(9);
    // Without limits set: the SDK's defaults, unlimited length and 128 events.
    const plain = sdkSpan();
    expect(sdkSpanLimits(plain), `${line}: default SpanLimits no longer at span._spanLimits`).toMatchObject({ eventCountLimit: 128 });
    expect(attributeLengthLimit(plain)).toBeUndefined();
    expect(eventCountLimit(plain)).toBe(128);
    span.end();
    plain.end();
  });

  it('SDK 2 also copies the length limit to _attributeValueLengthLimit (read when _spanLimits lacks it)', () => {
    const span = sdkSpan({ attributeValueLengthLimit: 77 });
    if (SDK_LINE === 2) expect(sdkSpanLengthLimitField(span), `${line}: no span._attributeValueLengthLimit`).toBe(77);
    else expect([undefined, 77]).toContain(sdkSpanLengthLimitField(span));
    span.end();
  });

  it('an SDK span has its name and attributes as fields, and an ended one says it is not recording', () => {
    const span = sdkSpan();
    span.setAttribute('gen_ai.tool.name', 'deploy');
    const { name, attributes } = sdkSpanNameAndAttributes(span);
    expect(name, `${line}: span.name is gone`).toBe('execute_tool deploy');
    expect(attributes, `${line}: span.attributes is gone`).toMatchObject({ 'gen_ai.tool.call.id': 'call_1', 'gen_ai.tool.name': 'deploy' });
    expect(span.isRecording()).toBe(true);
    span.end();
    // The public answer toolhooks uses instead of the SDK's `ended` field.
    expect(span.isRecording()).toBe(false);
  });

  it('a registered diag logger is in the API’s global slot (warnings go through it, else to the process)', () => {
    expect(apiGlobalRegistrations().diag).toBe(false);
    diag.setLogger({ error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined, verbose: () => undefined }, DiagLogLevel.WARN);
    expect(apiGlobalRegistrations().diag, `${line}: diag no longer in globalThis[Symbol.for('opentelemetry.js.api.1')]`).toBe(true);
    diag.disable();
    expect(apiGlobalRegistrations().diag).toBe(false);
  });

  it('a LoggerProvider registered the way this line registers it is found in its global slot', async () => {
    expect(registeredLoggerProvider()).toBeUndefined();
    const provider = new sdkLogs.LoggerProvider();
    await registerLoggerProvider(provider);
    if (SDK_LINE >= 3) {
      expect(apiGlobalRegistrations().logs, `${line}: logs no longer in globalThis[Symbol.for('opentelemetry.js.api.1')]`).toBe(true);
    } else {
      const getter = apiLogsGlobalGetter();
      expect(getter, `${line}: no getter at globalThis[Symbol.for('io.opentelemetry.js.api.logs')]`).toBeTypeOf('function');
      expect(getter?.(1), `${line}: the api-logs getter no longer answers to compatibility version 1`).toBe(provider);
    }
    expect(registeredLoggerProvider()).toBe(provider);
    await disableGlobalLogs();
    expect(apiGlobalRegistrations().logs).toBe(false);
    expect(registeredLoggerProvider()).toBeUndefined();
  });

  it('every read answers "nothing" for a span or global of another shape, without throwing', () => {
    const foreign = { isRecording: () => true } as unknown as Span;
    expect(sdkSpanLimits(foreign)).toBeUndefined();
    expect(sdkSpanLengthLimitField(foreign)).toBeUndefined();
    expect(sdkSpanNameAndAttributes(foreign)).toEqual({ name: undefined, attributes: undefined });
    const odd = { _spanLimits: 5, name: 42, attributes: 'x' } as unknown as Span;
    expect(sdkSpanLimits(odd)).toBeUndefined();
    expect(sdkSpanNameAndAttributes(odd)).toEqual({ name: undefined, attributes: undefined });
  });
});
