/**
 * The package's documentation stands alone: every relative link in README.md and docs/*.md, and every
 * shipped file it names in code spans (`examples/retry.ts`, `deploy/...`), resolves to a file in the
 * packed tarball (as `npm pack --dry-run --json` lists it), and every `#anchor` to a heading.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, documentationFiles, headingAnchors, markdownLinks } from '../../support/markdown.js';
import { repoRoot } from '../../support/packed-app.js';

/** The files `npm pack` would put in the tarball (scripts skipped: no link points into the build output). */
function packedFiles(): Set<string> {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8' });
  const [report] = JSON.parse(out) as { files: { path: string }[] }[];
  return new Set((report?.files ?? []).map((file) => file.path));
}

const files = packedFiles();
const docs = documentationFiles(repoRoot);

function inPackage(path: string): boolean {
  if (files.has(path)) return true;
  const folder = path.endsWith('/') ? path : `${path}/`;
  return [...files].some((file) => file.startsWith(folder));
}

describe('the documentation links only to what the package ships', () => {
  it('ships every markdown page it checks, and the files a user needs next to them', () => {
    for (const file of [...docs, 'LICENSE', 'CHANGELOG.md', 'docker-compose.yml', 'package.json']) expect(files, file).toContain(file);
    expect(inPackage('examples')).toBe(true);
    expect(inPackage('deploy/prometheus')).toBe(true);
  });

  it('every relative link resolves to a shipped file, and every #anchor to a heading', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      for (const link of markdownLinks(repoRoot, doc)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // http:, https:, mailto:
        const [path = '', anchor] = link.target.split('#');
        const target = path === '' ? doc : normalize(join(dirname(doc), decodeURIComponent(path))).replace(/\\/g, '/');
        const where = `${link.file}:${link.line} → ${link.target}`;
        if (target.startsWith('..') || !inPackage(target)) {
          broken.push(`${where}: ${target} is not in the package`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !headingAnchors(repoRoot, target).has(anchor)) {
          broken.push(`${where}: ${target} has no heading #${anchor}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every shipped-looking path named in a code span (examples/, deploy/, docs/, src/, docker-compose.yml) is in the package', () => {
    const missing: string[] = [];
    for (const doc of docs) {
      readFileSync(join(repoRoot, doc), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          for (const match of line.matchAll(/`(?:node_modules\/toolhooks\/)?((?:examples|deploy|docs|src)\/[\w./-]*\w|docker-compose\.yml)`/g)) {
            const path = match[1] ?? '';
            if (!inPackage(path)) missing.push(`${doc}:${index + 1}: ${path}`);
          }
        });
    }
    expect(missing).toEqual([]);
  });

  it("every command of the README's shell blocks for npm users works in a project that installed the package", () => {
    const problems: string[] = [];
    for (const block of codeBlocks(repoRoot, 'README.md')) {
      if (block.lang !== 'sh' || block.marker?.kind === 'clone') continue;
      block.code.split('\n').forEach((line, index) => {
        const where = `README.md:${block.line + index}`;
        const command = line.replace(/\s#.*$/, '');
        if (/\bnpm run\b/.test(command)) problems.push(`${where}: npm run is a script of the repository, not of the user's project`);
        for (const match of command.matchAll(/(?<![\w./~-])((?:node_modules\/toolhooks\/)?(?:examples|deploy|docs|src|scripts|test|bench)\/[\w./-]*\w|(?:node_modules\/toolhooks\/)?docker-compose\.yml)/g)) {
          const path = match[1] ?? '';
          if (!path.startsWith('node_modules/toolhooks/')) problems.push(`${where}: ${path} is a path in a clone; in a project it is node_modules/toolhooks/${path}`);
          else if (!inPackage(path.slice('node_modules/toolhooks/'.length))) problems.push(`${where}: ${path} is not in the package`);
        }
      });
    }
    expect(problems).toEqual([]);
  });
});
