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
import type * as Limits from '../src/limits/index.js';
import type * as Receipts from '../src/receipts/index.js';

/**
 * The library's public API: `toolhooks` and `toolhooks/hooks`, `toolhooks/limits` when the build has it,
 * and `toolhooks/receipts`' exports when it has them.
 */
export type Library = typeof Core & typeof Hooks & { readonly limits?: typeof Limits } & Partial<typeof Receipts>;

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
    const limits = new URL('limits/index.js', dir);
    // An older build (`--dist`) has no toolhooks/limits or toolhooks/receipts: their rows are left out.
    const withLimits = existsSync(fileURLToPath(limits)) ? { limits: (await import(limits.href)) as typeof Limits } : {};
    const receipts = new URL('receipts/index.js', dir);
    const withReceipts = existsSync(fileURLToPath(receipts)) ? ((await import(receipts.href)) as object) : {};
    return { ...(await import(index.href)), ...(await import(new URL('hooks/index.js', dir).href)), ...withLimits, ...withReceipts } as Library;
  }
  return {
    ...(await import('../src/index.js')),
    ...(await import('../src/hooks/index.js')),
    limits: await import('../src/limits/index.js'),
    ...(await import('../src/receipts/index.js')),
  };
}
