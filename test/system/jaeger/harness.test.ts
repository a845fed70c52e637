/**
 * The Jaeger the tests run, and the files around it: a bad config fails with Jaeger's own message, a
 * missing binary skips (or fails in CI) with a note saying how to build it, and the build script, the
 * compose file and the configs agree on the version and on loopback listeners.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  JAEGER_CONFIG,
  JAEGER_MODULE_VERSION,
  JaegerStartError,
  SPM_CONFIG,
  TAIL_SAMPLING_CONFIG,
  jaegerBinary,
  requireJaeger,
  startJaeger,
} from '../../support/jaeger.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('the real Jaeger with a config it rejects', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolhooks-jaeger-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails to start, and the error shows what Jaeger said', async (ctx) => {
    const binary = requireJaeger(ctx);
    // A typo in a policy type of the real tail-sampling overlay.
    const broken = join(dir, 'tail-sampling.yaml');
    const text = await readFile(TAIL_SAMPLING_CONFIG, 'utf8');
    expect(text).toContain('type: numeric_attribute');
    await writeFile(broken, text.replace('type: numeric_attribute', 'type: numeric_atribute'));
    const started = startJaeger({ binary, configs: [JAEGER_CONFIG, broken] });
    await expect(started).rejects.toBeInstanceOf(JaegerStartError);
    const error = (await started.catch((e: unknown) => e)) as JaegerStartError;
    expect(error.message).toMatch(/exited \(exit code [1-9]\d*\) before it was ready/);
    // Jaeger's own words, in the error the test shows.
    expect(error.logs).toMatch(/numeric_atribute/);
    expect(error.message).toContain(error.logs.trim().split('\n').at(-1) ?? '<no output>');
  });

  it('fails to start on an unknown key, naming it', async (ctx) => {
    const binary = requireJaeger(ctx);
    const broken = join(dir, 'jaeger.yaml');
    await writeFile(broken, (await readFile(JAEGER_CONFIG, 'utf8')).replace('max_traces:', 'max_trace:'));
    const error = (await startJaeger({ binary, configs: [broken] }).catch((e: unknown) => e)) as JaegerStartError;
    expect(error).toBeInstanceOf(JaegerStartError);
    expect(error.message).toMatch(/max_trace/);
  });
});

describe('requireJaeger when the binary is missing', () => {
  const missing = { JAEGER_BIN: '/nonexistent/jaeger', PATH: process.env['PATH'] ?? '' };

  it('skips outside CI, saying how to build it', () => {
    let note: string | undefined;
    const ctx = {
      skip(message?: string): never {
        note = message;
        throw new Error('skipped');
      },
    };
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      expect(() => requireJaeger(ctx, { ...missing, CI: 'false' })).toThrow('skipped');
    } finally {
      console.warn = warn;
    }
    expect(note).toContain('/nonexistent/jaeger');
    expect(note).toContain('bash scripts/ci-install-tools.sh');
  });

  it('fails in CI', () => {
    const ctx = {
      skip(): never {
        throw new Error('must not skip in CI');
      },
    };
    expect(() => requireJaeger(ctx, { ...missing, CI: 'true' })).toThrow(/Jaeger not found at \/nonexistent\/jaeger.*ci-install-tools\.sh/s);
  });

  it('looks in the cache keyed by the version the build script builds', () => {
    expect(jaegerBinary({ XDG_CACHE_HOME: '/cache' })).toBe(`/cache/toolhooks/jaeger-${JAEGER_MODULE_VERSION}/jaeger`);
  });
});

describe('one Jaeger version and loopback listeners everywhere', () => {
  it('the build script, the tests and docker-compose.yml name the same Jaeger', async () => {
    const script = await readFile(join(ROOT, 'scripts/ci-install-tools.sh'), 'utf8');
    expect(script).toContain(`JAEGER_MODULE_VERSION=${JAEGER_MODULE_VERSION}`);
    const compose = await readFile(join(ROOT, 'docker-compose.yml'), 'utf8');
    // Go module v1.76.0 is the Jaeger 2.13.0 release.
    expect(compose).toMatch(/^\s+image: jaegertracing\/jaeger:2\.13\.0$/m);
    expect(compose).toContain('./deploy/jaeger/jaeger.yaml:/etc/jaeger/config.yaml:ro');
    expect(compose).toContain('./deploy/tail-sampling.yaml:/etc/otelcol-contrib/tail-sampling.yaml:ro');
  });

  it('every listener in the Jaeger configs binds 127.0.0.1 unless JAEGER_LISTEN_HOST says otherwise', async () => {
    const text = await readFile(JAEGER_CONFIG, 'utf8');
    const endpoints = [...text.matchAll(/^\s+endpoint: (.*?)\s*(#.*)?$/gm)].map((m) => m[1] ?? '');
    expect(endpoints.length).toBeGreaterThanOrEqual(5);
    for (const endpoint of endpoints) expect(endpoint).toMatch(/^"\$\{env:JAEGER_LISTEN_HOST:-127\.0\.0\.1\}:\d+"$/);
    expect(text).toMatch(/host: "\$\{env:JAEGER_LISTEN_HOST:-127\.0\.0\.1\}"/);
    const spm = await readFile(SPM_CONFIG, 'utf8');
    expect([...spm.matchAll(/^\s+endpoint: (.*?)\s*(#.*)?$/gm)].map((m) => m[1])).toEqual([
      '"${env:JAEGER_LISTEN_HOST:-127.0.0.1}:${env:TOOLHOOKS_SPANMETRICS_PORT:-8889}"', // the span metrics Prometheus scrapes
      '"${env:TOOLHOOKS_PROMETHEUS_URL:-http://127.0.0.1:9090}"', // the Prometheus the query service reads (a client)
    ]);
  });
});
