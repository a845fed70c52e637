/**
 * Which exports of src/ nothing imports: each file is parsed with the TypeScript parser (no type check),
 * its exported names listed, and every import, re-export and `import('…')` type of every other file of
 * src/ and test/ resolved to the file it names. A name is used when another file imports or re-exports it
 * by name (or the whole module, with `import * as`); a unit test that checks a module's limit is a user
 * of it. The public entry points (the package's `exports` map and the CLI) are the surface: what they
 * export is used by definition. The files come parsed from ./sources.ts (once per process, shared with the
 * other checks of the code; node_modules folders, such as the install lanes under test/, are not read).
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { parsedSource, parsedSources } from './sources.js';

/** The package's `exports` (ESM builds) and `bin`, as in package.json. */
interface PackageSurface {
  readonly exports: Readonly<Record<string, string | { readonly import?: { readonly default?: string } }>>;
  readonly bin: Readonly<Record<string, string>>;
}

/** A built file (`./dist/esm/adapters/ai/index.js`) as the source it is compiled from (`adapters/ai/index.ts`). */
function sourceOf(built: string): string {
  const match = /^\.\/dist\/esm\/(.+)\.js$/.exec(built);
  if (match === null) throw new Error(`package.json names ${built}, not a file of dist/esm/`);
  return `${match[1] as string}.ts`;
}

/**
 * The files whose exports are the package's surface, relative to src/: read from package.json's `exports`
 * and `bin`, so a new entry point is checked as soon as it is published.
 */
export const ENTRY_POINTS: readonly string[] = (() => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageSurface;
  const entries = Object.values(pkg.exports).flatMap((target) => (typeof target === 'string' ? [] : [sourceOf(target.import?.default ?? '')]));
  return [...entries, ...Object.values(pkg.bin).map(sourceOf)];
})();

const ALL = '*';

/** The .ts files under `dir` (declaration files aside), parsed once per process. */
const sourceFiles = (dir: string): ReturnType<typeof parsedSources> => parsedSources(dir).filter(({ file }) => !file.endsWith('.d.ts'));

function hasExportKeyword(node: ts.Node): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}

/** The names a file exports itself (declarations and `export { … }` lists, re-exports included). */
function exportedNames(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause !== undefined && ts.isNamedExports(clause)) for (const element of clause.elements) names.push(element.name.text);
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      names.push('default');
      continue;
    }
    if (!hasExportKeyword(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      names.push(statement.name.text);
    }
  }
  return names;
}

/** `./x.js` from a file → the .ts file it names (`./dir/index.ts` for a folder); undefined for a package. */
function resolve(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = normalize(join(dirname(from), specifier));
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) if (known.has(candidate)) return candidate;
  return undefined;
}

/** Every (file, name) another file imports or re-exports; `*` for a whole module. */
function importedNames(file: string, source: ts.SourceFile, known: ReadonlySet<string>, use: (target: string, name: string) => void): void {
  // Declarations are top-level statements; only `import('…')` (a type or a dynamic import) can stand deeper,
  // so the whole tree is walked only in the files whose text has one.
  const deep = source.text.includes('import(');
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const target = resolve(file, node.moduleSpecifier.text, known);
      if (target !== undefined) {
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (clause?.name !== undefined) use(target, 'default');
          const bindings = clause?.namedBindings;
          if (bindings !== undefined && ts.isNamespaceImport(bindings)) use(target, ALL);
          if (bindings !== undefined && ts.isNamedImports(bindings)) for (const element of bindings.elements) use(target, (element.propertyName ?? element.name).text);
        } else {
          const clause = node.exportClause;
          if (clause === undefined || !ts.isNamedExports(clause)) use(target, ALL);
          else for (const element of clause.elements) use(target, (element.propertyName ?? element.name).text);
        }
      }
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      const target = resolve(file, node.argument.literal.text, known);
      if (target !== undefined) use(target, node.qualifier === undefined ? ALL : ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.left.getText(source));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0];
      if (argument !== undefined && ts.isStringLiteral(argument)) {
        const target = resolve(file, argument.text, known);
        if (target !== undefined) use(target, ALL);
      }
    }
    if (deep) ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) visit(statement);
}

/** The names each public entry point exports (ENTRY_POINTS, relative to src/), parsed, not loaded. */
export function entryExports(srcDir: string): Map<string, string[]> {
  return new Map(ENTRY_POINTS.map((path) => [path, exportedNames(parsedSource(join(srcDir, path)).ast)]));
}

/** `file: name` for every export of src/ that no other file of src/ or of `importerDirs` imports, outside the entry points. */
export function unusedExports(srcDir: string, importerDirs: readonly string[]): string[] {
  const files = sourceFiles(srcDir);
  const known = new Set(files.map(({ file }) => file));
  const sources = new Map(files.map(({ file, ast }) => [file, ast]));
  const importers = new Map(sources);
  // A file outside srcDir names a file in it only by a path that spells srcDir's own name: the others are not parsed.
  const srcName = basename(normalize(srcDir));
  for (const dir of importerDirs) for (const source of sourceFiles(dir)) if (source.text.includes(srcName)) importers.set(source.file, source.ast);
  const used = new Map<string, Set<string>>();
  for (const [file, source] of importers) {
    importedNames(file, source, known, (target, name) => {
      if (target === file) return;
      let names = used.get(target);
      if (names === undefined) used.set(target, (names = new Set()));
      names.add(name);
    });
  }
  const entries = new Set(ENTRY_POINTS.map((path) => join(srcDir, path)));
  const unused: string[] = [];
  for (const [file, source] of sources) {
    if (entries.has(file)) continue;
    const names = used.get(file);
    if (names?.has(ALL) === true) continue;
    for (const name of exportedNames(source)) if (names?.has(name) !== true) unused.push(`${relative(srcDir, file)}: ${name}`);
  }
  return unused.sort();
}
