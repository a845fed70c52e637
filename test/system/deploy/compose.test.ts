import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrograms, runProgram } from '../../support/programs.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const composeFile = join(root, 'docker-compose.yml');

describe('docker-compose.yml, checked by the real docker-compose', () => {
  it('docker-compose config -q accepts the file', async (ctx) => {
    const { 'docker-compose': compose } = requirePrograms(ctx, ['docker-compose']);
    const result = await runProgram(compose, ['-f', composeFile, 'config', '-q'], { cwd: root });
    expect(result.code, result.output).toBe(0);
  });

  it('brings up Jaeger, the collector and Prometheus', async (ctx) => {
    const { 'docker-compose': compose } = requirePrograms(ctx, ['docker-compose']);
    const result = await runProgram(compose, ['-f', composeFile, 'config', '--services'], { cwd: root });
    expect(result.code, result.output).toBe(0);
    expect(result.stdout.trim().split('\n').sort()).toEqual(['jaeger', 'otel-collector', 'prometheus']);
  });

  it('mounts configuration files that exist', async (ctx) => {
    const { 'docker-compose': compose } = requirePrograms(ctx, ['docker-compose']);
    // `config` prints the resolved file with bind-mount host paths made absolute: `- /host/path:/container/path`
    // in v1.29, `source: /host/path` in v2.
    const result = await runProgram(compose, ['-f', composeFile, 'config'], { cwd: root });
    expect(result.code, result.output).toBe(0);
    const mounted = [...result.stdout.matchAll(/^\s+(?:- |source: )(\/[^:\s]+)/gm)].map((m) => m[1] ?? '');
    expect(mounted.sort()).toEqual(
      [
        join(root, 'deploy/jaeger/jaeger.yaml'),
        join(root, 'deploy/otel-collector.yaml'),
        join(root, 'deploy/prometheus/alerts.yml'),
        join(root, 'deploy/prometheus/prometheus.yml'),
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
    expect(images).toHaveLength(3);
    for (const image of images) expect(image, image).toMatch(/:v?\d+\.\d+\.\d+$/);
    expect(images.some((image) => image.startsWith('jaegertracing/jaeger:2.'))).toBe(true);
    expect(images.some((image) => image.startsWith('otel/opentelemetry-collector-contrib:'))).toBe(true);
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
