/**
 * Replay end to end: traffic recorded by toolhooks itself (capture on, OTLP/JSON through a real
 * receiver), replayed under a changed policy from a JSON-lines file, a single OTLP/JSON object, a
 * Jaeger-shaped `/api/v3/traces` body and an http URL, through `replay()` and through the CLI.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRunner } from '../../../src/index.js';
import { ReplayInputError, formatReplayJson, replay } from '../../../src/replay/index.js';
import type { ReplayReport } from '../../../src/replay/index.js';
import { asOneObject, expectedV2Report } from './expected.js';
import { POLICY_V2_SOURCE, policyV2 } from './policy-v2.js';
import { policyV1, recordTraffic, type RecordedTraffic } from './record-traffic.js';
import { runToolhooks, serveEndless, serveText, type ServedFile } from './serve.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('replay');
const linesFile = join(dir, 'traces.jsonl');
const objectFile = join(dir, 'traces.json');
const jaegerFile = join(dir, 'jaeger.json');
let traffic: RecordedTraffic;
let expected: ReplayReport;
let served: ServedFile;
/** A URL on 127.0.0.1 where nothing listens any more. */
let closedUrl = '';

beforeAll(async () => {
  traffic = await recordTraffic();
  expected = expectedV2Report(traffic);
  // More than one request body, so spans of one call are spread over several lines.
  expect(traffic.bodies.length).toBeGreaterThan(1);
  writeFileSync(linesFile, `${traffic.bodies.join('\n')}\n`);
  writeFileSync(objectFile, JSON.stringify(asOneObject(traffic), null, 2));
  writeFileSync(jaegerFile, JSON.stringify({ result: asOneObject(traffic) }));
  writeFileSync(join(dir, 'policy-v2.mjs'), POLICY_V2_SOURCE);
  writeFileSync(join(dir, 'throws.mjs'), "throw new Error('cannot reach the policy store');\n");
  writeFileSync(join(dir, 'nothing.mjs'), 'export const hooks = [];\n');
  writeFileSync(join(dir, 'not-otlp.json'), '{"spans":[]}\n');
  writeFileSync(join(dir, 'no-traffic.json'), '{"resourceSpans":[]}\n');
  // The same calls recorded with capture off: no arguments, so nothing can be replayed.
  writeFileSync(join(dir, 'no-capture.jsonl'), `${traffic.bodies.map((body) => body.replaceAll('"gen_ai.tool.call.arguments"', '"x.not.arguments"')).join('\n')}\n`);
  writeFileSync(join(dir, 'escapes.mjs'), "throw new Error('policy store says \\u001b]0;pwned\\u0007\\u001b[2J\\u202egnp.exe');\n");
  // A JSON-lines file whose second line was cut mid-write.
  writeFileSync(join(dir, 'truncated.jsonl'), `${traffic.bodies[0]}\n${(traffic.bodies[1] ?? '').slice(0, 200)}\n`);
  served = await serveText('/api/v3/traces', JSON.stringify({ result: asOneObject(traffic) }));
  const closed = await serveText('/api/v3/traces', '{}');
  closedUrl = closed.url;
  await closed.stop();
}, 60_000);

afterAll(async () => {
  await served?.stop();
});

describe('replay()', () => {
  it('reports exactly the calls whose decision changed under the new policy, from a JSON-lines file', async () => {
    expect(await replay({ hooks: await policyV2(), source: linesFile })).toEqual(expected);
  });

  it('reads the same calls from one OTLP/JSON object and from a Jaeger /api/v3/traces body', async () => {
    const hooks = await policyV2();
    expect(await replay({ hooks, source: objectFile })).toEqual(expected);
    expect(await replay({ hooks, source: jaegerFile })).toEqual(expected);
  });

  it('reads the same calls from an http URL', async () => {
    expect(await replay({ hooks: await policyV2(), source: served.url })).toEqual(expected);
  });

  it('finds nothing changed when the recorded policy is replayed, given as a HookRunner', async () => {
    const report = await replay({ hooks: new HookRunner(policyV1), source: linesFile });
    expect(report).toEqual({ calls: 9, replayed: 8, notReplayable: 1, unchanged: 8, changed: [], flips: {}, loosened: 0, hookErrors: [] });
  });

  it('rejects with a ReplayInputError naming the problem for an unreachable or failing URL', async () => {
    const hooks = await policyV2();
    await expect(replay({ hooks, source: `${served.base}/missing` })).rejects.toThrow(
      new ReplayInputError(`${served.base}/missing: answered HTTP 404 (not found)`),
    );
    await expect(replay({ hooks, source: closedUrl })).rejects.toThrow(/^http:\/\/127\.0\.0\.1:\d+\/api\/v3\/traces: unreachable \(fetch failed: .*ECONNREFUSED/);
  });
});

describe('replay(): sources are read up to maxSourceBytes', () => {
  it('rejects a URL body past the bound, declared by Content-Length, before reading it', async () => {
    const hooks = await policyV2();
    await expect(replay({ hooks, source: served.url, maxSourceBytes: 1_000 })).rejects.toThrow(
      new ReplayInputError(`${served.url}: holds ${Buffer.byteLength(JSON.stringify({ result: asOneObject(traffic) }))} bytes (Content-Length), past maxSourceBytes (1000); replay a shorter time window, or raise the bound (--max-bytes)`),
    );
  });

  it('stops reading an endless streamed body (no Content-Length) at the bound', async () => {
    const endless = await serveEndless('/v1/traces', traffic.bodies[0] as string);
    try {
      const bound = 1024 * 1024;
      await expect(replay({ hooks: await policyV2(), source: endless.url, maxSourceBytes: bound })).rejects.toThrow(
        `${endless.url}: holds more than ${bound} bytes, past maxSourceBytes (${bound})`,
      );
      // What was sent beyond the bound is what sat in socket buffers, not the whole stream.
      expect(endless.sent()).toBeLessThan(bound + 16 * 1024 * 1024);
    } finally {
      await endless.stop();
    }
  });

  it('rejects a file past the bound, and reads the same file whole under a bound it fits', async () => {
    const hooks = await policyV2();
    await expect(replay({ hooks, source: linesFile, maxSourceBytes: 1_000 })).rejects.toThrow(/traces\.jsonl: holds \d+ bytes, past maxSourceBytes \(1000\)/);
    expect(await replay({ hooks, source: linesFile, maxSourceBytes: 10 * 1024 * 1024 })).toEqual(expected);
  });

  it.each([
    ['1000', TypeError, 'replay: maxSourceBytes must be'],
    [0, RangeError, 'replay: maxSourceBytes must be an integer >= 1, got 0'],
    [1.5, RangeError, 'replay: maxSourceBytes must be an integer >= 1, got 1.5'],
  ])('rejects maxSourceBytes %j naming the option', async (value, type, message) => {
    const hooks = await policyV2();
    const attempt = replay({ hooks, source: linesFile, maxSourceBytes: value as number });
    if (type === TypeError) {
      await expect(attempt).rejects.toThrow(message);
    } else {
      await expect(attempt).rejects.toThrow(new RangeError(message));
    }
  });
});

describe('toolhooks replay (CLI)', () => {
  it('--json prints exactly the report object and exits 0', async () => {
    const run = await runToolhooks(['replay', '--json', '--hooks', './policy-v2.mjs', 'traces.jsonl'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(formatReplayJson(expected));
  });

  it('--fail-on-change exits 1 and prints the table of changed calls, then the counts', async () => {
    const run = await runToolhooks(['replay', '--fail-on-change', '--hooks', 'policy-v2.mjs', served.url], dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    const rows = lines.filter((line) => /^(http_get|search|read_file|write_file|fetch)\s/.test(line));
    const [http, search, read, write, fetch, flaky] = rows;
    const id = (index: number): string => expected.changed[index]?.traceId ?? '';
    expect(http).toMatch(new RegExp(`^http_get +call_3 +${id(0)} +before_tool +continue -> abort +no-inline-keys +redacted +"API keys belong in the vault"$`));
    expect(search).toMatch(new RegExp(`^search +call_4 +${id(1)} +before_tool +skip \\(cache\\) -> continue +- +- +-$`));
    expect(read).toMatch(new RegExp(`^read_file +- +${id(2)} +before_tool +continue -> redirect +path-guard +- +"sandboxed"$`));
    expect(write).toMatch(/^write_file +call_6 .* continue -> abort +size-limit +truncated +"content too large"$/);
    expect(fetch).toMatch(/^fetch +call_7 .* after_tool +continue -> abort +leak-guard +- +"result holds a private key"$/);
    expect(flaky).toMatch(/^search +call_8 .* before_tool +flaky +threw +policy service down$/);
    expect(lines.at(-2)).toBe('9 calls: 8 replayed, 1 not replayable (no captured arguments), 3 unchanged, 5 changed');
  });

  it('exits 0 with --fail-on-change when nothing changed', async () => {
    writeFileSync(join(dir, 'policy-v1.mjs'), `export default [{ name: 'shell-guard', tools: ['shell'], beforeTool: (_t, a) => (/\\brm\\b/.test(String(a.cmd)) ? { kind: 'abort', reason: 'destructive command' } : undefined) }, { name: 'cache', tools: ['search'], beforeTool: (_t, a) => (a.q === 'otel' ? { kind: 'skip', reason: 'cache hit', stubResult: [] } : undefined) }];\n`);
    const run = await runToolhooks(['replay', '--fail-on-change', '--json', '--hooks', 'policy-v1.mjs', 'traces.json'], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ calls: 9, replayed: 8, unchanged: 8, changed: [] });
  });

  it('--version prints the package version', async () => {
    const version = (JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string }).version;
    for (const args of [['--version'], ['-V'], ['replay', '--version']]) {
      const run = await runToolhooks(args, dir);
      expect([run.code, run.stdout, run.stderr]).toEqual([0, `${version}\n`, '']);
    }
  });

  it('--max-bytes bounds what is read from a URL', async () => {
    const run = await runToolhooks(['replay', '--max-bytes', '1K', '--hooks', 'policy-v2.mjs', served.url], dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^toolhooks: replay: http:\/\/127\.0\.0\.1:\d+\/api\/v3\/traces: holds \d+ bytes \(Content-Length\), past maxSourceBytes \(1024\); .*--max-bytes\)\n$/);
  });

  it('--fail-on-change with nothing replayable exits 2 (a gate that checked nothing does not pass); without it, the counts say so', async () => {
    for (const file of ['no-traffic.json', 'no-capture.jsonl']) {
      const run = await runToolhooks(['replay', '--fail-on-change', '--hooks', 'policy-v2.mjs', file], dir);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const found = file === 'no-traffic.json' ? 'no recorded tool calls \\(execute_tool spans\\)' : '9 recorded tool calls, none with captured arguments \\(record with capture: \\{ args: true \\}\\)';
      expect(run.stderr).toMatch(new RegExp(`^toolhooks: replay: nothing to replay in ${file.replace('.', '\\.')}: ${found}; --fail-on change needs traffic\n$`));
    }
    const run = await runToolhooks(['replay', '--json', '--hooks', 'policy-v2.mjs', 'no-capture.jsonl'], dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ calls: 9, replayed: 0, notReplayable: 9 });
  });

  it('escapes control and bidi characters in the one-line error (ESC, BEL, U+202E from a policy module)', async () => {
    const run = await runToolhooks(['replay', '--hooks', 'escapes.mjs', 'traces.jsonl'], dir);
    expect(run.code).toBe(2);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(run.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(run.stderr).toBe('toolhooks: replay: hooks module escapes.mjs could not be loaded: policy store says \\u001b]0;pwned\\u0007\\u001b[2J\\u202egnp.exe\n');
  });

  it.each([
    [['replay', '--hooks', 'policy-v2.mjs', 'not-otlp.json'], /^toolhooks: replay: .*not-otlp\.json: not OTLP\/JSON traces \(no resourceSpans array\)$/],
    [['replay', '--hooks', 'policy-v2.mjs', 'truncated.jsonl'], /^toolhooks: replay: .*truncated\.jsonl: line 2 is not valid JSON, truncated\? \(.+\)$/],
    [['replay', '--hooks', 'policy-v2.mjs', 'missing.jsonl'], /^toolhooks: replay: .*missing\.jsonl: cannot read the file \(ENOENT.*\)$/],
    [['replay', '--hooks', 'policy-v2.mjs', 'CLOSED_URL'], /^toolhooks: replay: http:\/\/127\.0\.0\.1:\d+\/api\/v3\/traces: unreachable \(fetch failed: .*ECONNREFUSED.*\)$/],
    [['replay', '--hooks', 'throws.mjs', 'traces.jsonl'], /^toolhooks: replay: hooks module throws\.mjs could not be loaded: cannot reach the policy store$/],
    [['replay', '--hooks', 'nothing.mjs', 'traces.jsonl'], /^toolhooks: replay: hooks module nothing\.mjs has no default export; export default an array of hooks or a HookRunner$/],
    [['replay', 'traces.jsonl'], /^toolhooks: replay: --hooks MODULE is required$/],
    [['replay', '--hooks', 'policy-v2.mjs', '--colour', 'traces.jsonl'], /^toolhooks: replay: Unknown option '--colour'.*$/],
    [['replay', '--max-bytes', '10X', '--hooks', 'policy-v2.mjs', 'traces.jsonl'], /^toolhooks: replay: --max-bytes takes a number of bytes, optionally with K, M or G \(such as 512M\), got "10X"$/],
  ])('bad input %j: one line on stderr, nothing on stdout, exit 2', async (args, message) => {
    const run = await runToolhooks(args.map((arg) => (arg === 'CLOSED_URL' ? closedUrl : arg)), dir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.endsWith('\n')).toBe(true);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr.trimEnd()).toMatch(message);
  });
});
