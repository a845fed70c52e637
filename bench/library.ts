/**
 * Which build of toolhooks the benchmark measures. By default the JavaScript `tsc` emits (what users
 * run), compiled by `npm run bench` into bench/.dist; `--src` measures the TypeScript sources through
 * tsx instead (the smoke test does), whose transform adds a little per closure (esbuild's keepNames).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Core from '../src/index.js';
import type * as Hooks from '../src/hooks/index.js';
import type * as Receipts from '../src/receipts/index.js';

/** The library's public API: `toolhooks` and `toolhooks/hooks`, and `toolhooks/receipts` when the build has it. */
export type Library = typeof Core & typeof Hooks & Partial<typeof Receipts>;

/** Which build was loaded, for the report. */
export type Build = 'dist' | 'src';

const DIST = new URL('./.dist/', import.meta.url);

/**
 * Loads the compiled build when asked for and present, else the sources. `distDir` (relative to the
 * working directory) measures another compiled tree, e.g. an older revision's, with today's harness.
 */
export async function loadLibrary(build: Build, distDir?: string): Promise<Library> {
  if (build === 'dist') {
    const dir = distDir === undefined ? DIST : pathToFileURL(`${resolve(distDir)}/`);
    const index = new URL('index.js', dir);
    if (!existsSync(fileURLToPath(index))) throw new Error(`${fileURLToPath(index)} is missing: run \`npm run bench\`, which compiles bench/.dist first`);
    const receipts = new URL('receipts/index.js', dir);
    const optional = existsSync(fileURLToPath(receipts)) ? ((await import(receipts.href)) as object) : {};
    return { ...(await import(index.href)), ...(await import(new URL('hooks/index.js', dir).href)), ...optional } as Library;
  }
  return { ...(await import('../src/index.js')), ...(await import('../src/hooks/index.js')), ...(await import('../src/receipts/index.js')) };
}
