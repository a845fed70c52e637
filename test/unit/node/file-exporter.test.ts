/**
 * The traces file exporter: one OTLP/JSON line per batch, in the order batches were handed over; a file
 * that cannot be written is said once; after shutdown, batches are refused.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { JsonLinesSpanExporter } from '../../../src/node/file-exporter.js';
import { ExportResultCode } from '../../../src/node/sdk-parts.js';
import type { ExportResult, ReadableSpan } from '../../../src/node/sdk-parts.js';
import { parseOtlpJson } from '../../../src/replay/otlp-json.js';
import { useTempDir } from '../../support/temp-dir.js';
import { createTestTracing } from '../../support/tracing.js';

const dir = useTempDir('file-exporter');

function spansNamed(...names: string[]): ReadableSpan[] {
  const tracing = createTestTracing();
  for (const name of names) tracing.tracer.startSpan(name).end();
  return tracing.spans();
}

function exportOnce(exporter: JsonLinesSpanExporter, spans: ReadableSpan[]): Promise<ExportResult> {
  return new Promise((resolve) => exporter.export(spans, resolve));
}

describe('JsonLinesSpanExporter', () => {
  it('appends one OTLP/JSON line per batch, in order, that replay parses', async () => {
    const file = join(dir, 'ordered.jsonl');
    const exporter = new JsonLinesSpanExporter(file);
    const results = await Promise.all([exportOnce(exporter, spansNamed('a', 'b')), exportOnce(exporter, spansNamed('c'))]);
    expect(results.map((result) => result.code)).toEqual([ExportResultCode.SUCCESS, ExportResultCode.SUCCESS]);
    await exporter.shutdown();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(parseOtlpJson(lines.join('\n'), file).map((span) => span.name)).toEqual(['a', 'b', 'c']);
  });

  it('warns once, naming the path, when the file cannot be written, and fails each batch', async () => {
    const file = join(dir, 'no-such-dir', 'traces.jsonl');
    const exporter = new JsonLinesSpanExporter(file);
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    try {
      const first = await exportOnce(exporter, spansNamed('a'));
      const second = await exportOnce(exporter, spansNamed('b'));
      expect([first.code, second.code]).toEqual([ExportResultCode.FAILED, ExportResultCode.FAILED]);
      expect(first.error?.message).toContain('ENOENT');
      expect(emit).toHaveBeenCalledTimes(1);
      expect(String(emit.mock.calls[0]?.[0])).toContain(`cannot write traces to ${file}`);
      expect(emit.mock.calls[0]?.[1]).toMatchObject({ code: 'TOOLHOOKS_TRACES_FILE_UNWRITABLE' });
    } finally {
      emit.mockRestore();
    }
  });

  it('keeps writing after a result callback throws, and refuses batches after shutdown', async () => {
    const file = join(dir, 'after-throw.jsonl');
    const exporter = new JsonLinesSpanExporter(file);
    exporter.export(spansNamed('a'), () => {
      throw new Error('callback broke');
    });
    expect((await exportOnce(exporter, spansNamed('b'))).code).toBe(ExportResultCode.SUCCESS);
    await exporter.forceFlush();
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    await exporter.shutdown();
    const refused = await exportOnce(exporter, spansNamed('c'));
    expect(refused.code).toBe(ExportResultCode.FAILED);
    expect(refused.error?.message).toBe('the traces file exporter is shut down');
  });
});
