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

/** How a module is loaded: Node's `import()` (a test gives its own, to see how each load failure reads). */
type ModuleLoader = (url: string) => Promise<unknown>;
const importModule: ModuleLoader = (url) => import(url);

/** Imports the module and returns its default export; throws {@link ReplayInputError} saying what is wrong and what to export. */
export async function loadHooksModule(specifier: string, cwd: string, load: ModuleLoader = importModule): Promise<ReplayHooks> {
  const url = pathToFileURL(resolve(cwd, specifier)).href;
  let module: { default?: unknown };
  try {
    module = (await load(url)) as { default?: unknown };
  } catch (error) {
    throw new ReplayInputError(`hooks module ${specifier} could not be loaded: ${errorMessage(error)}${loaderHint(specifier, error)}`, {
      cause: error,
    });
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

/** Errors Node raises for TypeScript it cannot run without a loader (no type stripping, or syntax it cannot strip). */
const TYPESCRIPT_LOAD_ERRORS: readonly string[] = [
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
  'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING',
  'ERR_MODULE_NOT_FOUND',
];

/** For a TypeScript policy Node could not load, how to load it. */
function loaderHint(specifier: string, error: unknown): string {
  if (!/\.[mc]?ts$/i.test(specifier)) return '';
  const code = (error as { code?: unknown } | null)?.code;
  // A TypeScript file Node parsed as JavaScript (a CommonJS app, a Node without type stripping) fails
  // with a plain SyntaxError, no code: that needs the loader as much as the coded errors do.
  const typescriptLoad = typeof code === 'string' ? TYPESCRIPT_LOAD_ERRORS.includes(code) : error instanceof SyntaxError;
  if (!typescriptLoad) return '';
  return `; a TypeScript policy needs a loader: npm install --save-dev tsx, then NODE_OPTIONS='--import tsx' npx toolhooks replay --hooks ${specifier} …`;
}

function describeExport(value: unknown): string {
  if (Array.isArray(value)) return 'an empty array';
  const hooks = (value as { hooks?: unknown } | null)?.hooks;
  if (Array.isArray(hooks)) return 'a runner with no hooks';
  return typeName(value);
}
