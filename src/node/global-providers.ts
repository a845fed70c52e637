/**
 * What is registered in the OTel globals before startTelemetry() runs, and putting them back at
 * shutdown. Detection is by identity and by the API's own global slots, never by constructor names,
 * which bundlers and minifiers rename.
 * @internal
 */
import { context, createContextKey, createNoopMeter, metrics, propagation, ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/api';
import { API_LOGS, registeredLoggerProvider } from '../telemetry/logger-provider.js';

const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const PROBE_KEY = createContextKey('toolhooks.probe');

/**
 * The globally registered tracer provider, or `undefined` when only the API's no-op one is there. A global
 * registered through another copy of `@opentelemetry/api` is not this copy's ProxyTracerProvider: it is
 * there only because something registered it, so it counts as registered.
 */
export function registeredTracerProvider(): TracerProvider | undefined {
  const global: TracerProvider = trace.getTracerProvider();
  const delegate = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
  return delegate === NOOP_TRACER_PROVIDER ? undefined : delegate;
}

/** What was registered before startTelemetry() registered its own providers. */
interface GlobalsBefore {
  readonly contextManager: boolean;
  readonly propagator: boolean;
  readonly meterProvider: boolean;
  readonly loggerProvider: boolean;
}

/** Looks at the globals startTelemetry() may register. */
export function globalsBefore(): GlobalsBefore {
  return {
    // Without a context manager, `context.with` does not change the active context.
    contextManager: context.with(context.active().setValue(PROBE_KEY, true), () => context.active().getValue(PROBE_KEY) === true),
    propagator: propagation.fields().length > 0,
    // The API's no-op provider hands out the one no-op meter.
    meterProvider: metrics.getMeterProvider().getMeter('toolhooks') !== createNoopMeter(),
    // Through `@opentelemetry/api`'s `logs` or through `@opentelemetry/api-logs`.
    loggerProvider: registeredLoggerProvider() !== undefined,
  };
}

/**
 * Unregisters what startTelemetry() registered: the tracer provider if it is still `ours`, and each other
 * global that was not there before (metrics only when it registered readers).
 */
export function unregisterGlobals(ours: TracerProvider, before: GlobalsBefore, registeredMeters: boolean): void {
  if (registeredTracerProvider() === ours) trace.disable();
  if (!before.meterProvider && registeredMeters) metrics.disable();
  if (!before.loggerProvider) API_LOGS?.disable();
  if (!before.contextManager) context.disable();
  if (!before.propagator) propagation.disable();
}
