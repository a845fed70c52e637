/**
 * The public shapes of `toolhooks/hooks`: the options of {@link MetricsHook}, {@link LoggingHook} and
 * {@link otelDestination}. See docs/telemetry.md.
 */
import type { Meter } from '@opentelemetry/api';
import type { LevelWithSilentOrString, Logger } from 'pino';
import type { ToolMatcher } from '../hook.js';

/**
 * Options of {@link MetricsHook}.
 *
 * @example
 * ```ts
 * new MetricsHook({ meter: myMeterProvider.getMeter('toolhooks'), tools: /^db_/ });
 * ```
 */
export interface MetricsHookOptions {
  /**
   * The meter to record with. Default: `metrics.getMeter('toolhooks', VERSION)` from the global
   * MeterProvider, looked up again whenever the global provider changes, so a hook built before
   * `startTelemetry()` (or the app's own SDK) registers its provider still records into it.
   */
  readonly meter?: Meter;
  /** Which tools to record. Default: all tools. */
  readonly tools?: ToolMatcher;
  /** The hook's telemetry name. Default: `MetricsHook`. */
  readonly name?: string;
}

/**
 * Options of {@link LoggingHook}.
 *
 * @example
 * ```ts
 * new LoggingHook({ logger: appLogger, level: 'warn' }); // only aborted/failed calls and hook failures
 * ```
 */
export interface LoggingHookOptions {
  /**
   * The pino logger to write to. Default: a pino logger named `toolhooks` writing to stdout (without ever
   * blocking: when stdout is a pipe nobody reads, records wait in a 1 MiB buffer and then are dropped
   * and counted, with a `TOOLHOOKS_LOG_DROPPED` warning and the count at exit) and, through
   * {@link otelDestination}, to the global OTel LoggerProvider. A logger you pass is used as it is: add
   * `otelDestination()` to its streams (or run `@opentelemetry/instrumentation-pino`) to get its records
   * into OTLP as well.
   */
  readonly logger?: Logger;
  /**
   * Lowest level written. Default `info` (everything this hook writes). With your own logger, a child
   * logger at this level is used; without it, your logger's level applies.
   */
  readonly level?: LevelWithSilentOrString;
  /** Which tools to log. Default: all tools. */
  readonly tools?: ToolMatcher;
  /** The hook's telemetry name. Default: `LoggingHook`. */
  readonly name?: string;
}

/**
 * Options of {@link otelDestination}.
 *
 * @example
 * ```ts
 * otelDestination({ loggerName: 'my-agent' });
 * ```
 */
export interface OTelDestinationOptions {
  /** The OTel logger (instrumentation scope) name. Default: `toolhooks`. */
  readonly loggerName?: string;
}
