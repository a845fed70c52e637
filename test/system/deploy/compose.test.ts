import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTELCOL_VERSION } from '../../support/otelcol.js';
import { requirePrograms, runProgram } from '../../support/programs.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const composeFile = join(root, 'docker-compose.yml');

describe('docker-compose.yml, checked by the real docker-compose', () => {
  it('docker-compose config -q accepts the file', async (ctx) => {
    const { 'docker-compose': compose } = requirePrograms(ctx, ['docker-compose']);
    const result = await runProgram(compose, ['-f', composeFile, 'config', '-q'], { cwd: root });
    expect(result.code, result.output).toBe(0);
  });

  it('brings up Jaeger, Prometheus and either the pipeline (gateway, two samplers) or one collector', async (ctx) => {
    const { 'docker-compose': compose } = requirePrograms(ctx, ['docker-compose']);
    const result = await runProgram(compose, ['-f', composeFile, 'config', '--services'], { cwd: root });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout.trim().split('\n').sort()).toEqual(['gateway', 'jaeger', 'otel-collector', 'prometheus', 'sampler-1', 'sampler-2']);
  });

  it('mounts configuration files that exist', async (ctx) => {
    const { 'docker-compose': compose } = requirePrograms(ctx, ['docker-compose']);
    // `config` prints the resolved file with bind-mount host paths made absolute: `- /host/path:/container/path`
    // in v1.29, `source: /host/path` in v2.
    const result = await runProgram(compose, ['-f', composeFile, 'config'], { cwd: root });
    expect(result.code, result.output).toBe(0);
    const mounted = [...result.stdout.matchAll(/^\s+(?:- |source: )(\/[^:\s]+)/gm)].map((m) => m[1] ?? '');
    // (the samplers share one definition, so their files appear twice)
    expect(mounted.sort()).toEqual(
      [
        join(root, 'deploy/jaeger/badger.yaml'),
        join(root, 'deploy/jaeger/jaeger.yaml'),
        join(root, 'deploy/jaeger/memory.yaml'),
        join(root, 'deploy/otel-collector.yaml'),
        join(root, 'deploy/pipeline/gateway.yaml'),
        join(root, 'deploy/pipeline/sampler.yaml'),
        join(root, 'deploy/pipeline/sampler.yaml'),
        join(root, 'deploy/prometheus/alerts.yml'),
        join(root, 'deploy/prometheus/prometheus.yml'),
        join(root, 'deploy/tail-sampling.yaml'),
        join(root, 'deploy/tail-sampling.yaml'),
        join(root, 'deploy/tail-sampling.yaml'),
      ].sort(),
    );
    for (const path of mounted) await expect(readFile(path, 'utf8')).resolves.not.toBe('');
  });

  describe('a file docker-compose rejects', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'toolhooks-compose-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('fails config -q with docker-compose’s message', async (ctx) => {
      const { 'docker-compose': compose } = requirePrograms(ctx, ['docker-compose']);
      const broken = join(dir, 'docker-compose.yml');
      // A typo in a key, the kind of mistake the check is there for.
      await writeFile(broken, (await readFile(composeFile, 'utf8')).replace('    expose:\n', '    exposes:\n'));
      const result = await runProgram(compose, ['-f', broken, 'config', '-q'], { cwd: dir });
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toMatch(/exposes/);
    });
  });
});

describe('docker-compose.yml conventions', () => {
  it('pins every image to a version', async () => {
    const text = await readFile(composeFile, 'utf8');
    const images = [...text.matchAll(/^\s+image: (\S+)/gm)].map((m) => m[1] ?? '');
    expect(images).toHaveLength(5);
    for (const image of images) expect(image, image).toMatch(/:v?\d+\.\d+\.\d+$/);
    expect(images.some((image) => image.startsWith('jaegertracing/jaeger:2.'))).toBe(true);
    // Every collector runs the release scripts/build-otelcol.sh builds (the one the system tests run).
    const collectors = images.filter((image) => image.startsWith('otel/opentelemetry-collector-contrib:'));
    expect(collectors).toHaveLength(3);
    for (const image of collectors) expect(image).toBe(`otel/opentelemetry-collector-contrib:${OTELCOL_VERSION.slice(1)}`);
  });

  it('keeps the pipeline and the single collector in profiles of their own, Jaeger on Badger with a volume', async () => {
    const text = await readFile(composeFile, 'utf8');
    const profiles = [...text.matchAll(/^ {2}([\w-]+):.*\n(?:(?! {2}\S).*\n)*? {4}profiles: \[(\w+)\]/gm)].map((m) => `${m[1] ?? ''}=${m[2] ?? ''}`);
    expect(profiles.sort()).toEqual(['gateway=pipeline', 'otel-collector=single', 'sampler-1=pipeline']);
    expect(text).toMatch(/^ {2}sampler-2: \*sampler$/m);
    expect(text).toMatch(/- jaeger-badger:\/tmp$/m);
    expect(text).toMatch(/^volumes:\n {2}jaeger-badger:/m);
  });

  it('publishes only on 127.0.0.1 and comments every port', async () => {
    const text = await readFile(composeFile, 'utf8');
    const portLines = [...text.matchAll(/^\s+- "([\d.:]+)"(.*)$/gm)];
    expect(portLines.map((m) => m[1])).toEqual(
      expect.arrayContaining(['127.0.0.1:16686:16686', '127.0.0.1:4317:4317', '127.0.0.1:4318:4318', '127.0.0.1:9090:9090']),
    );
    for (const [line, port, rest] of portLines) {
      if ((port ?? '').split(':').length > 1) expect(port, line).toMatch(/^127\.0\.0\.1:/);
      expect(rest, `port ${port ?? ''} needs a comment`).toMatch(/#\s*\S/);
    }
  });

  it('has no top-level version key (obsolete in Compose v2)', async () => {
    const text = await readFile(composeFile, 'utf8');
    expect(text).not.toMatch(/^version:/m);
  });
});
