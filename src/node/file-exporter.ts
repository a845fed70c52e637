/**
 * The span exporter behind `startTelemetry({ file })` and `TOOLHOOKS_TRACES_FILE`: appends each batch to a
 * file as one line of OTLP/JSON (an `ExportTraceServiceRequest`), the format the Collector's `otlpjsonfile`
 * receiver and `toolhooks replay` read. A file that cannot be written is said once, naming the path; the
 * batches are then dropped (and counted for the next message), and tool calls never notice.
 * @internal
 */
import { appendFile } from 'node:fs/promises';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { errorMessage } from '../internal/describe.js';
import { warnVisibly } from '../telemetry/warn-once.js';
import { ExportResultCode } from './sdk-parts.js';
import type { ExportResult, ReadableSpan, SpanExporter } from './sdk-parts.js';

/** The warning code of a traces file that cannot be written. */
const UNWRITABLE = 'TOOLHOOKS_TRACES_FILE_UNWRITABLE';

/** Appends spans to `path` as OTLP/JSON lines, one write at a time so that lines never interleave. */
export class JsonLinesSpanExporter implements SpanExporter {
  readonly #path: string;
  #writes: Promise<void> = Promise.resolve();
  #failedBatches = 0;
  #stopped = false;

  /** @param path an absolute path; created on the first export, appended to after that */
  constructor(path: string) {
    this.#path = path;
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    if (this.#stopped) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('the traces file exporter is shut down') });
      return;
    }
    // A callback that throws must not break the chain for the batches after it.
    this.#writes = this.#writes
      .then(() => this.#append(spans))
      .then(resultCallback)
      .catch(() => undefined);
  }

  async #append(spans: ReadableSpan[]): Promise<ExportResult> {
    try {
      const body = JsonTraceSerializer.serializeRequest(spans);
      if (body === undefined) throw new Error('the spans could not be encoded as OTLP/JSON');
      await appendFile(this.#path, `${Buffer.from(body).toString('utf8')}\n`);
      return { code: ExportResultCode.SUCCESS };
    } catch (error) {
      this.#failedBatches += 1;
      // Said once: a file that cannot be written now will not be writable for the next batch either.
      if (this.#failedBatches === 1) {
        warnVisibly(
          `toolhooks: cannot write traces to ${this.#path} (${errorMessage(error)}); spans are dropped, tool calls go on`,
          UNWRITABLE,
        );
      }
      return { code: ExportResultCode.FAILED, error: error instanceof Error ? error : new Error(errorMessage(error)) };
    }
  }

  /** Waits until every batch handed over so far is written (or has failed). */
  async forceFlush(): Promise<void> {
    await this.#writes;
  }

  async shutdown(): Promise<void> {
    this.#stopped = true;
    await this.#writes;
  }
}
