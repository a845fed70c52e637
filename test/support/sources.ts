/**
 * The source files of the repository, each read and parsed once per process and shared by every check that
 * reads the code itself: the layering and single-home checks (test/unit/architecture.test.ts), the
 * unused-exports check (./exports.ts) and docs/api.md's check (test/unit/api-doc.test.ts). The unit files
 * share one module graph per worker (`isolate: false`), so a file parsed for one check is not parsed again
 * for the next, even from another test file. Parsing uses the TypeScript parser alone (no program, no type
 * check); `node_modules` folders (test/sdk2/, test/strands/ install lanes) are never listed.
 *
 * A new check of the code reads `srcSources()` and returns what it finds:
 *
 * @example
 * ```ts
 * it('no file of src/ is named approval.ts', () => {
 *   expect(srcSources().filter(({ path }) => basename(path) === 'approval.ts').map(({ path }) => path)).toEqual([]);
 * });
 * it('the runner imports nothing from the flows', () => {
 *   const edges = srcSources().filter((source) => layerOf(source.path) === 'runner')
 *     .flatMap((source) => source.imports.filter((edge) => layerOf(edge.path) === 'flows').map((edge) => `${source.path} → ${edge.path}`));
 *   expect(edges).toEqual([]);
 * });
 * ```
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository's src/ folder (with a trailing separator). */
export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
/** The repository's test/ folder (with a trailing separator). */
export const TEST = fileURLToPath(new URL('../', import.meta.url));

/** One relative import, re-export or `import('…')` of a source file, resolved to the file it names. */
export interface SourceImport {
  /** The specifier as written: `./phase.js`, `../flows/handoff.js`. */
  readonly specifier: string;
  /** The absolute path of the .ts file it names (`dir/index.ts` for a folder; `x.js` → `x.ts` when no file is found). */
  readonly file: string;
  /** `file` relative to src/ (`flows/handoff.ts`); outside src/ it starts with `..`. */
  readonly path: string;
  /**
   * Erased at compile time: `import type` / `export type` declarations. An `import('…')` in a type position
   * counts as a runtime import (the layering rule always read it so); `import { type A }` is a runtime import.
   */
  readonly typeOnly: boolean;
}

/** A source file read and parsed once. */
export interface ParsedSource {
  /** Absolute path. */
  readonly file: string;
  /** Path relative to src/ (`runner/phase.ts`); test files start with `../test/`. */
  readonly path: string;
  /** The file's text, as read. */
  readonly text: string;
  /** The TypeScript syntax tree (parsed on first use, then kept). */
  readonly ast: ts.SourceFile;
  /** Its relative imports, re-exports and `import('…')`s, in source order (found on first use, then kept). */
  readonly imports: readonly SourceImport[];
}

const parsed = new Map<string, ParsedSource>();
const listed = new Map<string, readonly ParsedSource[]>();

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listTs(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `./x.js` from a file → the .ts file it names: `x.ts`, `x.js.ts`, or `x/index.ts`; `x.ts` when none exists. */
function resolveRelative(from: string, specifier: string): string {
  const base = normalize(join(dirname(from), specifier));
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => parsed.has(candidate) || existsSync(candidate)) ?? (candidates[0] as string);
}

function findImports(file: string, ast: ts.SourceFile): SourceImport[] {
  const found: SourceImport[] = [];
  const add = (specifier: string, typeOnly: boolean): void => {
    if (!specifier.startsWith('.')) return;
    const target = resolveRelative(file, specifier);
    found.push({ specifier, file: target, path: relative(SRC, target), typeOnly });
  };
  // Declarations are top-level statements; only `import('…')` (a type or a dynamic import) can stand deeper,
  // so the whole tree is walked only in the files whose text has one.
  const deep = ast.text.includes('import(');
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly === true : node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, false);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0];
      if (argument !== undefined && ts.isStringLiteral(argument)) add(argument.text, false);
    }
    if (deep) ts.forEachChild(node, visit);
  };
  for (const statement of ast.statements) visit(statement);
  return found;
}

/** The file at this absolute path, read and parsed once per process. */
export function parsedSource(file: string): ParsedSource {
  const known = parsed.get(file);
  if (known !== undefined) return known;
  const text = readFileSync(file, 'utf8');
  let ast: ts.SourceFile | undefined;
  let imports: SourceImport[] | undefined;
  const source: ParsedSource = {
    file,
    path: relative(SRC, file),
    text,
    get ast() {
      return (ast ??= ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false));
    },
    get imports() {
      return (imports ??= findImports(file, source.ast));
    },
  };
  parsed.set(file, source);
  return source;
}

/** Every .ts file under `dir` (declaration files included, node_modules excluded), each parsed once per process. */
export function parsedSources(dir: string): readonly ParsedSource[] {
  const key = normalize(dir);
  let sources = listed.get(key);
  if (sources === undefined) listed.set(key, (sources = listTs(key).map(parsedSource)));
  return sources;
}

/** Every .ts file of src/, each parsed once per process: what every check of the code reads. */
export function srcSources(): readonly ParsedSource[] {
  return parsedSources(SRC);
}

/** The layer of a file under src/ (a path relative to src/): the root's vocabulary and internal/ are the base; index.ts is the entry. */
export function layerOf(path: string): string {
  const parts = path.split(/[\\/]/);
  if (parts.length === 1) return parts[0] === 'index.ts' ? 'entry' : 'base';
  return parts[0] === 'internal' ? 'base' : (parts[0] as string);
}
