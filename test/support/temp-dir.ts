/**
 * A temporary directory for one test file: created now under the OS temp folder, removed (with what the
 * test wrote into it) when the file's tests are done.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Creates `toolhooks-<name>-XXXXXX` and removes it after all tests of the calling file; returns its path.
 *
 * @example
 * ```ts
 * const dir = useTempDir('replay');
 * writeFileSync(join(dir, 'traces.jsonl'), lines);
 * ```
 */
export function useTempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `toolhooks-${name}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
