/**
 * Collects what toolhooks reports through OTel's `diag` (WARN and above) during a test.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach } from 'vitest';
import { reportTelemetryFailure, telemetryFailureCount } from '../../src/telemetry/failures.js';

export interface DiagRecorder {
  /** Warnings as logged; errors prefixed with `error: `. Cleared by {@link DiagRecorder.start}. */
  readonly messages: string[];
  /** Installs the recorder as the global diag logger and clears earlier messages. */
  start(): void;
  /** Removes the global diag logger. */
  stop(): void;
}

/** A diag logger that keeps every WARN/ERROR message, for assertions. */
export function recordDiag(): DiagRecorder {
  const messages: string[] = [];
  const logger: DiagLogger = {
    error: (message: string) => void messages.push(`error: ${message}`),
    warn: (message: string) => void messages.push(message),
    info: () => undefined,
    debug: () => undefined,
    verbose: () => undefined,
  };
  return {
    messages,
    start() {
      messages.length = 0;
      diag.setLogger(logger, { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true });
    },
    stop() {
      diag.disable();
    },
  };
}

/**
 * {@link recordDiag} for a whole test file: the recorder is installed (and emptied) before each of the
 * calling file's tests and removed after it.
 *
 * @example
 * ```ts
 * const diagnostics = useDiagRecorder();
 * it('reports nothing for a well-formed hook', async () => {
 *   await new HookRunner([{ name: 'ok', beforeTool: () => undefined }]).runBefore('shell', {}, undefined);
 *   expect(diagnostics.messages).toEqual([]);
 * });
 * ```
 */
export function useDiagRecorder(): DiagRecorder {
  const recorder = recordDiag();
  beforeEach(() => recorder.start());
  afterEach(() => recorder.stop());
  return recorder;
}

/**
 * Runs `run` with a diag recorder installed and gives what it returned, how many telemetry failures it
 * reported, and what diag was told meanwhile. The first failure it reports is one diag is told of (the
 * count is process-wide, and diag hears of the 1st, 10th, 100th…), so a test can read what it says.
 *
 * @example
 * ```ts
 * const { failures, messages } = await telemetryFailuresDuring(() => endSpan(brokenSpan));
 * expect(failures).toBe(1);
 * expect(messages).toEqual([expect.stringContaining('telemetry failed in span.end (')]);
 * ```
 */
export async function telemetryFailuresDuring<T>(run: () => T): Promise<{ value: Awaited<T>; failures: number; messages: string[] }> {
  while (!Number.isInteger(Math.log10(telemetryFailureCount() + 1))) reportTelemetryFailure('a stand-in of the test', new Error('stand-in'));
  const recorder = recordDiag();
  recorder.start();
  try {
    const before = telemetryFailureCount();
    const value = await run();
    return { value, failures: telemetryFailureCount() - before, messages: [...recorder.messages] };
  } finally {
    recorder.stop();
  }
}
