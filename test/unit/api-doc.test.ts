/**
 * docs/api.md says it lists "every public export of every entry point": this holds it to that. Each name an
 * entry point exports (parsed from its index.ts, not loaded) must appear in docs/api.md inside a code span
 * (`withHooks`, `withHooks(tools, runner)`, `HookedTools<T>`), so a new export without a line in the
 * reference fails here instead of going unnoticed.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryExports } from '../support/exports.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const API = readFileSync(fileURLToPath(new URL('../../docs/api.md', import.meta.url)), 'utf8');

/** Every identifier that stands in a code span (which may wrap onto the next line) or a fenced block of the page. */
function documentedNames(markdown: string): Set<string> {
  const names = new Set<string>();
  const code = [...markdown.matchAll(/```[^\n]*\n([\s\S]*?)```|`([^`]+)`/g)].map((match) => match[1] ?? match[2] ?? '');
  for (const span of code) for (const word of span.matchAll(/[A-Za-z_$][\w$]*/g)) names.add(word[0]);
  return names;
}

describe('docs/api.md', () => {
  const documented = documentedNames(API);
  for (const [entry, names] of entryExports(SRC)) {
    if (entry === 'cli/bin.ts') continue; // the CLI's surface is its commands, documented in replay.md
    it(`names every export of src/${entry}`, () => {
      expect(names.filter((name) => !documented.has(name))).toEqual([]);
    });
  }
});
