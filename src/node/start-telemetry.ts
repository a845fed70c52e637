/**
 * startTelemetry(): the one-call OpenTelemetry setup for toolhooks in Node — traces, metrics and logs
 * over OTLP/HTTP through the OTel Node SDK, optionally a Prometheus pull endpoint. See docs/telemetry.md.
 * Its parts: options.ts (options and their checking), environment.ts (OTEL_* variables), exporters.ts
 * (the export pipelines), prometheus.ts, global-providers.ts (what the app registered), handle.ts.
 */
import { EventToSpanEventProcessor } from './event-bridge.js';
import { metrics } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { NodeSDKConfiguration } from '@opentelemetry/sdk-node';
import { planSignal } from './environment.js';
import { buildPipelines } from './exporters.js';
import { globalsBefore, registeredTracerProvider, unregisterGlobals } from './global-providers.js';
import { inactive, RunningTelemetry } from './handle.js';
import { checkOptions } from './options.js';
import type { CheckedOptions } from './options.js';
import type { StartTelemetryOptions, TelemetryHandle } from './types.js';
import { OpenSpans } from './open-spans.js';
import { servePrometheus } from './prometheus.js';
import type { PrometheusEndpoint } from './prometheus.js';
import { API_LOGS } from '../telemetry/logger-provider.js';
import { sdkProblem } from './platform.js';
import { getBooleanFromEnv, SDK_INFO } from './sdk-parts.js';
import { report, warnVisibly } from '../telemetry/warn-once.js';
import { cut } from '../telemetry/capture/truncate.js';

let running: { readonly handle: TelemetryHandle; readonly tracerProvider: TracerProvider; readonly options: string } | undefined;
let existingReported = false;
let mootReported = false;
let secondCallReported = false;

/**
 * Starts the OpenTelemetry Node SDK with OTLP/HTTP exporters for traces, metrics and logs, so that the
 * spans of the toolhooks runner and the records of `MetricsHook` and `LoggingHook` leave the process.
 * Call it once, early — it returns its handle synchronously, like `NodeSDK.start()`, so it works in a
 * file preloaded with `node --import` and before the app's first `await` (`await startTelemetry()` works
 * too: the handle is not a thenable). `handle.ready` settles once the Prometheus endpoint listens.
 * Reads the standard variables (`OTEL_SERVICE_NAME`, `OTEL_EXPORTER_OTLP_ENDPOINT` and per-signal
 * endpoints, `OTEL_EXPORTER_OTLP_PROTOCOL`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_METRIC_EXPORT_INTERVAL`,
 * `OTEL_{TRACES,METRICS,LOGS}_EXPORTER=none`, `OTEL_SDK_DISABLED`, `OTEL_LOG_LEVEL`...); options override them.
 *
 * When the app already registered a tracer provider, it starts nothing and says so once through `diag`:
 * the hooks then use the app's providers. A collector that is down, slow or answers with errors never
 * affects tool calls: exports are retried as the SDK does, then dropped, and each outage is reported once
 * through `diag` with the number of items dropped (set `OTEL_LOG_LEVEL=warn` to see diag output);
 * `shutdown()` says on one line what it had to drop, even without a diag logger.
 *
 * @throws Error naming the SDK version found when it has to start the SDK and the installed one is not the
 *   SDK 3 line.
 * @throws Error naming the option (or variable) and its value: an endpoint that is not an http(s) URL, a
 *   protocol other than `http/protobuf` / `http/json`, a Prometheus port that is not a port number. A
 *   port in use rejects `ready` instead.
 * @example
 * ```ts
 * import { startTelemetry } from 'toolhooks/node';
 *
 * const telemetry = startTelemetry({ serviceName: 'my-agent', prometheus: { port: 9464 } });
 * process.on('SIGTERM', () => void telemetry.shutdown());
 * ```
 */
export function startTelemetry(options: StartTelemetryOptions = {}): TelemetryHandle {
  const checked = checkOptions(options);

  if (getBooleanFromEnv('OTEL_SDK_DISABLED')) {
    report('info', 'toolhooks: OTEL_SDK_DISABLED is set; startTelemetry() starts nothing');
    return inactive('disabled');
  }
  const existing = registeredTracerProvider();
  if (existing !== undefined) {
    reportExisting(existing, checked, options);
    return inactive('existing');
  }
  // Only building pipelines needs the SDK 3 line; an app's own providers of any line are used as they are.
  const unsupported = sdkProblem(SDK_INFO['telemetry.sdk.version']);
  if (unsupported !== undefined) throw new Error(unsupported);

  const plans = {
    traces: planSignal('traces', checked.endpoint, checked.protocol),
    metrics: planSignal('metrics', checked.endpoint, checked.protocol),
    logs: planSignal('logs', checked.endpoint, checked.protocol),
  };
  const before = globalsBefore();
  const pipelines = buildPipelines(checked, plans, before);
  if (checked.eventBridge === true && before.loggerProvider) {
    report('warn', 'toolhooks: a LoggerProvider is already registered; startTelemetry() cannot add the event bridge to it (add an EventToSpanEventProcessor to it yourself)');
  } else if (checked.eventBridge === true) {
    // First, so a record is on its span before an exporter batches it; it holds nothing and never throws.
    pipelines.logRecordProcessors.unshift(new EventToSpanEventProcessor());
  }

  let prometheus: PrometheusEndpoint | undefined;
  if (checked.prometheus !== undefined && before.meterProvider) {
    report('warn', 'toolhooks: a MeterProvider is already registered; startTelemetry() cannot add a Prometheus endpoint to it');
  } else if (checked.prometheus !== undefined) {
    prometheus = servePrometheus(checked.prometheus.port, checked.prometheus.host ?? '127.0.0.1');
    pipelines.metricReaders.push(prometheus.exporter);
  }
  const ready = prometheus?.ready ?? Promise.resolve();
  // Awaiting `ready` is optional: a bind failure nobody awaits must not crash the process (it is reported
  // through diag.error), while those who await it still see the rejection.
  ready.catch(() => undefined);

  // First in the list: it counts every span start and end, for shutdown to wait for calls still running.
  const openSpans = new OpenSpans();
  const config: Partial<NodeSDKConfiguration> = {
    spanProcessors: pipelines.spanProcessors.length > 0 ? [openSpans, ...pipelines.spanProcessors] : [],
    // An empty list keeps NodeSDK from building readers and processors of its own from OTEL_*_EXPORTER.
    metricReaders: pipelines.metricReaders,
    logRecordProcessors: pipelines.logRecordProcessors,
  };
  if (checked.serviceName !== undefined) config.serviceName = checked.serviceName;

  let sdk: NodeSDK;
  try {
    sdk = new NodeSDK(config);
    sdk.start();
  } catch (error) {
    void prometheus?.exporter.shutdown().catch(() => undefined);
    throw error;
  }
  const tracerProvider = registeredTracerProvider();
  const registeredMeters = pipelines.metricReaders.length > 0;
  const handle = new RunningTelemetry({
    sdk,
    ready,
    exports: pipelines.exports,
    flushables: [
      tracerProvider,
      registeredMeters ? metrics.getMeterProvider() : undefined,
      pipelines.logRecordProcessors.length > 0 ? API_LOGS?.getLoggerProvider() : undefined,
    ],
    ...(checked.console !== false && tracerProvider !== undefined ? { flushFirst: tracerProvider } : {}),
    shutdownTimeoutMillis: checked.shutdownTimeoutMillis,
    openSpans,
    tails: pipelines.tails,
    unregister: () => {
      if (tracerProvider !== undefined) unregisterGlobals(tracerProvider, before, registeredMeters);
      if (running?.handle === handle) running = undefined;
    },
  });
  if (tracerProvider !== undefined) running = { handle, tracerProvider, options: describeOptions(options) };
  return handle;
}

function reportExisting(provider: TracerProvider, checked: CheckedOptions, options: StartTelemetryOptions): void {
  if (running !== undefined && running.tracerProvider === provider) {
    // The same options again (two modules both making sure telemetry runs) only needs a diag line; other
    // options would be silently ignored, so that is said once, visibly.
    const given = describeOptions(options);
    if (given === running.options || secondCallReported) {
      report('warn', 'toolhooks: startTelemetry() was already called and is still running; this call starts nothing');
    } else {
      secondCallReported = true;
      warnVisibly(
        `toolhooks: startTelemetry() is already running (options ${running.options}); this call with options ${given} starts nothing ` +
          'and its options are ignored. Call startTelemetry() once, or shutdown() the first before starting again',
        'TOOLHOOKS_ALREADY_STARTED',
      );
    }
    return;
  }
  // Options that would configure an SDK of its own mean nothing next to the app's: said once, by name.
  const moot = Object.keys(options).filter((name) => name !== 'prometheus' && (options as Record<string, unknown>)[name] !== undefined);
  if (moot.length > 0 && !mootReported) {
    mootReported = true;
    existingReported = true;
    warnVisibly(
      'toolhooks: a tracer provider is already registered (the app runs its own OpenTelemetry SDK), so startTelemetry() ' +
        `starts nothing and its options ${moot.join(', ')} have no effect; toolhooks uses the existing providers. ` +
        'Configure those on your own SDK, or call startTelemetry() before it',
      'TOOLHOOKS_OPTIONS_IGNORED',
    );
  } else if (!existingReported) {
    existingReported = true;
    report(
      'info',
      'toolhooks: a tracer provider is already registered (the app runs its own OpenTelemetry SDK); ' +
        'startTelemetry() registers nothing and toolhooks uses the existing providers',
    );
  }
  if (checked.prometheus !== undefined) {
    report('warn', 'toolhooks: startTelemetry() did not start the Prometheus endpoint: add a PrometheusExporter to your own MeterProvider');
  }
}

/** The options a call was given, as short JSON for messages (and to compare two calls). */
function describeOptions(options: StartTelemetryOptions): string {
  try {
    return cut(JSON.stringify(options) ?? '{}', 300);
  } catch {
    return '[unprintable options]';
  }
}
