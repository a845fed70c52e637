/**
 * scripts/build-otelcol.sh without building anything: a binary built from the same manifest is reused
 * (no Go needed), a changed manifest is rebuilt, and a machine without Go gets a message saying what to
 * install, with nothing left behind that looks like a finished binary. Go is kept off PATH (a directory
 * holding only the tools the script uses), so none of this can start a real build.
 */
import { chmod, copyFile, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTELCOL_VERSION } from '../../support/otelcol.js';
import { findProgram, runProgram } from '../../support/programs.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/build-otelcol.sh');
const MANIFEST = join(ROOT, 'deploy/otelcol-builder.yaml');
const TOOLS = ['bash', 'dirname', 'grep', 'cmp', 'mkdir', 'mktemp', 'cp', 'mv', 'rm', 'du', 'cut'];

describe('scripts/build-otelcol.sh', () => {
  let dir: string;
  let bin: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'toolhooks-build-otelcol-'));
    bin = join(dir, 'bin');
    await mkdir(bin);
    for (const tool of TOOLS) {
      const path = findProgram(tool);
      if (path === undefined) throw new Error(`${tool} not found on PATH`);
      await symlink(path, join(bin, tool));
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const run = (cache: string): ReturnType<typeof runProgram> =>
    runProgram(join(bin, 'bash'), [SCRIPT], { env: { PATH: bin, HOME: dir, XDG_CACHE_HOME: cache } });
  const built = async (cache: string, manifest: string): Promise<string> => {
    const target = join(cache, 'toolhooks', `otelcol-${OTELCOL_VERSION}`);
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'otelcol'), '#!/bin/sh\necho stand-in\n');
    await chmod(join(target, 'otelcol'), 0o755);
    await writeFile(join(target, 'manifest.yaml'), manifest);
    return join(target, 'otelcol');
  };

  it('reuses a collector built from the same manifest, without Go', async () => {
    const cache = join(dir, 'same');
    await mkdir(cache);
    const target = await built(cache, '');
    await copyFile(MANIFEST, join(cache, 'toolhooks', `otelcol-${OTELCOL_VERSION}`, 'manifest.yaml'));
    const result = await run(cache);
    expect(result.code, result.output).toBe(0);
    expect(result.stdout).toMatch(/already built/);
    expect(result.stdout.trim().split('\n').at(-1)).toBe(target);
  });

  it('rebuilds when the manifest changed, and without Go says what to install', async () => {
    const cache = join(dir, 'changed');
    await mkdir(cache);
    const target = await built(cache, 'dist:\n  name: something-else\n');
    const result = await run(cache);
    expect(result.code, result.output).toBe(1);
    expect(result.stdout).toMatch(/changed since .* was built; rebuilding/);
    expect(result.stderr).toMatch(/need Go \(1\.24 or later\).*https:\/\/go\.dev\/dl\//);
    // The old binary is untouched and no half-built one appeared.
    expect((await readdir(join(cache, 'toolhooks', `otelcol-${OTELCOL_VERSION}`))).sort()).toEqual(['manifest.yaml', 'otelcol']);
    expect(await readFile(target, 'utf8')).toMatch(/stand-in/);
  });
});
