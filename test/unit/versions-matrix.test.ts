/**
 * The version matrix (test/versions.json, run by scripts/test-versions.mjs) against package.json: every
 * peer has an entry, the entries' ranges are the peer ranges, every point pins a release inside its range,
 * a point the normal tiers run is the version those tiers install, and every test file named exists.
 */
import { existsSync, globSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PEERS as POLICY_PEERS } from '../../src/policy/peer.js';

interface Point {
  lane: 'root' | 'sdk2' | 'strands' | 'matrix';
  install?: Record<string, string>;
  versions?: Record<string, string>;
}
interface Entry {
  id: string;
  entryPoint: string;
  framework: string;
  peers: Record<string, string>;
  imports?: Record<string, string>;
  env?: Record<string, string>;
  tests: string[] | string;
  oldest: Point;
  newest: Point;
}

const root = new URL('../../', import.meta.url);
const readJson = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, root), 'utf8')) as T;
const { entries } = readJson<{ entries: Entry[] }>('test/versions.json');
const pkg = readJson<{ peerDependencies: Record<string, string>; exports: Record<string, unknown> }>('package.json');
const lock = readJson<{ packages: Record<string, { version?: string }> }>('package-lock.json');

type Version = [number, number, number];
const parse = (text: string): Version => {
  const parts = text.split('.').map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
};
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
/** The upper bound (exclusive) of a caret range: the next version that changes the leftmost non-zero part. */
const caretLimit = ([major, minor, patch]: Version): Version =>
  major > 0 ? [major + 1, 0, 0] : minor > 0 ? [0, minor + 1, 0] : [0, 0, patch + 1];

/**
 * Whether a release satisfies a range of the forms package.json uses (`^x.y.z`, `~x.y.z`, `>=a <b`,
 * `x.y.z`, joined by `||`); a range of another form fails the test that uses it rather than passing.
 */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((set) =>
    set
      .trim()
      .split(/\s+/)
      .every((comparator) => {
        const match = /^(\^|~|>=|<=|>|<|=)?(\d+(?:\.\d+){0,2})$/.exec(comparator);
        if (match === null) throw new Error(`range ${range}: the check does not read ${comparator}`);
        const bound = parse(match[2] ?? '');
        switch (match[1]) {
          case '^':
            return compare(v, bound) >= 0 && compare(v, caretLimit(bound)) < 0;
          case '~':
            return compare(v, bound) >= 0 && compare(v, [bound[0], bound[1] + 1, 0]) < 0;
          case '>=':
            return compare(v, bound) >= 0;
          case '<=':
            return compare(v, bound) <= 0;
          case '>':
            return compare(v, bound) > 0;
          case '<':
            return compare(v, bound) < 0;
          default:
            return compare(v, bound) === 0;
        }
      }),
  );
}

const pointVersions = (point: Point): Record<string, string> => point.install ?? point.versions ?? {};
const testsOf = (entry: Entry): string[] => {
  const { tests } = entry;
  if (typeof tests !== 'string') return tests;
  const other = entries.find((candidate) => candidate.id === tests);
  return other === undefined ? [`(no entry ${tests})`] : testsOf(other);
};
/** The name a package is installed under in a lane (an entry's `imports` may alias it, as `ai-v6` is AI SDK 6). */
const installedName = (entry: Entry, name: string): string =>
  Object.entries(entry.imports ?? {}).find(([, target]) => target === name)?.[0] ?? name;

describe('the range check', () => {
  it('reads the forms package.json uses', () => {
    expect(satisfies('6.0.0', '^6.0.0 || ^7.0.0')).toBe(true);
    expect(satisfies('7.0.173', '^6.0.0 || ^7.0.0')).toBe(true);
    expect(satisfies('8.0.0', '^6.0.0 || ^7.0.0')).toBe(false);
    expect(satisfies('0.20.9', '>=0.20.0 <0.21')).toBe(true);
    expect(satisfies('0.21.0', '>=0.20.0 <0.21')).toBe(false);
    expect(satisfies('0.4.0', '^0.3.0')).toBe(false);
    expect(satisfies('1.10.5', '~1.10.0')).toBe(true);
    expect(satisfies('1.11.0', '~1.10.0')).toBe(false);
    expect(() => satisfies('1.0.0', '1.x')).toThrow('does not read 1.x');
  });
});

describe('test/versions.json', () => {
  it('has an entry for every peer of package.json, and names no other peer', () => {
    const covered = new Set(entries.flatMap((entry) => Object.keys(entry.peers)));
    expect([...covered].sort()).toEqual(Object.keys(pkg.peerDependencies).sort());
  });

  it("gives each peer package.json's range: its entries' ranges, joined by ||", () => {
    for (const [name, range] of Object.entries(pkg.peerDependencies)) {
      const ranges = [...new Set(entries.flatMap((entry) => (entry.peers[name] === undefined ? [] : [entry.peers[name]])))];
      expect(ranges.join(' || '), name).toBe(range);
    }
  });

  it('names each entry once, each for an entry point of the package', () => {
    const ids = entries.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const entry of entries) {
      const subpath = entry.entryPoint === 'toolhooks' ? '.' : entry.entryPoint.replace(/^toolhooks\//, './');
      expect(pkg.exports, entry.id).toHaveProperty([subpath]);
    }
  });

  it('pins, at each point, a release of every peer of the entry inside its range', () => {
    for (const entry of entries) {
      for (const which of ['oldest', 'newest'] as const) {
        const versions = pointVersions(entry[which]);
        for (const [name, range] of Object.entries(entry.peers)) {
          const version = versions[name];
          expect(version, `${entry.id}:${which} ${name}`).toMatch(/^\d+\.\d+\.\d+$/);
          expect(satisfies(version ?? '', range), `${entry.id}:${which} ${name}@${version} in ${range}`).toBe(true);
        }
      }
      for (const [name] of Object.entries(entry.peers)) {
        const [oldest, newest] = [pointVersions(entry.oldest)[name] ?? '', pointVersions(entry.newest)[name] ?? ''];
        expect(compare(parse(oldest), parse(newest)), `${entry.id} ${name}: oldest ${oldest} after newest ${newest}`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('has the matrix install its points, and the other lanes install the versions their points name', () => {
    for (const entry of entries) {
      for (const which of ['oldest', 'newest'] as const) {
        const point = entry[which];
        const where = `${entry.id}:${which}`;
        if (point.lane === 'matrix') {
          expect(point.install, where).toBeDefined();
          expect(point.versions, where).toBeUndefined();
          continue;
        }
        expect(point.install, where).toBeUndefined();
        for (const [name, version] of Object.entries(point.versions ?? {})) {
          const installed =
            point.lane === 'root'
              ? lock.packages[`node_modules/${installedName(entry, name)}`]?.version
              : readJson<{ dependencies: Record<string, string> }>(`test/${point.lane}/package.json`).dependencies[name];
          expect(installed, `${where} ${name}`).toBe(version);
        }
      }
    }
  });

  it('names test files that exist, and env and imports only for a lane that uses them', () => {
    for (const entry of entries) {
      const tests = testsOf(entry);
      expect(tests.length, entry.id).toBeGreaterThan(0);
      for (const pattern of tests) {
        const found = pattern.includes('*') ? globSync(pattern, { cwd: root }).length > 0 : existsSync(new URL(pattern, root));
        expect(found, `${entry.id}: ${pattern}`).toBe(true);
      }
      const laneNames = new Set([...Object.keys(entry.oldest.install ?? {}), ...Object.keys(entry.newest.install ?? {})]);
      for (const [name, target] of Object.entries(entry.imports ?? {})) {
        expect(laneNames.has(target) || entry.newest.lane !== 'matrix', `${entry.id}: imports ${name} → ${target}`).toBe(true);
      }
    }
  });

  it("agrees with the ranges toolhooks/policy names when a peer is missing", () => {
    for (const [name, range] of Object.entries(POLICY_PEERS)) expect(range, name).toBe(pkg.peerDependencies[name]);
  });

  it('agrees with the range each adapter names in its messages (SUPPORTED_*_RANGE)', () => {
    // `^1.58.0` and `>=1.58.0 <2` are the same releases: compared as bounds.
    const bounds = (range: string): string => {
      const caret = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
      if (caret === null || caret[1] === '0') return range;
      return `>=${caret[1]}.${caret[2]}.${caret[3]} <${Number(caret[1]) + 1}`;
    };
    const named = globSync('src/adapters/*/*.ts', { cwd: new URL('.', root) }).flatMap((file) =>
      [...readFileSync(new URL(file, root), 'utf8').matchAll(/const SUPPORTED_\w+_RANGE = '(\S+) ([^']+)';/g)].map((match) => ({
        file,
        name: match[1] as string,
        range: match[2] as string,
      })),
    );
    expect(named.length).toBeGreaterThanOrEqual(4);
    for (const { file, name, range } of named) expect(bounds(range), `${file}: ${name}`).toBe(bounds(pkg.peerDependencies[name] ?? 'not a peer'));
  });
});
