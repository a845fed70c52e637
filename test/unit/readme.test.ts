/**
 * test/unit/README.md lists every module of src/ and where it is tested; this keeps the list true: a new
 * module needs a row, and every test file a row names must exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path).split('\\').join('/')] : [];
  });
}

/** The table's rows: module → the cell naming where it is tested. */
function rows(): Map<string, string> {
  const table = new Map<string, string>();
  for (const line of readFileSync(join(ROOT, 'test/unit/README.md'), 'utf8').split('\n')) {
    const match = /^\| `([^`]+\.ts)` \| (.+) \|$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) table.set(match[1], match[2]);
  }
  return table;
}

describe('test/unit/README.md', () => {
  const table = rows();

  it('has a row for every module of src/, and none for a module that is gone', () => {
    const modules = sourceFiles(SRC).sort();
    expect([...table.keys()].sort()).toEqual(modules);
  });

  it('names only test files that exist (a bare file name is beside the one named before it)', () => {
    const missing: string[] = [];
    for (const [module, cell] of table) {
      let folder = '';
      for (const [, name] of cell.matchAll(/`([^`]+\.test\.ts)`/g)) {
        if (name === undefined) continue;
        const path = name.includes('/') ? name : join(folder, name);
        if (name.includes('/')) folder = dirname(name);
        if (!existsSync(join(ROOT, path))) missing.push(`${module}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('points a module to its own unit file whenever that file exists', () => {
    const unlisted = [...table].filter(([module, cell]) => {
      const own = `test/unit/${module.replace(/\.ts$/, '.test.ts')}`;
      return existsSync(join(ROOT, own)) && !cell.includes(own);
    });
    expect(unlisted).toEqual([]);
  });
});
