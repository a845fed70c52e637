/**
 * Reads the code blocks and links of the README and docs/ pages, for the tests that check the docs
 * against the packed package.
 *
 * Markers (an HTML comment on the line right before a ```ts fence):
 * - `<!-- runnable: NAME -->` — a whole program: it is type-checked, run as written against the packed
 *   package, and what it prints is checked (the expectations live in test/system/package/snippets.test.ts);
 *   before a ```js fence, a CommonJS program run with node in a project made with `npm init -y`, with the
 *   packages of the ```sh `npm install toolhooks …` block right before it installed;
 * - `<!-- fragment -->` — a piece of a larger program (it uses names defined elsewhere): not checked alone;
 * - `<!-- clone -->` (before a ```sh fence) — commands for a clone of the repository (`npm run demo`,
 *   `npm test`). Every other ```sh block of the README is for a project that installed the package: its
 *   commands name the package's files under `node_modules/toolhooks/`, and only files it ships.
 * Every other ```ts block must compile on its own with `tsc --strict` against the package's types.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One fenced code block of a markdown file. */
export interface CodeBlock {
  /** The file, relative to the repository root (`README.md`, `docs/flows.md`). */
  readonly file: string;
  /** The 1-based line of the block's first code line. */
  readonly line: number;
  /** The fence's info string (`ts`, `sh`, ``). */
  readonly lang: string;
  /** `runnable` with its name, `fragment`, or nothing. */
  readonly marker: { readonly kind: 'runnable'; readonly name: string } | { readonly kind: 'fragment' } | { readonly kind: 'clone' } | undefined;
  readonly code: string;
}

/** One `[text](target)` link of a markdown file. */
export interface MarkdownLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The markdown files the package ships and documents itself with: README.md and docs/*.md. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

const RUNNABLE = /^<!--\s*runnable:\s*([a-z0-9-]+)\s*-->$/;
const FRAGMENT = /^<!--\s*fragment\s*-->$/;
const CLONE = /^<!--\s*clone\s*-->$/;

/** The fenced code blocks of a file, with the marker on the line before each, if any. */
export function codeBlocks(root: string, file: string): CodeBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```(\S*)\s*$/.exec(lines[index] ?? '');
    if (open === null) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? '')) end += 1;
    const before = (lines[index - 1] ?? '').trim();
    const runnable = RUNNABLE.exec(before);
    const marker =
      runnable !== null
        ? { kind: 'runnable' as const, name: runnable[1] ?? '' }
        : FRAGMENT.test(before)
          ? { kind: 'fragment' as const }
          : CLONE.test(before)
            ? { kind: 'clone' as const }
            : undefined;
    blocks.push({ file, line: start + 1, lang: open[1] ?? '', marker, code: lines.slice(start, end).join('\n') + '\n' });
    index = end;
  }
  return blocks;
}

/** Every inline link and image of a file, outside code blocks and code spans. */
export function markdownLinks(root: string, file: string): MarkdownLink[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const links: MarkdownLink[] = [];
  let inFence = false;
  lines.forEach((text, index) => {
    if (/^```/.test(text)) inFence = !inFence;
    if (inFence) return;
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ file, line: index + 1, target: match[1] ?? '' });
    }
  });
  return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchors(root: string, file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const text of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (/^```/.test(text)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading === null) continue;
    const base = (heading[1] ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}
