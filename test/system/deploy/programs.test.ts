import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findProgram, isCi, missingProgramsNote, requirePrograms, runProgram } from '../../support/programs.js';

class Skipped extends Error {}
const skippingContext = {
  skip(note?: string): never {
    throw new Skipped(note);
  },
};

describe('programs helper', () => {
  let bin: string;
  let other: string;

  beforeAll(async () => {
    bin = await mkdtemp(join(tmpdir(), 'toolhooks-bin-'));
    other = await mkdtemp(join(tmpdir(), 'toolhooks-bin-'));
    await writeFile(join(bin, 'promtool'), '#!/bin/sh\necho "fake promtool $*"; echo oops >&2; exit 3\n');
    await chmod(join(bin, 'promtool'), 0o755);
    await writeFile(join(other, 'prometheus'), 'not executable');
    await chmod(join(other, 'prometheus'), 0o644);
  });

  afterAll(async () => {
    await rm(bin, { recursive: true, force: true });
    await rm(other, { recursive: true, force: true });
  });

  it('finds an executable on the search path and ignores non-executable files', () => {
    const path = [other, bin].join(delimiter);
    expect(findProgram('promtool', path)).toBe(join(bin, 'promtool'));
    expect(findProgram('prometheus', path)).toBeUndefined();
    expect(findProgram('docker-compose', path)).toBeUndefined();
  });

  it('ignores relative and empty PATH entries', () => {
    expect(findProgram('promtool', ['', '.', 'bin'].join(delimiter))).toBeUndefined();
  });

  it('returns the paths when every program is there', () => {
    const env = { PATH: bin };
    expect(requirePrograms(skippingContext, ['promtool'], env)).toEqual({ promtool: join(bin, 'promtool') });
  });

  it('skips outside CI, saying how to install the missing program', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const run = (): unknown => requirePrograms(skippingContext, ['promtool', 'docker-compose'], { PATH: other });
      expect(run).toThrow(Skipped);
      expect(run).toThrow(/promtool, docker-compose not found on PATH/);
      expect(run).toThrow(/apt-get install prometheus docker-compose/);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('apt-get install prometheus docker-compose'));
    } finally {
      warn.mockRestore();
    }
  });

  it('fails in CI instead of skipping', () => {
    const run = (): unknown => requirePrograms(skippingContext, ['prometheus'], { PATH: other, CI: 'true' });
    expect(run).toThrow(/prometheus not found on PATH/);
    expect(run).not.toThrow(Skipped);
  });

  it('reads CI the way CI systems set it', () => {
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: '' })).toBe(false);
    expect(isCi({ CI: 'false' })).toBe(false);
    expect(isCi({ CI: '0' })).toBe(false);
  });

  it('names each package once in the install note', () => {
    expect(missingProgramsNote(['promtool', 'prometheus'])).toContain('`sudo apt-get install prometheus`');
  });

  it('runs a program and reports its exit code and both streams', async () => {
    const result = await runProgram(join(bin, 'promtool'), ['check', 'rules']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('fake promtool check rules\n');
    expect(result.stderr).toBe('oops\n');
    expect(result.output).toContain('(exit code 3)');
    expect(result.output).toContain('fake promtool check rules');
    expect(result.output).toContain('oops');
  });
});
