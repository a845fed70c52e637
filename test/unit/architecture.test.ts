/**
 * The layering docs/architecture.md describes, checked against the code so the document cannot drift:
 * which folder of src/ may import which (runtime imports; `import type` is erased and may point
 * anywhere), the homes that must stay single — reports go through telemetry/warn-once.ts only — and
 * that an internal module exports only what another module or a test imports.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unusedExports } from '../support/exports.js';
import { useTempDir } from '../support/temp-dir.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Each layer and the layers it may import at run time (its own layer always). Keep in step with docs/architecture.md. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  base: [],
  telemetry: ['base'],
  runner: ['base', 'telemetry'],
  flows: ['base', 'telemetry', 'runner'],
  hooks: ['base', 'telemetry'],
  node: ['base', 'telemetry'],
  adapters: ['base', 'telemetry', 'runner', 'flows'],
  replay: ['base', 'telemetry', 'entry', 'receipts'],
  receipts: ['base', 'telemetry', 'runner', 'entry'],
  entry: ['base', 'telemetry', 'runner', 'flows'],
  limits: ['base', 'telemetry', 'runner', 'entry'],
  policy: ['base', 'telemetry', 'runner', 'entry'],
};

/** The layer of a file under src/: the root's vocabulary and internal/ are the base; index.ts is the entry. */
function layerOf(file: string): string {
  const path = relative(SRC, file).split(/[\\/]/);
  if (path.length === 1) return path[0] === 'index.ts' ? 'entry' : 'base';
  return path[0] === 'internal' ? 'base' : (path[0] as string);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Runtime imports and re-exports of a file, resolved to .ts paths. */
function runtimeImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)(\s+type)?\s[^;]*?from\s+'(\.[^']+)'/gm)) {
    if (match[1] !== undefined) continue;
    found.push(normalize(join(dirname(file), (match[2] as string).replace(/\.js$/, '.ts'))));
  }
  for (const match of text.matchAll(/import\('(\.[^']+)'\)/g)) found.push(normalize(join(dirname(file), (match[1] as string).replace(/\.js$/, '.ts'))));
  return found;
}

const files = sourceFiles(SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

describe('src/ layering (docs/architecture.md, "Layers")', () => {
  it('every layer of the document exists, and every folder of src/ has a layer', () => {
    const layers = new Set(files.map(({ file }) => layerOf(file)));
    expect([...layers].sort()).toEqual(Object.keys(MAY_IMPORT).sort());
  });

  it('each file imports only from its own layer and the layers below it', () => {
    const violations: string[] = [];
    for (const { file, text } of files) {
      const from = layerOf(file);
      for (const target of runtimeImports(file, text)) {
        const to = layerOf(target);
        if (to !== from && !(MAY_IMPORT[from] ?? []).includes(to)) violations.push(`${relative(SRC, file)} (${from}) imports ${relative(SRC, target)} (${to})`);
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
    expect(users.map(({ file }) => relative(SRC, file)).sort()).toEqual([join('replay', 'cli.ts'), join('telemetry', 'warn-once.ts')]);
    const cli = files.find(({ file }) => relative(SRC, file) === join('replay', 'cli.ts'));
    expect(cli?.text).not.toMatch(/\bdiag\.(warn|error|info|debug|verbose)\(/);
  });

  it('nothing but telemetry/span.ts starts a span', () => {
    const starters = files.filter(({ text }) => /\.startSpan\(|\.startActiveSpan\(/.test(text.replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(starters.map(({ file }) => relative(SRC, file))).toEqual([join('telemetry', 'span.ts')]);
  });
});

describe('public types and private state', () => {
  /** Whether the module's own header (its first doc comment) marks it @internal. */
  const isInternal = (target: string): boolean => /^\/\*\*[\s\S]*?\*\//.exec(readFileSync(target, 'utf8'))?.[0].includes('@internal') === true;

  it('the public vocabulary (src/*.ts) imports, even as a type, no module marked @internal', () => {
    const violations: string[] = [];
    for (const { file, text } of files.filter(({ file }) => layerOf(file) === 'base' && dirname(file) === normalize(SRC.replace(/[\\/]$/, '')))) {
      for (const match of text.matchAll(/^import\s+type\s[^;]*?from\s+'(\.[^']+)'/gm)) {
        const target = normalize(join(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')));
        if (isInternal(target)) violations.push(`${relative(SRC, file)} imports types from ${relative(SRC, target)} (@internal)`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('nothing but telemetry/otel-private.ts reads OpenTelemetry state no public API exposes', () => {
    const PRIVATE = /\b_spanLimits\b|\b_attributeValueLengthLimit\b|opentelemetry\.js\.api|\.ended\b|\bas unknown as \{[^}]*\b(?:name|attributes|ended)\?:/;
    const readers = files.filter(({ text }) => PRIVATE.test(text.replace(/^\s*(\*|\/\/).*$/gm, '')));
    expect(readers.map(({ file }) => relative(SRC, file))).toEqual([join('telemetry', 'otel-private.ts')]);
  });
});

describe('exports', () => {
  it('every export of an internal module is imported by another module or a test', () => {
    expect(unusedExports(SRC, [fileURLToPath(new URL('../', import.meta.url))])).toEqual([]);
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
    const edges: string[] = [];
    for (const { file, text } of files.filter(({ file }) => layerOf(file) === 'runner')) {
      for (const match of text.matchAll(/(?:\bfrom\s+|\bimport\()'(\.[^']+)'/g)) {
        const target = normalize(join(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')));
        if (layerOf(target) === 'flows') edges.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
      }
    }
    expect(edges).toEqual([]);
  });

  it('no two classes in src/ share a name, and no module is named approval.ts (approvals.ts)', () => {
    const homes = new Map<string, string[]>();
    for (const { file, text } of files) {
      for (const match of text.matchAll(/^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/gm)) {
        const name = match[1] as string;
        homes.set(name, [...(homes.get(name) ?? []), relative(SRC, file)]);
      }
    }
    expect([...homes].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where.join(', ')}`)).toEqual([]);
    expect(files.filter(({ file }) => file.endsWith(`${sep}approval.ts`)).map(({ file }) => relative(SRC, file))).toEqual([]);
  });
});

describe('adapters (src/adapters/README.md)', () => {
  it('import src/ modules directly, never the package entry (not even its types), and each has the one skeleton', () => {
    const adapters = files.filter(({ file }) => layerOf(file) === 'adapters');
    const viaEntry = adapters.filter(({ file, text }) =>
      [...text.matchAll(/^(?:import|export)\b[^;]*?from\s+'(\.[^']+)'/gm)].some((match) => layerOf(normalize(join(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')))) === 'entry'),
    );
    expect(viaEntry.map(({ file }) => relative(SRC, file))).toEqual([]);
    const folders = new Set(adapters.map(({ file }) => relative(join(SRC, 'adapters'), dirname(file))).filter((folder) => folder !== ''));
    const missing = [...folders].flatMap((folder) => ['index.ts', 'types.ts', 'with-hooks.ts'].filter((name) => !adapters.some(({ file }) => file === join(SRC, 'adapters', folder, name))).map((name) => `${folder}/${name}`));
    expect([folders.size, missing]).toEqual([8, []]);
  });

  it('the entry points of policy, limits and receipts follow the same skeleton: exports by name, public types from types.ts', () => {
    const entries = files.filter(({ file }) => ['policy', 'limits', 'receipts'].includes(layerOf(file)) && relative(SRC, file).endsWith('index.ts'));
    const stray = entries.flatMap(({ file, text }) =>
      [...text.matchAll(/^export (type )?(\*|\{[^}]*\}) from '([^']+)'/gm)].filter((match) => match[2] === '*' || (match[1] !== undefined && match[3] !== './types.js')).map((match) => `${relative(SRC, file)}: ${match[0]}`),
    );
    expect([entries.length, stray]).toEqual([3, []]);
  });
});
