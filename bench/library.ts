/**
 * Which build of toolhooks the benchmark measures. By default the JavaScript `tsc` emits (what users
 * run), compiled by `npm run bench` into bench/.dist; `--src` measures the TypeScript sources through
 * tsx instead (the smoke test does), whose transform adds a little per closure (esbuild's keepNames).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type * as Core from '../src/index.js';
import type * as Hooks from '../src/hooks/index.js';

/** The library's public API: `toolhooks` and `toolhooks/hooks`. */
export type Library = typeof Core & typeof Hooks;

/** Which build was loaded, for the report. */
export type Build = 'dist' | 'src';

const DIST = new URL('./.dist/index.js', import.meta.url);
const DIST_HOOKS = new URL('./.dist/hooks/index.js', import.meta.url);

/** Loads the compiled build when asked for and present, else the sources. */
export async function loadLibrary(build: Build): Promise<Library> {
  if (build === 'dist') {
    if (!existsSync(fileURLToPath(DIST))) throw new Error('bench/.dist is missing: run `npm run bench`, which compiles it first');
    return { ...(await import(DIST.href)), ...(await import(DIST_HOOKS.href)) } as Library;
  }
  return { ...(await import('../src/index.js')), ...(await import('../src/hooks/index.js')) };
}
