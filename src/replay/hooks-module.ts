/**
 * Loading the CLI's `--hooks` module: a file resolved from the working directory whose default export
 * is an array of hooks, a HookRunner, or runner options.
 * @internal
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { errorMessage, typeName } from '../internal/describe.js';
import { ReplayInputError } from './input-error.js';
import type { ReplayHooks } from './types.js';

function isUsable(value: unknown): value is ReplayHooks {
  if (Array.isArray(value)) return value.length > 0;
  const candidate = value as { hooks?: unknown } | null;
  return typeof candidate === 'object' && candidate !== null && Array.isArray(candidate.hooks) && candidate.hooks.length > 0;
}

/** Imports the module and returns its default export; throws {@link ReplayInputError} saying what is wrong and what to export. */
export async function loadHooksModule(specifier: string, cwd: string): Promise<ReplayHooks> {
  const url = pathToFileURL(resolve(cwd, specifier)).href;
  let module: { default?: unknown };
  try {
    module = (await import(url)) as { default?: unknown };
  } catch (error) {
    throw new ReplayInputError(`hooks module ${specifier} could not be loaded: ${errorMessage(error)}`, { cause: error });
  }
  let exported = module.default;
  // A CommonJS module compiled from ESM exports `{ default: … }` as module.exports.
  if (!isUsable(exported) && typeof exported === 'object' && exported !== null && 'default' in exported) {
    exported = (exported as { default?: unknown }).default;
  }
  if (isUsable(exported)) return exported;
  const what = exported === undefined ? 'has no default export' : `default-exports ${describeExport(exported)}`;
  throw new ReplayInputError(`hooks module ${specifier} ${what}; export default an array of hooks or a HookRunner`);
}

function describeExport(value: unknown): string {
  if (Array.isArray(value)) return 'an empty array';
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  if (Array.isArray(hooks)) return 'a runner with no hooks';
  return typeName(value);
}
