/**
 * Collects what toolhooks reports through OTel's `diag` (WARN and above) during a test.
 */
import type { DiagLogger } from '@opentelemetry/api';
import { DiagLogLevel, diag } from '@opentelemetry/api';
import { afterEach, beforeEach } from 'vitest';

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
