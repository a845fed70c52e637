/**
 * The layering docs/architecture.md describes, checked against the code so the document cannot drift:
 * which folder of src/ may import which (runtime imports; `import type` is erased and may point
 * anywhere), the homes that must stay single — reports go through telemetry/warn-once.ts only —, that
 * an internal module exports only what another module or a test imports, and that every type an entry point
 * exports is declared in the types.ts beside it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTRY_POINTS, entryExports, unusedExports } from '../support/exports.js';
import { layerOf, parsedSource, SRC, srcSources, TEST } from '../support/sources.js';
import { useTempDir } from '../support/temp-dir.js';

/** Each layer and the layers it may import at run time (its own layer always). Keep in step with docs/architecture.md. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  base: [],
  telemetry: ['base'],
  runner: ['base', 'telemetry'],
  flows: ['base', 'telemetry', 'runner'],
  hooks: ['base', 'telemetry'],
  node: ['base', 'telemetry'],
  adapters: ['base', 'telemetry', 'runner', 'flows'],
  replay: ['base', 'telemetry', 'entry'],
  receipts: ['base', 'telemetry', 'runner', 'entry'],
  entry: ['base', 'telemetry', 'runner', 'flows'],
  limits: ['base', 'telemetry', 'runner', 'entry'],
  policy: ['base', 'telemetry', 'runner', 'entry'],
  cli: ['base', 'telemetry', 'replay', 'receipts'],
};

/**
 * Every check below reads src/ through `srcSources()` (test/support/sources.ts): each file is read and parsed
 * once, and its `path` (relative to src/), `text`, `ast` and resolved `imports` are shared by all the checks.
 */
const files = srcSources();

describe('src/ layering (docs/architecture.md, "Layers")', () => {
  it('every layer of the document exists, and every folder of src/ has a layer', () => {
    const layers = new Set(files.map(({ path }) => layerOf(path)));
    expect([...layers].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  it('each file imports only from its own layer and the layers below it', () => {
    const violations: string[] = [];
    for (const { path, imports } of files) {
      const from = layerOf(path);
      for (const target of imports) {
        if (target.typeOnly) continue;
        const to = layerOf(target.path);
        if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to)) violations.push(`${path} (${from}) imports ${target.path} (${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('the document names the same rule', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../docs/architecture.md', import.meta.url)), 'utf8');
    for (const [layer, below] of Object.entries(MAY_IMPORT)) {
      expect(doc).toContain(`| ${layer} | ${below.length === 0 ? '—' : below.join(', ')} |`);
    }
  });
});

describe('single homes', () => {
  it('nothing but telemetry/warn-once.ts reports through diag (the CLI only installs its logger)', () => {
    const users = files.filter(({ text }) => /^import \{[^}]*\bdiag\b[^}]*\} from '@opentelemetry\/api'/m.test(text));
    expect(users.map(({ path }) => path).sort()).toEqual([join('cli', 'bin.ts'), join('telemetry', 'warn-once.ts')]);
    const cli = files.find(({ path }) => path === join('cli', 'bin.ts'));
    expect(cli?.text).not.toMatch(/\bdiag\.(warn|error|info|debug|verbose)\(/);
  });

  it('nothing but telemetry/span.ts starts a span', () => {
    const starters = files.filter(({ text }) => /\.startSpan\(|\.startActiveSpan\(/.test(text.replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(starters.map(({ path }) => path)).toEqual([join('telemetry', 'span.ts')]);
  });
});

describe('public types and private state', () => {
  /** Whether the module's own header (its first doc comment) marks it @internal. */
  const isInternal = (target: string): boolean => /^\/\*\*[\s\S]*?\*\//.exec(parsedSource(target).text)?.[0].includes('@internal') === true;

  it('the public vocabulary (src/*.ts) imports, even as a type, no module marked @internal', () => {
    const violations: string[] = [];
    for (const { path, imports } of files.filter(({ path, file }) => layerOf(path) === 'base' && dirname(file) === normalize(SRC.replace(/[\\/]$/, '')))) {
      for (const target of imports) {
        if (target.typeOnly && isInternal(target.file)) violations.push(`${path} imports types from ${target.path} (@internal)`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('nothing but telemetry/otel-private.ts reads OpenTelemetry state no public API exposes', () => {
    const PRIVATE = /\b_spanLimits\b|\b_attributeValueLengthLimit\b|opentelemetry\.js\.api|\.ended\b|\bas unknown as \{[^}]*\b(?:name|attributes|ended)\?:/;
    const readers = files.filter(({ text }) => PRIVATE.test(text.replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(readers.map(({ path }) => path)).toEqual([join('telemetry', 'otel-private.ts')]);
  });
});

describe('exports', () => {
  it('every export of an internal module is imported by another module or a test', () => {
    expect(unusedExports(SRC, [TEST])).toEqual([]);
  });

  it('the check finds an export nothing imports, and counts every way of importing', () => {
    const dir = useTempDir('exports');
    mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
    const write = (path: string, text: string): void => writeFileSync(join(dir, path), text);
    write('src/index.ts', "export { used } from './lib/a.js';\nexport const surface = 1;\n");
    write('src/lib/a.ts', 'export const used = 1;\nexport const unused = 2;\nexport interface Shape { a: number }\nexport type Alias = string;\n');
    write('src/lib/b.ts', "import type { Shape } from './a.js';\nexport function lonely(shape: Shape): void { void shape; }\nexport type Q = import('./c.js').Named;\n");
    write('src/lib/c.ts', 'export interface Named { n: number }\nexport class Hidden {}\n');
    expect(unusedExports(join(dir, 'src'), [])).toEqual([join('lib', 'a.ts') + ': Alias', join('lib', 'a.ts') + ': unused', join('lib', 'b.ts') + ': Q', join('lib', 'b.ts') + ': lonely', join('lib', 'c.ts') + ': Hidden']);
  });
});

describe('approvals: one vocabulary (docs/architecture.md, "One Ask, from a hook to each framework")', () => {
  it('the runner imports nothing from the flows, not even a type: it owns the hand-off protocol they carry', () => {
    const edges = files
      .filter(({ path }) => layerOf(path) === 'runner')
      .flatMap(({ path, imports }) => imports.filter((edge) => layerOf(edge.path) === 'flows').map((edge) => `${path} imports ${edge.path}`));
    expect(edges).toEqual([]);
  });

  it('no two classes in src/ share a name, and no module is named approval.ts (approvals.ts)', () => {
    const homes = new Map<string, string[]>();
    for (const { path, text } of files) {
      for (const match of text.matchAll(/^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/gm)) {
        const name = match[1] as string;
        homes.set(name, [...(homes.get(name) ?? []), path]);
      }
    }
    expect([...homes].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where.join(', ')}`)).toEqual([]);
    expect(files.filter(({ path }) => basename(path) === 'approval.ts').map(({ path }) => path)).toEqual([]);
  });
});

/**
 * Where the types a module exports under `name` are declared: the interfaces and type aliases it stands for,
 * followed through imports and re-exports (renamed ones too, and `export *`) to the file that declares them
 * (its absolute path), or the package a type-only import or re-export names. Classes, functions and values are
 * not types here: they live where they are written.
 */
function typeDeclarations(file: string, name: string, seen = new Set<string>()): string[] {
  const key = `${file}\0${name}`;
  if (seen.has(key)) return [];
  seen.add(key);
  const { ast, imports } = parsedSource(file);
  if (ast.statements.some((statement) => (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.name.text === name)) return [file];
  /** Follows `local` into the module `specifier` names: a relative one to its file, a package's type-only one to the package. */
  const follow = (specifier: ts.Expression | undefined, local: string, typeOnly: boolean): string[] => {
    if (specifier === undefined) return local === name ? [] : typeDeclarations(file, local, seen);
    if (!ts.isStringLiteral(specifier)) return [];
    const target = imports.find((edge) => edge.specifier === specifier.text)?.file;
    if (target !== undefined) return typeDeclarations(target, local, seen);
    return typeOnly && !specifier.text.startsWith('.') ? [specifier.text] : [];
  };
  return ast.statements.flatMap((statement) => {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined) return follow(statement.moduleSpecifier, name, false); // export *
      if (!ts.isNamedExports(clause)) return [];
      const elements = clause.elements.filter((element) => element.name.text === name);
      return elements.flatMap((element) => follow(statement.moduleSpecifier, (element.propertyName ?? element.name).text, statement.isTypeOnly || element.isTypeOnly));
    }
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    if (!ts.isImportDeclaration(statement) || bindings === undefined || !ts.isNamedImports(bindings)) return [];
    const elements = bindings.elements.filter((element) => element.name.text === name);
    return elements.flatMap((element) => follow(statement.moduleSpecifier, (element.propertyName ?? element.name).text, statement.importClause?.isTypeOnly === true || element.isTypeOnly));
  });
}

/** The types the entry `src/<entry>` exports that are declared anywhere but `homes` (paths relative to `root`), one line each. */
function strayTypes(root: string, entry: string, names: readonly string[], homes: readonly string[]): string[] {
  const allowed = homes.map((home) => join(root, home));
  return names.flatMap((name) =>
    [...new Set(typeDeclarations(join(root, entry), name))]
      .filter((where) => !allowed.includes(where))
      .map((where) => `${entry} exports type ${name}, declared in ${where.startsWith(root) ? relative(root, where) : where}, not in ${homes.join(' or ')}`),
  );
}

describe('adapters (src/adapters/README.md)', () => {
  it('import src/ modules directly, never the package entry (not even its types), and each has the one skeleton', () => {
    const adapters = files.filter(({ path }) => layerOf(path) === 'adapters');
    const viaEntry = adapters.filter(({ imports }) => imports.some((edge) => layerOf(edge.path) === 'entry'));
    expect(viaEntry.map(({ path }) => path)).toEqual([]);
    const folders = new Set(adapters.map(({ path }) => dirname(path)).filter((folder) => folder !== 'adapters'));
    const missing = [...folders].flatMap((folder) => ['index.ts', 'types.ts', 'with-hooks.ts'].filter((name) => !adapters.some(({ path }) => path === join(folder, name))).map((name) => `${folder}/${name}`));
    expect([folders.size, missing]).toEqual([8, []]);
  });
});

/**
 * Where the types a folder's entry point exports must be declared (paths relative to src/): the types.ts
 * beside its index.ts, and for an adapter also adapters/types.ts (the types every adapter shares).
 */
function typeHomes(entry: string): string[] {
  const own = join(dirname(entry), 'types.ts');
  return layerOf(entry) === 'adapters' ? [own, join('adapters', 'types.ts')] : [own];
}

describe('entry points (docs/architecture.md, "Entry points")', () => {
  /**
   * Every entry of ENTRY_POINTS but two. The root, src/index.ts, has no types.ts and is not checked for one: it
   * gathers the vocabulary of several layers (decisions.ts and hook.ts, the runner's and each flow's options,
   * the capture options), each type declared by the layer that owns it; a root types.ts would have those layers
   * take their own options from above them. The command, cli/bin.ts, exports nothing.
   */
  it('every entry exports by name, and every type the entry of a folder exports (what toolhooks/<entry> gives as a type) is declared in its types.ts', () => {
    const byName = ENTRY_POINTS.flatMap((entry) => [...parsedSource(join(SRC, entry)).text.matchAll(/^export (type )?\* .*$/gm)].map((match) => `${entry}: ${match[0]}`));
    const folders = [...entryExports(SRC)].filter(([entry]) => basename(entry) === 'index.ts' && dirname(entry) !== '.');
    const stray = folders.flatMap(([entry, names]) => strayTypes(SRC, entry, names, typeHomes(entry)));
    expect([ENTRY_POINTS.length - folders.length, byName, stray]).toEqual([2, [], []]);
  });

  it('the types check follows every way an entry can export a type, and names the type and the file', () => {
    const dir = useTempDir('entry-types');
    mkdirSync(join(dir, 'a'));
    const write = (path: string, text: string): void => writeFileSync(join(dir, 'a', path), text);
    write('index.ts', [
      "export { withA } from './with-hooks.js';",
      "export { Approvals } from './approvals.js';",
      "export type { Options, Held as Pending } from './types.js';",
      "export type { Step } from './with-hooks.js';",
      "export type * from './call.js';",
      "export type { Peer } from 'some-peer';",
      'export interface Local { n: number }',
      '',
    ].join('\n'));
    write('types.ts', "export interface Options { a?: number }\nexport type { Held } from './pending.js';\n");
    write('pending.ts', 'export type Held = { id: string };\n');
    write('with-hooks.ts', "import type { Options } from './types.js';\nexport type Step = 'before' | 'after';\nexport function withA(options: Options): Step { void options; return 'before'; }\n");
    write('approvals.ts', 'export class Approvals {}\n');
    write('call.ts', 'export interface Call { id: string }\n');
    const names = ['withA', 'Approvals', 'Options', 'Pending', 'Step', 'Call', 'Peer', 'Local'];
    expect(strayTypes(dir, join('a', 'index.ts'), names, [join('a', 'types.ts')])).toEqual([
      `${join('a', 'index.ts')} exports type Pending, declared in ${join('a', 'pending.ts')}, not in ${join('a', 'types.ts')}`,
      `${join('a', 'index.ts')} exports type Step, declared in ${join('a', 'with-hooks.ts')}, not in ${join('a', 'types.ts')}`,
      `${join('a', 'index.ts')} exports type Call, declared in ${join('a', 'call.ts')}, not in ${join('a', 'types.ts')}`,
      `${join('a', 'index.ts')} exports type Peer, declared in some-peer, not in ${join('a', 'types.ts')}`,
      `${join('a', 'index.ts')} exports type Local, declared in ${join('a', 'index.ts')}, not in ${join('a', 'types.ts')}`,
    ]);
  });
});
