/** Reading a replay source from a file: the spans replay needs, within a byte bound, errors naming the source. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ReplayInputError } from '../../../src/replay/index.js';
import { DEFAULT_MAX_SOURCE_BYTES, isUrlSource, readSourceSpans } from '../../../src/replay/source.js';
import { otlpTraffic } from '../../support/otlp-traffic.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('replay-source');
const traffic = join(dir, 'traffic.json');
writeFileSync(traffic, otlpTraffic([{ tool: 'shell', args: { cmd: 'ls' }, before: { decision: 'abort', hook: 'gate' } }]));
const lines = join(dir, 'traffic.jsonl');
writeFileSync(lines, `${otlpTraffic([{ tool: 'a', args: {} }])}\n${otlpTraffic([{ tool: 'b', args: {} }], 'f'.repeat(32))}\n`);

describe('isUrlSource', () => {
  it('is true for http and https only', () => {
    expect([isUrlSource('http://x/api'), isUrlSource('HTTPS://x'), isUrlSource('traces.json'), isUrlSource(new URL('file:///t.json'))]).toEqual([true, true, false, false]);
  });
});

describe('readSourceSpans', () => {
  it('reads the tool-call and phase spans of a file, given as a path or a file URL', async () => {
    const spans = await readSourceSpans(traffic);
    expect(spans.map((span) => span.name)).toEqual(['execute_tool shell', 'toolhooks.before_tool']);
    expect((await readSourceSpans(pathToFileURL(traffic))).map((span) => span.name)).toEqual(['execute_tool shell', 'toolhooks.before_tool']);
  });

  it('reads one OTLP/JSON object per line', async () => {
    expect((await readSourceSpans(lines)).map((span) => span.name)).toEqual(['execute_tool a', 'execute_tool b']);
  });

  it('refuses a file larger than the bound before reading it, saying how to go on', async () => {
    await expect(readSourceSpans(traffic, { maxSourceBytes: 16 })).rejects.toThrow(/traffic\.json: holds \d+ bytes, past maxSourceBytes \(16\); replay a shorter time window, or raise the bound \(--max-bytes\)/);
    expect(DEFAULT_MAX_SOURCE_BYTES).toBe(256 * 1024 * 1024);
  });

  it('names the source and the problem for what it cannot read', async () => {
    await expect(readSourceSpans('')).rejects.toThrow('replay: source must be a file path, an http(s) URL or "-" for standard input');
    await expect(readSourceSpans(join(dir, 'missing.json'))).rejects.toThrow(ReplayInputError);
    await expect(readSourceSpans(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read the file/);
    await expect(readSourceSpans(new URL('ftp://example.com/t.json'))).rejects.toThrow('ftp://example.com/t.json: only file, http and https URLs can be replayed');
    const junk = join(dir, 'junk.txt');
    writeFileSync(junk, 'this is not JSON\n');
    await expect(readSourceSpans(junk)).rejects.toThrow(/junk\.txt/);
  });
});
